import schedule

def send_invoices():  # error: BG205
    return 1

schedule.every().day.at("03:00").do(send_invoices)
