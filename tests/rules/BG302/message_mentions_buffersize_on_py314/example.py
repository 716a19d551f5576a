from concurrent.futures import ThreadPoolExecutor

def run(items, handle):
    with ThreadPoolExecutor() as pool:
        pool.map(handle, (i for i in items))  # error: BG302
