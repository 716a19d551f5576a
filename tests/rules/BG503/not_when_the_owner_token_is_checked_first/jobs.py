import uuid

from django.core.cache import cache

LOCK = "rate-limit-lock"


def consume():
    token = uuid.uuid4().hex
    if not cache.add(LOCK, token, timeout=30):
        return
    try:
        pass
    finally:
        if cache.get(LOCK) == token:
            cache.delete(LOCK)  # silent: the value is this holder's token


def consume_carelessly():
    token = uuid.uuid4().hex
    if cache.add(LOCK, token, timeout=30):
        try:
            pass
        finally:
            if cache.get(LOCK) is not None:
                cache.delete(LOCK)  # error: BG503
            if cache.get("another-key") == token:
                cache.delete(LOCK)  # error: BG503


def consume_backwards():
    token = uuid.uuid4().hex
    if cache.add(LOCK, token, timeout=30):
        if cache.get(LOCK) == token:
            pass
        else:
            cache.delete(LOCK)  # error: BG503
