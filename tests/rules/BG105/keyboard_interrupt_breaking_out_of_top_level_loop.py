# Not flagged: keyboard interrupt breaking out of top level loop.
def main():
    pass

if __name__ == "__main__":
    while True:
        try:
            main()
        except KeyboardInterrupt:
            break
