from printer.comm import Connection


def connect():
    return Connection()
