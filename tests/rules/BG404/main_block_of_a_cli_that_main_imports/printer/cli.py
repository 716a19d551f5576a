# Flagged: printer.__main__ imports main from this module, so this __main__ block is one of the
# program's starts, not a harness.
import threading


def work():
    outbox.commit()


def main():
    threading.Thread(target=work).start()


if __name__ == "__main__":  # error: BG404
    main()
