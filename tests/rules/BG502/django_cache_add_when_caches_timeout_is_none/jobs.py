from django.core.cache import cache

def take():
    taken = cache.add("a", 1)  # error: BG502
