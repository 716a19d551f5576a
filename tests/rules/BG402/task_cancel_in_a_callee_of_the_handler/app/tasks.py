TASKS = []

def cancel_all():
    for t in TASKS:
        t.cancel()  # error: BG402
