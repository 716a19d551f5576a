from fastapi import FastAPI
from sqlalchemy import text
from shop.db import session

app = FastAPI()

@app.post("/orders/{pk}/refund")
def refund(pk: int):
    session.execute(text("SELECT * FROM orders WHERE id = :pk FOR UPDATE"), {"pk": pk})
    return {"ok": True}
