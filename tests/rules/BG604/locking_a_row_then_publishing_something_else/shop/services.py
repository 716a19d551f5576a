from django.db import transaction

from shop.models import Account
from shop.tasks import send_receipt

def debit(account_id, user_id, amount):
    with transaction.atomic():
        account = Account.objects.select_for_update().get(pk=account_id)
        account.balance -= amount
        account.save()
        send_receipt.delay(user_id)  # error: BG604

@transaction.atomic
def debit_again(account_id, amount):
    account = Account.objects.select_for_update().get(pk=account_id)
    account.save()
    send_receipt.delay("debited")  # error: BG604
