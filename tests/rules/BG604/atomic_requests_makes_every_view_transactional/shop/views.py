from django.db import transaction

from shop.tasks import send_receipt

def place_order(request):
    request.user.orders.create(total=1)
    send_receipt.delay(1)  # error: BG604

@transaction.non_atomic_requests
def place_order_fast(request):
    send_receipt.delay(1)
