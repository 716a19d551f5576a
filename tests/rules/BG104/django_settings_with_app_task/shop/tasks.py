from proj.celery import app

@app.task
def sync_orders():
    try:
        work()
    except Exception:  # error: BG104
        print("failed")
    mark_synced()
