# Flagged: system exit in loop.
def serve(jobs):
    for job in jobs:
        try:
            job()
        except SystemExit:  # error: BG101
            continue
