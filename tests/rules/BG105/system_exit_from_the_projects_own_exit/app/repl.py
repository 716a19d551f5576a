# The loop calls the project's own command (another module), which can sys.exit(): the program's
# exit request is swallowed and the loop goes on. The SIGTERM handler raises nothing.
import signal

from app.commands import run_command


class Repl:
    def __init__(self):
        self.running = True

    def stop(self, signum, frame):
        self.running = False

    def run(self, lines):
        signal.signal(signal.SIGTERM, self.stop)
        for line in lines:
            try:
                run_command(line)
            except SystemExit:  # error: BG105
                continue
