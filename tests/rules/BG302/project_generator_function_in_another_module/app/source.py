def pending_orders(db):
    for row in db.query("select id from orders"):
        yield row
