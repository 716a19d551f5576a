# Not flagged: the stop is re-raised unless a failure was recorded before; then that failure is raised.
class PumpFailed(Exception):
    pass


async def pump(channel, state):
    try:
        await channel.forward()
    except BaseException:
        if state.failure is None:
            raise
        raise PumpFailed("the pump had failed") from state.failure
