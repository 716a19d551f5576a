from django.core.cache import cache

LOCK = "import-lock"

def run_import():
    if cache.add(LOCK, 1, 600):
        try:
            pass
        finally:
            cache.delete(LOCK)  # error: BG503

def reset():
    lock_key = "import-lock"
    cache.delete(lock_key)  # error: BG503
    cache.delete("other-key")
