# Not flagged: not non blocking queue get.
import queue
import multiprocessing
import subprocess
import threading
from concurrent.futures import Future, ThreadPoolExecutor

import confluent_kafka
import httpx
import requests
from celery import shared_task
from kafka import KafkaProducer

URL = "https://erp.example.com/api"
pool = ThreadPoolExecutor(max_workers=2)
jobs = queue.Queue(maxsize=100)
mp_jobs = multiprocessing.Queue(100)
producer = KafkaProducer()
cproducer = confluent_kafka.Producer({})
session = requests.Session()
client = httpx.Client()

def work():
    return 1

@shared_task
def sync(fut: Future):
    proc = subprocess.Popen(["rsync", "a", "b"])
    worker = threading.Thread(target=work)
    jobs.get(block=False)
    jobs.get(False); jobs.get_nowait()
