"""Stop words in identifiers (``should_exit``, ``shutdownRequested``, ``running``).

Pure text, no parser: the libcst rules (syntax/loops.py) and the ast summaries (syntax/ast_flow.py)
read names through this one function, so they cannot drift apart.
"""

from __future__ import annotations

import re
from functools import lru_cache

from bgcheck import knowledge

# An identifier's parts: ``shutdownRequested`` -> shutdown, Requested; ``HTTP2Server`` -> HTTP, 2, Server.
_NAME_PARTS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")


@lru_cache(maxsize=65536)  # the same names come back in every loop of a project
def says_stop(name: str) -> bool:
    """``should_exit``, ``shutdownRequested``, ``running``: a name with a stop word as one of its parts."""
    return any(knowledge.STOP_SIGNAL_WORDS.fullmatch(part.lower()) for part in _NAME_PARTS.findall(name))
