from apscheduler.schedulers.background import BackgroundScheduler

scheduler = BackgroundScheduler()

@scheduler.scheduled_job("cron", hour=3)
def send_invoices():  # error: BG205
    return 1
