from datetime import timedelta

LOCK_TD = timedelta(minutes=1)
