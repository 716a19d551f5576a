# Flagged: a `schedule` job runs on the main thread, where Ctrl-C and a SIGTERM handler's
# SystemExit arrive: the bare except swallows them and the loop runs on.
import schedule


def sync():
    try:
        work()
    except:  # error: BG102
        pass


schedule.every(10).minutes.do(sync)
