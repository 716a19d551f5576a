def fetch_all():
    try:
        download()
    except BaseException:  # error: BG102
        pass
