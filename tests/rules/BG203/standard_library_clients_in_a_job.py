# Flagged: the standard library's network clients made in a job with no timeout: they wait as long
# as the socket's global default allows, which is for ever. A client object takes its timeout when
# it is made, so the constructor is reported (its connect, request or login waits with it).
# Not flagged: the same calls given a timeout, by keyword or in its position.
import ftplib
import httplib2
import http.client
import smtplib
import socket
import urllib.request
import xmlrpc.client
from urllib.request import urlopen

from celery import shared_task


@shared_task
def fetch_rates(url):
    with urllib.request.urlopen(url) as response:  # error: BG203
        rates = response.read()
    with urlopen(url, None, 10) as response:
        again = response.read()
    opener = urllib.request.build_opener()
    page = opener.open(url).read()  # error: BG203
    return rates, again, page


@shared_task
def send_receipt(address, body):
    with smtplib.SMTP("mail.example.com", 587) as server:  # error: BG203
        server.sendmail("shop@example.com", [address], body)
    with smtplib.SMTP_SSL("mail.example.com", timeout=30) as server:
        server.sendmail("shop@example.com", [address], body)


@shared_task
def sync_files(host):
    ftp = ftplib.FTP(host)  # error: BG203
    ftp.quit()
    conn = http.client.HTTPSConnection(host)  # error: BG203
    conn.close()
    bounded = http.client.HTTPConnection(host, 80, 15)
    bounded.close()
    sock = socket.create_connection((host, 9000), timeout=5)
    sock.close()


@shared_task
def download_export(url, path):
    urllib.request.urlretrieve(url, path)  # error: BG203


@shared_task
def check_builds(hub_url, transport):
    hub = xmlrpc.client.ServerProxy(hub_url)  # error: BG203
    # Not flagged: the transport handed in makes the connections (and may give them a timeout).
    bounded = xmlrpc.client.ServerProxy(hub_url, transport)
    return hub.getLastEvent(), bounded.getLastEvent()


@shared_task
def fetch_calendar(url):
    http = httplib2.Http()  # error: BG203
    # Not flagged: httplib2 given a timeout, by keyword or in its position.
    bounded = httplib2.Http(None, 20)
    also_bounded = httplib2.Http(timeout=20)
    return http.request(url), bounded.request(url), also_bounded.request(url)
