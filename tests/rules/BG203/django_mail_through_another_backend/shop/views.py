from django.core.mail import send_mail
from django.http import HttpResponse


def contact(request):
    # Not flagged: a request handler, not job code.
    send_mail("Contact", request.POST["text"], "shop@example.com", ["support@example.com"])
    return HttpResponse("sent")
