# Flagged: keyboard interrupt in loop.
def serve(poll):
    while True:
        try:
            poll()
        except KeyboardInterrupt:  # error: BG105
            print("press again to quit")
