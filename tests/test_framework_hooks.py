"""The functions a framework runs inside a transaction it opens (bgcheck.model.framework_hooks):
Django's model-signal receivers, and forms saved by the admin or a platform's edit views (BG604)."""

from __future__ import annotations

import textwrap

from conftest import reported_at, write_project

TASKS = """
from celery import shared_task


@shared_task
def reindex(pk): ...
"""

MODELS = """
from django.db import models


class Product(models.Model):
    name = models.CharField(max_length=100)


class Photo(models.Model):
    product = models.ForeignKey(Product, on_delete=models.CASCADE)
"""

SIGNALS = """
from django.db.models.signals import post_save
from django.dispatch import receiver

from shop.models import Product
from shop.tasks import reindex


@receiver(post_save, sender="shop.Product")
def product_saved(sender, instance, **kwargs):
    reindex.delay(instance.pk)
"""

ADMIN_WITHOUT_PRODUCT = """
from django.contrib import admin

from shop.models import Photo

admin.site.register(Photo)
"""

ADMIN_WITH_AN_INLINE = """
from django.contrib import admin

from shop.models import Photo, Product


class ProductInline(admin.TabularInline):
    model = Product


class PhotoAdmin(admin.ModelAdmin):
    inlines = [ProductInline]


admin.site.register(Photo, PhotoAdmin)
"""

CUSTOM_SITE = """
from django.contrib import admin

from shop.models import Product


class ShopSite(admin.AdminSite):
    site_header = "Shop"


shop_site = ShopSite(name="shop")
shop_site.register(Product)
"""


def _project(tmp_path, admin: str) -> None:
    write_project(tmp_path, {
        "shop/__init__.py": "", "shop/tasks.py": TASKS, "shop/models.py": MODELS,
        "shop/signals.py": SIGNALS, "shop/admin.py": admin,
    })


def test_a_post_save_receiver_counts_once_the_admin_edits_its_model_cached_as_cold(tmp_path, monkeypatch):
    """The receiver in signals.py runs in a transaction only when admin.py (another module) gives
    the admin its model: registered directly, as an inline, or on a project AdminSite. A cached run
    follows each edit of admin.py as a cold one does."""
    _project(tmp_path, ADMIN_WITHOUT_PRODUCT)
    monkeypatch.chdir(tmp_path)
    admin = tmp_path / "shop" / "admin.py"
    assert reported_at("BG604") == reported_at("BG604", "--no-cache") == []
    for source in (ADMIN_WITH_AN_INLINE, CUSTOM_SITE):
        admin.write_text(textwrap.dedent(source))
        assert reported_at("BG604") == reported_at("BG604", "--no-cache") == ["shop/signals.py:11:5"]
    admin.write_text(textwrap.dedent(ADMIN_WITHOUT_PRODUCT))
    assert reported_at("BG604") == reported_at("BG604", "--no-cache") == []


def test_m2m_receivers_run_in_a_transaction_whatever_the_sender(tmp_path, monkeypatch):
    """m2m_changed receivers run inside the transaction of a related manager's add()/remove(),
    connected with or without a sender, through ``signals.X.connect`` or ``@receiver``; delete
    receivers do not count, nor does a signal of the project's own (a Signal() it sends itself)."""
    write_project(tmp_path, {
        "shop/__init__.py": "", "shop/tasks.py": TASKS, "shop/models.py": MODELS,
        "shop/handlers.py": """
            from django.db.models import signals
            from django.dispatch import Signal, receiver

            from shop.tasks import reindex

            stock_changed = Signal()


            def any_relation_changed(sender, instance, **kwargs):
                reindex.delay(instance.pk)


            @receiver(signals.pre_delete)
            def about_to_go(sender, instance, **kwargs):
                reindex.delay(instance.pk)


            @receiver(stock_changed)
            def restock(sender, **kwargs):
                reindex.delay(0)


            @receiver([signals.m2m_changed, signals.post_delete])
            def linked(sender, instance, **kwargs):
                reindex.delay(instance.pk)


            signals.m2m_changed.connect(any_relation_changed)
        """,
    })
    monkeypatch.chdir(tmp_path)
    assert reported_at("BG604", "--no-cache") == ["shop/handlers.py:11:5", "shop/handlers.py:26:5"]


