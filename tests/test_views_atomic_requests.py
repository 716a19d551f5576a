"""BG604 under Django's ``ATOMIC_REQUESTS``: every view runs in a transaction, whatever its module is
called. Views are Django REST framework APIView / viewset / generic view handlers, ``@api_view``
functions, django-ninja operations, class-based views' handlers and whatever ``urls.py`` routes to;
``@transaction.non_atomic_requests`` (on the view, its class, or around the route) opts one out,
and an ``async def`` view never runs under ATOMIC_REQUESTS.

Each publish sends an order the transaction creates: a transaction that writes nothing has nothing
to roll back and is not flagged (tests/rules/BG604/transactions_that_write_nothing)."""

from __future__ import annotations

from conftest import codes

SETTINGS = """
DATABASES = {
    "default": {"ENGINE": "django.db.backends.postgresql", "NAME": "shop", "ATOMIC_REQUESTS": True},
}
"""

TASKS = """
from celery import shared_task

@shared_task
def send_receipt(order_id):
    pass
"""


def project(atomic: bool = True, **files: str) -> dict:
    found = {
        "config/__init__.py": "",
        "config/settings.py": SETTINGS if atomic else SETTINGS.replace('"ATOMIC_REQUESTS": True', '"ATOMIC_REQUESTS": False'),
        "shop/__init__.py": "",
        "shop/tasks.py": TASKS,
    }
    found.update(files)
    return found


DRF = """
from rest_framework import generics, viewsets
from rest_framework.decorators import action, api_view
from rest_framework.views import APIView

from shop.tasks import send_receipt


class OrderView(APIView):
    def post(self, request):
        send_receipt.delay(Order.objects.create(ref=1).id)


class OrderViewSet(viewsets.ModelViewSet):
    def perform_create(self, serializer):
        order = serializer.save()
        send_receipt.delay(Order.objects.create(ref=order.id).id)

    @action(detail=True, methods=["post"])
    def resend(self, request, pk=None):
        send_receipt.delay(Order.objects.create(ref=pk).id)

    def _helper(self, order):
        send_receipt.delay(Order.objects.create(ref=order.id).id)


class Create(generics.CreateAPIView):
    def create(self, request, *args, **kwargs):
        send_receipt.delay(Order.objects.create(ref=2).id)


@api_view(["POST"])
def refund(request):
    send_receipt.delay(Order.objects.create(ref=3).id)
"""


def test_drf_views_in_a_module_not_named_views_are_flagged(bg):
    found = bg.files(project(**{"shop/api/__init__.py": "", "shop/api/endpoints.py": DRF}), select=["BG604"])
    assert codes(found) == [("BG604", 11), ("BG604", 17), ("BG604", 21), ("BG604", 29), ("BG604", 34)]
    assert all(d.location.path == "shop/api/endpoints.py" for d in found)
    assert "a method of a `APIView` subclass" in found[0].explanation
    assert "ATOMIC_REQUESTS" in found[0].explanation
    assert "`@api_view`" in found[-1].explanation


def test_drf_views_without_atomic_requests_are_not_flagged(bg):
    found = bg.files(project(atomic=False, **{"shop/api/__init__.py": "", "shop/api/endpoints.py": DRF}), select=["BG604"])
    assert codes(found) == []


SETTINGS_ON_A_HANDED_OBJECT = """
import environ


def setup_settings(settings, base_dir):
    env = environ.Env()
    settings.SECRET_KEY = env("SECRET_KEY")
    settings.DATABASES = {
        "default": {"ENGINE": "django.db.backends.postgresql", "NAME": env("POSTGRES_DB"), "ATOMIC_REQUESTS": {atomic}},
    }
"""


def test_settings_filled_in_on_an_object_a_function_is_handed(bg):
    # a platform's settings function that the projects it generates call from their settings module
    # (``setup_settings(sys.modules[__name__], BASE_DIR)``): its DATABASES turn ATOMIC_REQUESTS on
    for atomic, reported in (("True", [("BG604", 11), ("BG604", 17), ("BG604", 21), ("BG604", 29), ("BG604", 34)]), ("False", [])):
        found = bg.files(
            project(
                atomic=False,
                **{
                    "config/settings.py": "",
                    "platform/__init__.py": "",
                    "platform/settings_base.py": SETTINGS_ON_A_HANDED_OBJECT.replace("{atomic}", atomic),
                    "shop/api/__init__.py": "",
                    "shop/api/endpoints.py": DRF,
                },
            ),
            select=["BG604"],
        )
        assert codes(found) == reported, atomic


