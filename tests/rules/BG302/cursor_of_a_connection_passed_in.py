# Flagged: cursor of a connection passed in.
from concurrent.futures import ThreadPoolExecutor

def run(conn, handle):
    pool = ThreadPoolExecutor()
    rows = conn.cursor()
    pool.map(handle, rows)  # error: BG302
    pool.map(handle, conn.execute("select id from orders"))  # error: BG302
