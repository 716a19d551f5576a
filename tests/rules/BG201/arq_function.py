# Flagged: arq function.
async def tail_log(ctx):
    while True:  # error: BG201
        await ctx["redis"].blpop("log")

class WorkerSettings:
    functions = [tail_log]
