# Not flagged: not for a write more than two calls from the target.
import threading

def save_settings(store):
    store.save()

def load_settings(store):
    save_settings(store)

def settings(store):
    load_settings(store)

def refresh(store):
    settings(store)

def start(store):
    threading.Thread(target=refresh, args=(store,), daemon=True).start()
