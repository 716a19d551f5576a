from celery import shared_task
from django.core.mail import send_mail

from orders.models import Order


@shared_task(acks_late=True)
def send_order_confirmation(order_id: int) -> None:
    order = Order.objects.get(pk=order_id)
    send_mail(f"Your order {order.number}", order.confirmation_text(), "shop@example.com", [order.customer.email])


@shared_task(acks_late=True)
def refresh_stock_report() -> None:
    Order.objects.refresh_report()
