from shop.base_settings import *  # noqa: F403

INSTALLED_APPS = ["django.contrib.auth", "shop"]
DEBUG = True
LOAD_RATES = False
