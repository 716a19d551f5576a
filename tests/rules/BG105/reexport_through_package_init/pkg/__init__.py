from .compat import Stop
