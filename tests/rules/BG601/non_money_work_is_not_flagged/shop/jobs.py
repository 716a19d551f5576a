import asyncio
import threading

def send_welcome_mail(user): ...

async def refresh_cache(): ...

async def main(user):
    asyncio.create_task(refresh_cache())  # error: BG606
    threading.Thread(target=send_welcome_mail, args=(user,)).start()
