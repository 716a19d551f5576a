# Flagged: interrupted error in loop that logs is not the retry shape.
import os

def read_all(fd):
    chunks = []
    while True:
        try:
            chunk = os.read(fd, 1024)
        except InterruptedError:  # error: BG101
            print("interrupted")
            break
        chunks.append(chunk)
    return chunks
