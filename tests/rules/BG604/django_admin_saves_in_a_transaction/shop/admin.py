# Flagged: the admin's add, change and delete views run inside transaction.atomic() for every POST,
# so a task enqueued in save_model (after the save), save_related or response_change can start
# before the commit and read the old row. Not flagged: a save_model that saves nothing (the admin's
# transaction has nothing to take back), a task sent from transaction.on_commit(), a method the
# admin does not run in its transaction (get_queryset), and a save_model on a class that is no
# ModelAdmin.
from django.contrib import admin
from django.db import transaction

from shop.tasks import notify_warehouse, reindex_product


class ProductAdmin(admin.ModelAdmin):
    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        reindex_product.delay(obj.pk)  # error: BG604

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        notify_warehouse.delay(form.instance.pk)  # error: BG604

    def response_change(self, request, obj):
        transaction.on_commit(lambda: reindex_product.delay(obj.pk))
        return super().response_change(request, obj)

    def get_queryset(self, request):
        notify_warehouse.delay(0)
        return super().get_queryset(request)


class StockAdmin(admin.ModelAdmin):
    def save_model(self, request, obj, form, change):
        notify_warehouse.delay(obj.pk)


class Exporter:
    def save_model(self, obj):
        obj.save()
        reindex_product.delay(obj.pk)
