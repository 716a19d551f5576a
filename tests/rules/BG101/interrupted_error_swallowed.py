# Flagged: interrupted error swallowed.
import os

def read_byte(fd):
    try:
        return os.read(fd, 1)
    except InterruptedError:  # error: BG101
        return b""
