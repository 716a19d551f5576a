from celery import shared_task
from django.core import mail
from django.core.mail import EmailMultiAlternatives, get_connection, send_mail, send_mass_mail


@shared_task
def send_receipt(address, body):
    send_mail("Your receipt", body, "shop@example.com", [address])


@shared_task
def send_newsletter(addresses, text, html):
    message = EmailMultiAlternatives("News", text, "shop@example.com", addresses)
    message.attach_alternative(html, "text/html")
    message.send()


@shared_task
def report_failure(reason):
    mail.mail_admins("Import failed", reason)


@shared_task
def send_reminders(reminders):
    send_mass_mail([(r.subject, r.body, "shop@example.com", [r.address]) for r in reminders])


@shared_task
def send_with_own_connection(address, body):
    # Not flagged: the connection handed in was made with its own timeout.
    send_mail("Your receipt", body, "shop@example.com", [address], connection=get_connection(timeout=10))
