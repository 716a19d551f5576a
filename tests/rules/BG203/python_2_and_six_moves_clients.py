# Flagged: code written for Python 2 and 3 reaches the standard library's clients through their
# Python 2 names (urllib2, httplib) and six.moves: the same functions and classes as urllib.request
# and http.client, with no timeout. Not flagged: the same calls given a timeout.
import httplib
import urllib2

from celery import shared_task
from six.moves import http_client
from six.moves.urllib.request import urlopen


@shared_task
def fetch_rates(url):
    rates = urllib2.urlopen(url).read()  # error: BG203
    again = urlopen(url).read()  # error: BG203
    bounded = urlopen(url, timeout=10).read()
    return rates, again, bounded


@shared_task
def check_health(host):
    connection = httplib.HTTPConnection(host)  # error: BG203
    connection.request("GET", "/health")
    other = http_client.HTTPSConnection(host)  # error: BG203
    other.request("GET", "/health")
    bounded = http_client.HTTPSConnection(host, timeout=5)
    bounded.request("GET", "/health")
