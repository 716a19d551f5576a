# Not flagged: keyboard interrupt returning from sync loop.
def main(poll):
    while True:
        try:
            poll()
        except KeyboardInterrupt:
            return 130
