from django.contrib import admin

from shop.models import Product, Review


@admin.register(Review)
class ReviewAdmin(admin.ModelAdmin):
    list_display = ("product",)


admin.site.register(Product)
