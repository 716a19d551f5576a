from app import work

def feed(source):
    while True:
        item = source.read()
        work.a.put(item)
        work.b.put(item)
