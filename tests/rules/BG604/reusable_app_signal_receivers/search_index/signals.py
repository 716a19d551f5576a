from django.db import transaction
from django.db.models import signals
from django.dispatch import receiver

from search_index.models import IndexedDocument
from search_index.tasks import index_object, unindex_object


@receiver(signals.post_save, sender=IndexedDocument)
def document_saved(sender, instance, **kwargs):
    index_object.delay("search_index.indexeddocument", instance.pk)


@receiver(signals.pre_save, sender=IndexedDocument)
def document_saved_later(sender, instance, **kwargs):
    transaction.on_commit(lambda: index_object.delay("search_index.indexeddocument", instance.pk))


@receiver(signals.post_delete, sender=IndexedDocument)
def document_deleted(sender, instance, **kwargs):
    unindex_object.delay("search_index.indexeddocument", instance.pk)


class SignalProcessor:
    """Indexes every model the installing project saves."""

    def setup(self):
        signals.post_save.connect(self.handle_save)

    def handle_save(self, sender, instance, **kwargs):
        enqueue(sender._meta.label_lower, instance.pk)


def enqueue(label, pk):
    index_object.delay(label, pk)


def reindex(document):
    index_object.delay("search_index.indexeddocument", document.pk)
