import schedule
from proj.locks import run_alone

def send_invoices():
    return run_alone("send-invoices", lambda: 1)

schedule.every(5).minutes.do(send_invoices)
