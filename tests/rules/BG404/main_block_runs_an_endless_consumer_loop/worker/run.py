from worker.consume import consume

if __name__ == "__main__":  # error: BG404
    consume(print, print)