def test_view_classes_through_a_project_base_class_in_another_module(bg):
    found = bg.files(
        project(
            **{
                "shop/base.py": """
                    from django.views import View

                    class BaseView(View):
                        pass
                    """,
                "shop/checkout.py": """
                    from shop.base import BaseView
                    from shop.tasks import send_receipt

                    class CheckoutView(BaseView):
                        def post(self, request):
                            send_receipt.delay(Order.objects.create(ref=1).id)

                        def notify(self, order):  # not a handler: judged through its callers
                            send_receipt.delay(Order.objects.create(ref=order.id).id)

                    class Plain:
                        def post(self, request):  # not a view class
                            send_receipt.delay(Order.objects.create(ref=2).id)
                    """,
            }
        ),
        select=["BG604"],
    )
    assert codes(found) == [("BG604", 7)]
    assert "`View` subclass" in found[0].explanation


def test_ninja_operations_are_views_and_async_ones_are_not(bg):
    found = bg.files(
        project(
            **{
                "shop/api.py": """
                    from ninja import NinjaAPI, Router

                    from shop.tasks import send_receipt

                    api = NinjaAPI()
                    router = Router()

                    @router.post("/orders")
                    def create_order(request):
                        send_receipt.delay(Order.objects.create(ref=1).id)

                    @api.get("/orders/{pk}")
                    def show_order(request, pk: int):
                        send_receipt.delay(Order.objects.create(ref=pk).id)

                    @router.post("/fast")
                    async def create_fast(request):
                        send_receipt.delay(Order.objects.create(ref=2).id)
                    """,
            }
        ),
        select=["BG604"],
    )
    assert codes(found) == [("BG604", 11), ("BG604", 15)]
    assert "django-ninja operation" in found[0].explanation


def test_what_urls_routes_to_is_a_view(bg):
    found = bg.files(
        project(
            **{
                "shop/handlers.py": """
                    from shop.tasks import send_receipt

                    def create_order(req):
                        send_receipt.delay(Order.objects.create(ref=1).id)

                    def cancel_order(req):
                        send_receipt.delay(Order.objects.create(ref=2).id)

                    def not_routed(req):
                        send_receipt.delay(Order.objects.create(ref=3).id)

                    class Legacy:
                        def post(self, req):
                            send_receipt.delay(Order.objects.create(ref=4).id)

                        @classmethod
                        def as_view(cls):
                            return cls().post
                    """,
                "shop/urls.py": """
                    from django.contrib.auth.decorators import login_required
                    from django.db import transaction
                    from django.urls import path, re_path

                    from shop import handlers

                    urlpatterns = [
                        path("orders/", login_required(handlers.create_order)),
                        re_path(r"^cancel/$", transaction.non_atomic_requests(handlers.cancel_order)),
                        path("legacy/", handlers.Legacy.as_view(), name="legacy"),
                    ]
                    """,
            }
        ),
        select=["BG604"],
    )
    assert codes(found) == [("BG604", 5), ("BG604", 15)]
    assert "routed in urls.py" in found[0].explanation


def test_non_atomic_requests_opts_views_out(bg):
    found = bg.files(
        project(
            **{
                "shop/api.py": """
                    from django.db import transaction
                    from django.utils.decorators import method_decorator
                    from rest_framework.decorators import api_view
                    from rest_framework.views import APIView

                    from shop.tasks import send_receipt

                    @method_decorator(transaction.non_atomic_requests, name="dispatch")
                    class OrderView(APIView):
                        def post(self, request):
                            send_receipt.delay(Order.objects.create(ref=1).id)

                    @api_view(["POST"])
                    @transaction.non_atomic_requests
                    def refund(request):
                        send_receipt.delay(Order.objects.create(ref=2).id)

                    class Other(APIView):
                        @method_decorator(transaction.non_atomic_requests)
                        def post(self, request):
                            send_receipt.delay(Order.objects.create(ref=3).id)
                    """,
            }
        ),
        select=["BG604"],
    )
    assert codes(found) == []
