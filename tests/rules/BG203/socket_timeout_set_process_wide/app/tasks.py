# Not flagged: urlopen() and SMTP with no timeout of their own, in a project that calls
# socket.setdefaulttimeout() (app/settings.py): every socket of the process has that bound.
import smtplib
import urllib.request

from celery import shared_task


@shared_task
def fetch_rates(url):
    with urllib.request.urlopen(url) as response:
        return response.read()


@shared_task
def send_receipt(address, body):
    with smtplib.SMTP("mail.example.com", 587) as server:
        server.sendmail("shop@example.com", [address], body)
