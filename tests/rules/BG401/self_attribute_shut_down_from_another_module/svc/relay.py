from concurrent.futures import ThreadPoolExecutor

class Relay:
    def __init__(self):
        self.executor = ThreadPoolExecutor(max_workers=2)
