# Flagged: write two calls from the target is flagged with its chain.
import threading

def save_settings(store):
    store.save()

def settings(store):
    save_settings(store)

def refresh(store):
    settings(store)

def start(store):
    threading.Thread(target=refresh, args=(store,), daemon=True).start()  # error: BG403
