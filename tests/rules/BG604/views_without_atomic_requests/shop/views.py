from shop.tasks import send_receipt

def place_order(request):
    send_receipt.delay(1)
