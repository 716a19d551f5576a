from django.core.cache import cache

def take():
    cache.add("a", 1)  # error: BG502
