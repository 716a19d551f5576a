from fastapi import BackgroundTasks, FastAPI

from shop.pay import charge_customer

app = FastAPI()

@app.post("/checkout")
def checkout(order_id: int, tasks: BackgroundTasks):
    tasks.add_task(charge_customer, order_id)  # error: BG601
    return {"ok": True}
