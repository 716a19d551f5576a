from starlette.background import BackgroundTask, BackgroundTasks
from starlette.responses import JSONResponse

from shop.pay import charge_customer

async def checkout(request):
    return JSONResponse({"ok": True}, background=BackgroundTask(charge_customer, 1))  # error: BG601

async def checkout_many(request):
    tasks = BackgroundTasks()
    tasks.add_task(charge_customer, 1)  # error: BG601
    return JSONResponse({"ok": True}, background=tasks)
