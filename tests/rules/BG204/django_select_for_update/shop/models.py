class Order:
    objects = None
