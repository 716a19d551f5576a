from django.apps import AppConfig
from django.db.models import signals

from shop.tasks import reindex_product


def review_deleted(sender, instance, **kwargs):
    reindex_product.delay(instance.product_id)


def supplier_saved(sender, instance, **kwargs):
    reindex_product.delay(instance.pk)


def product_renamed(sender, instance, **kwargs):
    reindex_product.delay(instance.pk)  # error: BG604


class ShopConfig(AppConfig):
    name = "shop"

    def ready(self):
        signals.post_delete.connect(review_deleted, sender="shop.Review")
        signals.post_save.connect(supplier_saved, sender=self.get_model("Supplier"))
        signals.post_save.connect(product_renamed, sender=self.get_model("Product"))
