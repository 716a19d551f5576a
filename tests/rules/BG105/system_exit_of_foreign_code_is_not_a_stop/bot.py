# Not flagged: nothing in the project turns a signal into SystemExit (its SIGTERM handler only
# asks the bot to quit), and the plugin loader calls no sys.exit() of the project: what the clause
# catches is a plugin's own exit, kept from ending the bot.
import logging
import signal

log = logging.getLogger(__name__)


class Bot:
    def __init__(self, plugins):
        self.plugins = plugins
        self.running = True

    def quit(self, signum, frame):
        self.running = False

    def setup(self):
        signal.signal(signal.SIGTERM, self.quit)
        for name, plugin in self.plugins.items():
            try:
                plugin.load()
            except SystemExit:
                log.exception("plugin %s tried to exit", name)
