def follow_feed():
    while True:  # error: BG201
        print("tick")
