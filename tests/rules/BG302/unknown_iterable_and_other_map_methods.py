# Not flagged: unknown iterable and other map methods.
from concurrent.futures import ThreadPoolExecutor

def run(items, handle, conn):
    rows = conn.execute("select 1").fetchall()
    with ThreadPoolExecutor() as pool:
        pool.map(handle, items)
        pool.map(handle, rows)
    list(map(handle, (i for i in items)))
