# The worker bounds every socket of the process when it starts: the standard library's clients
# then give up after 30 s even where a call passes no timeout.
import socket

socket.setdefaulttimeout(30)
