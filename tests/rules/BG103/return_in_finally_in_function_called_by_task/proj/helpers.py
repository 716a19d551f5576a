def fetch_all():
    try:
        download()
    finally:
        return None  # error: BG103