def test_framework_hooks_say_how_they_run_in_a_transaction(tmp_path, monkeypatch):
    """The model's table, with the words the findings use."""
    from pathlib import Path

    from bgcheck.load.config import load_config
    from bgcheck.run.engine import load_units
    from bgcheck.model.build import build_index

    _project(tmp_path, ADMIN_WITH_AN_INLINE)
    monkeypatch.chdir(tmp_path)
    config = load_config(start=tmp_path)
    units = load_units([Path(".")], config, jobs=1)
    index = build_index([u.summary for u in units if u.summary is not None], config)
    assert dict(index.hooks_in_transaction) == {
        "shop.signals.product_saved": "a `post_save` receiver of `Product`, which runs inside the transaction that saves "
        "`Product` (the Django admin saves it inside transaction.atomic(), as an inline of `PhotoAdmin`)",
    }
    assert dict(index.receivers_left_out) == {}


def test_verbose_says_why_a_receiver_is_left_out(tmp_path, monkeypatch):
    """A receiver whose model bgcheck sees saved in no transaction, and a delete receiver: --verbose
    names the fact that kept BG604 silent."""
    from click.testing import CliRunner

    from bgcheck.cli import main

    _project(tmp_path, ADMIN_WITHOUT_PRODUCT)
    (tmp_path / "shop" / "cleanup.py").write_text(textwrap.dedent("""
        from django.db.models.signals import post_delete
        from django.dispatch import receiver

        from shop.models import Photo
        from shop.tasks import reindex


        @receiver(post_delete, sender=Photo)
        def photo_deleted(sender, instance, **kwargs):
            reindex.delay(instance.product_id)
    """))
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["check", "--verbose", "--select", "BG604", "."])
    assert "All checks passed" in result.stdout
    notes = sorted(line for line in result.stderr.splitlines() if "BG604 not reported" in line)
    assert notes == [
        "bgcheck: note: shop/cleanup.py:11:5: BG604 not reported: a `post_delete` receiver runs inside the transaction of "
        "Model.delete(), but what it sends names rows that are going away: delete receivers are not counted",
        "bgcheck: note: shop/signals.py:11:5: BG604 not reported: a `post_save` receiver runs in the transaction of whatever "
        "saves `Product`, and bgcheck sees none that does (an admin registration, a platform's edit view, an editing view "
        "under ATOMIC_REQUESTS)",
    ]


def test_a_model_label_names_a_class_of_its_app_only(tmp_path, monkeypatch):
    """``sender="auth.User"`` is Django's user model, not the project's own ``accounts.models.User``
    that the admin edits; ``sender="accounts.User"`` is that one."""
    write_project(tmp_path, {
        "accounts/__init__.py": "", "accounts/tasks.py": TASKS.replace("shop", "accounts"),
        "accounts/models.py": """
            from django.db import models


            class User(models.Model):
                name = models.CharField(max_length=100)
        """,
        "accounts/admin.py": """
            from django.contrib import admin

            from accounts.models import User

            admin.site.register(User)
        """,
        "accounts/signals.py": """
            from django.db.models.signals import post_save
            from django.dispatch import receiver

            from accounts.tasks import reindex


            @receiver(post_save, sender="auth.User")
            def django_user_saved(sender, instance, **kwargs):
                reindex.delay(instance.pk)


            @receiver(post_save, sender="accounts.User")
            def own_user_saved(sender, instance, **kwargs):
                reindex.delay(instance.pk)
        """,
    })
    monkeypatch.chdir(tmp_path)
    assert reported_at("BG604", "--no-cache") == ["accounts/signals.py:15:5"]
