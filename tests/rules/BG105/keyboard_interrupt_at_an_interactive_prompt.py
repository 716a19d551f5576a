import asyncio

from prompt_toolkit import PromptSession
from rich.prompt import Prompt


# Not flagged: Ctrl-C at the prompt cancels the line being typed and the shell asks again, as
# Python's own REPL does; the user leaves with /exit or Ctrl-D.
async def chat(agent):
    session = PromptSession()
    while True:
        try:
            line = await session.prompt_async("> ")
            if line == "/exit":
                return
            await agent.reply(line)
        except KeyboardInterrupt:
            continue
        except EOFError:
            return


# Not flagged: the builtin input() and rich's Prompt.ask() are prompts too.
async def setup_wizard(config):
    for key in config.missing():
        try:
            config[key] = Prompt.ask(f"{key}?")
        except KeyboardInterrupt:
            config[key] = None


def console(bot):
    while bot.alive:
        try:
            bot.run_command(input("bot> "))
        except KeyboardInterrupt:
            print("use quit to leave")


# Flagged: no prompt in the try: Ctrl-C lands in the work and the coroutine goes on.
async def follow(feed):
    while True:
        try:
            await feed.pull()
        except KeyboardInterrupt:  # error: BG105
            await asyncio.sleep(1)


# Flagged: the prompt is in another function, called after the work that Ctrl-C interrupts.
async def batch(jobs, ask):
    for job in jobs:
        try:
            await job.run()
        except KeyboardInterrupt:  # error: BG105
            pass
    ask()


# Not flagged: the prompt is before the try, in the same loop: Ctrl-C interrupts the command the
# shell runs and brings the user back to the prompt, as a shell does.
async def terminal(handle):
    session = PromptSession()
    while True:
        line = await session.prompt_async("$ ")
        try:
            await handle(line)
        except KeyboardInterrupt:
            continue


# Flagged: the loop around the handler is the command's own, which goes on after Ctrl-C.
async def replay(handle):
    session = PromptSession()
    while True:
        lines = (await session.prompt_async("$ ")).split(";")
        for line in lines:
            try:
                await handle(line)
            except KeyboardInterrupt:  # error: BG105
                continue



# Not flagged: the prompt runs in a thread the try waits for (a lambda or the function handed over).
async def read_lines(loop, handle):
    while True:
        try:
            await handle(await loop.run_in_executor(None, lambda: input("> ")))
        except KeyboardInterrupt:
            print("^C")


async def read_secrets(handle):
    while True:
        try:
            await handle(await asyncio.to_thread(input, "secret: "))
        except KeyboardInterrupt:
            continue


# Not flagged: the prompt is the project's own helper, which asks through input().
async def ask(question):
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(None, lambda: input(question))


async def confirm_each(actions):
    while actions:
        try:
            if await ask("run? ") == "y":
                await actions.pop().run()
        except KeyboardInterrupt:
            print("^C")


# Flagged: the lambda handed to the thread does work, not a prompt.
async def compress_all(loop, chunks, codec, out):
    while True:
        try:
            await out.write(await loop.run_in_executor(None, lambda: codec.compress(chunks.get())))
        except KeyboardInterrupt:  # error: BG105
            continue
