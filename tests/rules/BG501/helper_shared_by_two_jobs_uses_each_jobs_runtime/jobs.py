from celery import Celery
import helpers

app = Celery("proj")

@app.task
def a_fast():
    helpers.locked_step()

@app.task
def b_slow():
    helpers.locked_step()
