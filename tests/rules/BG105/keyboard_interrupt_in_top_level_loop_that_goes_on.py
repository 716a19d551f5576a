# Flagged: keyboard interrupt in top level loop that goes on.
def main():
    pass

if __name__ == "__main__":
    while True:
        try:
            main()
        except KeyboardInterrupt:  # error: BG105
            continue
