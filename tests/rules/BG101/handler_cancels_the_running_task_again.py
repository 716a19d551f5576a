# Not flagged: the handler cancels the running task again (`asyncio.current_task().cancel()`, or
# through a name bound to it): the stop is not lost but moved to the task's next suspension point,
# here the next `await` of the loop. A consumer of an agent's events uses it to redeliver an
# interrupt that landed in its own awaits into the agent's next step.
# Flagged: the handler cancels another task (the agent's), not the running one.
import asyncio


class Relay:
    def __init__(self, agent, bus):
        self.agent = agent
        self.bus = bus

    async def relay(self):
        while True:
            event = await self.agent.next_event()
            try:
                await self.bus.publish(event)
            except asyncio.CancelledError:
                current = asyncio.current_task()
                if current is not None:
                    current.cancel()

    async def relay_directly(self):
        while True:
            event = await self.agent.next_event()
            try:
                await self.bus.publish(event)
            except asyncio.CancelledError:
                asyncio.current_task().cancel()

    async def relay_and_stop_the_agent(self, agent_task):
        while True:
            event = await self.agent.next_event()
            try:
                await self.bus.publish(event)
            except asyncio.CancelledError:  # error: BG101
                agent_task.cancel()
