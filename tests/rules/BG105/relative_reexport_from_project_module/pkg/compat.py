import asyncio
Stop = asyncio.CancelledError
