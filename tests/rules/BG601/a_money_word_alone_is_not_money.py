# Not flagged: a money word alone is not money: no name patterns by default, so only a payment SDK
# call or a configured function moves money (an in-memory budget, a rate-limit counter refund).
import threading


class Budget:
    def __init__(self):
        self.spent = 0.0

    def charge_cost(self, cost):
        self.spent += cost


def refund_tokens(counter, key):
    counter.refund(key)  # an object bgcheck cannot resolve: its method's name says nothing


def review(budget):
    budget.charge_cost(0.25)


def go(budget, counter):
    threading.Thread(target=review, args=(budget,)).start()
    threading.Thread(target=refund_tokens, args=(counter, "user:1")).start()
