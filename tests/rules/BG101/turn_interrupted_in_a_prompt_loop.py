# A REPL: the loop waits at a terminal prompt, runs the user's turn, and goes back to the prompt.
# Its user is who interrupts it (Ctrl-C, which asyncio.run() turns into a cancel of the main task,
# or the program's own signal or key handler cancelling the turn), and back at the prompt is where
# the user asked to be: not flagged, when the turn's work stops too (a task of the turn is awaited
# alone or cancelled by the handler). A turn left running, a loop with no prompt, or a loop inside
# the turn, is flagged.
import asyncio
import signal

from prompt_toolkit import PromptSession


# Not flagged: Ctrl-C cancels the running turn (its `task.cancel` handed to the signal handler).
class Shell:
    def __init__(self, agent):
        self.agent = agent
        self.session = PromptSession()

    async def run(self):
        while True:
            try:
                line = await self.session.prompt_async("> ")
            except (EOFError, KeyboardInterrupt):
                return
            loop = asyncio.get_running_loop()
            task = loop.create_task(self.agent.reply(line))
            loop.add_signal_handler(signal.SIGINT, task.cancel)
            try:
                await task
            except asyncio.CancelledError:
                print("interrupted")
            finally:
                loop.remove_signal_handler(signal.SIGINT)


# Not flagged: the prompt is the project's own helper (input() run in a thread).
async def read_line(prompt):
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(None, lambda: input(prompt))


async def chat(agent):
    while True:
        line = await read_line("you> ")
        if line == "/quit":
            return
        try:
            await agent.reply(line)
        except asyncio.CancelledError:
            print("turn cancelled")
        except KeyboardInterrupt:
            print("turn interrupted")


# Not flagged: the turn runs as a task polled until done; the handler cancels it, so it stops too.
async def poll_chat(agent):
    while True:
        line = await read_line("you> ")
        try:
            turn = asyncio.create_task(agent.reply(line))
            while not turn.done():
                await asyncio.sleep(0.1)
            print(await turn)
        except asyncio.CancelledError:
            turn.cancel()
            print("turn cancelled")


# Flagged: the same poll with a handler that only prints: Ctrl-C cancels the prompt loop's own
# sleep, and the turn's task goes on running behind the next prompt.
async def poll_chat_and_forget(agent):
    while True:
        line = await read_line("you> ")
        try:
            turn = asyncio.create_task(agent.reply(line))
            while not turn.done():
                await asyncio.sleep(0.1)
            print(await turn)
        except asyncio.CancelledError:  # error: BG101
            print("turn cancelled")


# Not flagged: the turn's task is registered with an interrupt controller whose SIGINT handler
# cancels it; the try goes on to more work after it.
class Interrupts:
    def __init__(self):
        self.tasks = []

    def register(self, task):
        self.tasks.append(task)

    def on_sigint(self):
        for task in self.tasks:
            task.cancel()


async def controlled_chat(agent, interrupts):
    while True:
        line = await read_line("you> ")
        try:
            step = asyncio.create_task(agent.reply(line))
            interrupts.register(step)
            message = await step
            await agent.run_tools(message)
        except asyncio.CancelledError:
            print("turn cancelled")


# Not flagged: the prompt is a method of the project's abstract UI, which its terminal UI
# implements with prompt_toolkit: called through the base class, it may run that override.
class UI:
    async def prompt(self):
        raise NotImplementedError


class TerminalUI(UI):
    def __init__(self):
        self.session = PromptSession()

    async def prompt(self):
        return await self.session.prompt_async("> ")


async def ui_chat(ui: UI, agent):
    while True:
        line = await ui.prompt()
        try:
            await agent.reply(line)
        except asyncio.CancelledError:
            print("turn cancelled")


# Flagged: no prompt in the loop: a stop of the consumer is swallowed and it takes the next message.
async def consume(queue, agent):
    while True:
        message = await queue.get()
        try:
            await agent.reply(message)
        except asyncio.CancelledError:  # error: BG101
            print("reply cancelled")


# Flagged: the handler is in the turn's own streaming loop, not the prompt loop: the stream goes on.
async def stream_chat(agent):
    while True:
        line = await read_line("you> ")
        stream = agent.stream(line)
        while True:
            try:
                chunk = await stream.next()
            except asyncio.CancelledError:  # error: BG101
                continue
            print(chunk, end="")


# Flagged: sys.exit() is no interrupt of a turn, prompt or not.
async def admin(agent):
    while True:
        line = await read_line("admin> ")
        try:
            await agent.run_command(line)
        except SystemExit:  # error: BG105
            print("the command tried to exit")
