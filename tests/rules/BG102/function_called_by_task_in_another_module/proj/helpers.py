def fetch_all():
    try:
        download()
    except:  # error: BG102
        pass

def unrelated():
    try:
        download()
    except:
        pass
