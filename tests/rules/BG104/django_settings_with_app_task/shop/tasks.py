from proj.celery import app

@app.task
def sync_orders():
    try:
        work()
    except Exception:  # error: BG106
        print("failed")
    mark_synced()
