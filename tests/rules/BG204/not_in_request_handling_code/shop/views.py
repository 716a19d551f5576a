from django.db import transaction
from django.http import JsonResponse
from shop.models import Order

def pay(request, pk):
    with transaction.atomic():
        order = Order.objects.select_for_update().get(pk=pk)
        order.pay()
    return JsonResponse({"ok": True})
