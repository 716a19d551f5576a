def consume(poll, producer):
    while True:
        producer.publish(poll())
