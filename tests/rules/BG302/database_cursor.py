# Flagged: database cursor.
import sqlite3
from concurrent.futures import ThreadPoolExecutor

def run(path, handle):
    conn = sqlite3.connect(path)
    pool = ThreadPoolExecutor()
    cursor = conn.cursor()
    cursor.execute("select id from orders")
    pool.map(handle, cursor)  # error: BG302
    pool.map(handle, conn.execute("select id from orders"))  # error: BG302
