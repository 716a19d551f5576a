# Not flagged: not outside job code (a command-line script's call to another service).
import requests

def cli(export_id):
    requests.get("https://example.com")

if __name__ == "__main__":
    cli(1)
