import threading
from proj.shipper import ship_metrics

def main():
    shipper = threading.Thread(target=ship_metrics, name="shipper")  # error: BG202
    shipper.start()
