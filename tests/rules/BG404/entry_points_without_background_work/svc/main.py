import sys

def main():
    print("migrating")
    return 0

if __name__ == "__main__":
    sys.exit(main())
