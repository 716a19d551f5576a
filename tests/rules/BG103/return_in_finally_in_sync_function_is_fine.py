# Not flagged: return in finally in sync function is fine.
def parse(text):
    try:
        value = int(text)
    finally:
        return 0
