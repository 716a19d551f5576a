# Flagged: main block starts apscheduler.
from apscheduler.schedulers.blocking import BlockingScheduler

def main():
    scheduler = BlockingScheduler()
    scheduler.add_job(outbox.commit, "interval", seconds=5)
    outbox.commit()
    scheduler.start()

if __name__ == "__main__":  # error: BG404
    main()
