# Not flagged: a lock on one row named by its key is a mutex on that row, not a batch for replicas
# to split (skip_locked would make the row vanish while another transaction holds it); nor is a
# lock on every row that matches.
from celery import shared_task
from django.db import transaction
from shop.db import Order, session
from shop.models import Addon, DjangoOrder, User

@shared_task
def settle_order(order_id):
    with transaction.atomic():
        order = DjangoOrder.objects.select_for_update().get(pk=order_id)
        order.settle()
        User.objects.select_for_update().filter(pk=order.user_id).first()
        DjangoOrder.objects.filter(id=order_id).select_for_update().update(state="settled")
        Addon.objects.select_for_update().select_related("project").get(project=order.project_id)
        session.query(Order).filter_by(id=order_id).with_for_update().first()

@shared_task
def refresh_all(user_id):
    with transaction.atomic():
        # Not flagged either: every matching row, locked to serialise with their other writers.
        # The job wants all of them; skip_locked would make it leave some out.
        DjangoOrder.objects.select_for_update().filter(pk__in=[1, 2, 3])
        DjangoOrder.objects.filter(user_id=user_id).select_for_update()
        for order in DjangoOrder.objects.filter(state="paid").select_for_update().order_by("id"):
            order.refresh()

@shared_task
def claim_orders(user_id):
    with transaction.atomic():
        # Flagged: the next paid order, the next hundred, the oldest: a batch that replicas could split.
        DjangoOrder.objects.select_for_update().filter(state="paid").first()  # error: BG204
        DjangoOrder.objects.filter(user_id=user_id).select_for_update()[:100]  # error: BG204
        DjangoOrder.objects.select_for_update().filter(state="paid").order_by("id")[0]  # error: BG204
        DjangoOrder.objects.select_for_update().filter(state="paid").earliest("created")  # error: BG204
        session.query(Order).filter(Order.state == "paid").limit(10).with_for_update().all()  # error: BG204
