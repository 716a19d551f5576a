# Not flagged: bare except in plain sync function is fine.
def parse(text):
    try:
        return int(text)
    except:
        return None
