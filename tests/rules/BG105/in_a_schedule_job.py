# Flagged: in a `schedule` job, which runs on the main thread where a SIGTERM handler's
# SystemExit arrives.
import schedule


def sync():
    try:
        work()
    except SystemExit:  # error: BG105
        pass


schedule.every().hour.do(sync)
