INSTALLED_APPS = ["django.contrib.auth", "shop"]
SYNC_PARTNERS = False

try:
    from shop.local_settings import *  # noqa: F403
except ImportError:
    pass
