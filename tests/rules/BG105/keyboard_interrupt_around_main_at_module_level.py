# Not flagged: keyboard interrupt around main at module level.
import sys

def main():
    run_forever()

if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        print("bye")
