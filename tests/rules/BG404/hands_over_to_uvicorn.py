# Not flagged: hands over to uvicorn.
import threading
import uvicorn

def work():
    outbox.commit()

if __name__ == "__main__":
    threading.Thread(target=work, daemon=True).start()  # error: BG403
    uvicorn.run("app:app", host="0.0.0.0")
