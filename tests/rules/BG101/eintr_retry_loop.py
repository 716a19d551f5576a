# Not flagged: eintr retry loop.
import os

def read_byte(fd):
    while True:
        try:
            return os.read(fd, 1)
        except InterruptedError:
            continue


def read_byte_noted(fd):
    while True:
        try:
            return os.read(fd, 1)
        except InterruptedError:
            "a string on a line of its own does nothing: still the retry loop"
            continue
