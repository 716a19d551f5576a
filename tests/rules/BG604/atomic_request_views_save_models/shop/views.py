from django.db import transaction
from django.utils.decorators import method_decorator
from django.views.generic import CreateView
from rest_framework import viewsets

from shop.forms import ImportForm
from shop.models import Import, Order, Refund


class OrderViewSet(viewsets.ModelViewSet):
    queryset = Order.objects.all()


@method_decorator(transaction.non_atomic_requests, name="dispatch")
class RefundViewSet(viewsets.ModelViewSet):
    queryset = Refund.objects.select_related("order")


class ImportCreateView(CreateView):
    model = Import
    form_class = ImportForm
