from asyncio import CancelledError as Stop
