# Flagged: m2m_changed receivers always run inside the transaction Django opens to change the
# relation; post_save and pre_save receivers of a model the Django admin saves (inside
# transaction.atomic()) run inside that transaction. Not flagged: a post_save receiver of a model the
# project saves nowhere bgcheck sees in a transaction (Visit), a delete receiver (its task is handed
# the ids of rows that are going away), a task sent from transaction.on_commit(), a function that is
# no receiver.
from django.db import transaction
from django.db.models.signals import m2m_changed, post_delete, post_save, pre_delete
from django.dispatch import receiver

from shop.models import Product, Review, Visit
from shop.tasks import log_visit, purge_images, reindex_product, sync_tags


@receiver(post_save, sender=Product)
def product_saved(sender, instance, created, **kwargs):
    reindex_product.delay(instance.pk)  # error: BG604


@receiver(post_delete, sender=Product)
def product_deleted(sender, instance, **kwargs):
    purge_images.delay(instance.pk)


@receiver(m2m_changed, sender=Product.tags.through)
def product_tags_changed(sender, instance, action, **kwargs):
    if action == "post_add":
        sync_tags.delay(instance.pk)  # error: BG604


@receiver([post_save, pre_delete], sender=Review)
def review_changed(sender, instance, **kwargs):
    transaction.on_commit(lambda: reindex_product.delay(instance.product_id))


@receiver(post_save, sender=Visit)
def visit_saved(sender, instance, created, **kwargs):
    log_visit.delay(instance.pk)


def not_a_receiver(product):
    reindex_product.delay(product.pk)
