# Not flagged: printer.comm is a library module (printer.service imports it), and its
# __main__ block runs a tool no other module uses: a developer runs it by hand
# (`python -m printer.comm`); it is not how the service starts, as tests are not.
import threading


class Connection:
    def send(self, line):
        outbox.commit(line)


def upload_cli():
    conn = Connection()
    threading.Thread(target=conn.send, args=("G28",)).start()


if __name__ == "__main__":
    upload_cli()
