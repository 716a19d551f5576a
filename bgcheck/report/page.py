"""A rule page (Markdown) rendered for a terminal: what ``bgcheck explain`` prints.

Headings stand out (bold and coloured, or underlined when there is no colour), code blocks
are indented and highlighted with pygments when colour is on, links show their text only
(in the "References" section, where the address is the point, their text then ``<URL>``), and
the fence attributes the page tests use (```` ```python file=proj/tasks.py ````) become a
caption naming the file. Everything else (paragraphs, lists) is already laid out for a
reader and is printed as written.
"""

from __future__ import annotations

import re

_RESET = "\x1b[0m"
_TITLE = "\x1b[1;4m"
_HEADING = "\x1b[1;36m"
_BOLD = "\x1b[1m"
_CODE = "\x1b[33m"
_DIM = "\x1b[2m"
_INDENT = "    "

_FENCE = re.compile(r"^(?P<indent> *)(?P<fence>`{3,}|~{3,})\s*(?P<info>.*)$")
_IMAGE_OR_LINK = re.compile(r"!?\[(?P<text>[^\]]*)\]\((?P<target>[^)\s]*)(?:\s+\"[^\"]*\")?\)")
_INLINE_CODE = re.compile(r"(`+)(?P<code>.+?)\1")
_STRONG = re.compile(r"\*\*(?P<text>[^*\n]+)\*\*")


def render_page(markdown: str, color: bool) -> str:
    out: list[str] = []
    lines = markdown.splitlines()
    i = 0
    references = False  # in the "References" section: links keep their URLs
    while i < len(lines):
        line = lines[i]
        opening = _FENCE.match(line)
        if opening:
            i = _code_block(lines, i, opening, color, out)
            continue
        if line.startswith("# "):
            out.extend(_heading(line[2:].strip(), "=", _TITLE, color))
        elif line.startswith("## "):
            references = line[3:].strip() == "References"
            out.extend(_heading(line[3:].strip(), "-", _HEADING, color))
        else:
            out.append(_inline(line, color, with_urls=references))
        i += 1
    return "\n".join(out).rstrip("\n") + "\n"


def _heading(text: str, underline: str, style: str, color: bool) -> list[str]:
    text = _inline(text, color=False)
    if color:
        return [f"{style}{text}{_RESET}"]
    return [text, underline * len(text)]


def _code_block(lines: list[str], start: int, opening: re.Match, color: bool, out: list[str]) -> int:
    """Render the fenced block opening at ``start``; return the index of the line after it."""
    marker = opening["fence"]
    words = opening["info"].split()
    language = words[0] if words else ""
    attributes = dict(word.partition("=")[::2] for word in words[1:] if "=" in word)
    indent = opening["indent"]  # a block inside a list item keeps the item's indentation
    body: list[str] = []
    i = start + 1
    while i < len(lines):
        stripped = lines[i].strip()
        if stripped and set(stripped) == {marker[0]} and len(stripped) >= len(marker):
            break
        body.append(lines[i][len(indent) :] if lines[i].startswith(indent) else lines[i].lstrip())
        i += 1
    prefix = indent + _INDENT
    caption = attributes.get("file")
    if caption:  # a test-harness attribute: to a reader, the file the code is in
        out.append(f"{prefix}{_DIM}# {caption}{_RESET}" if color else f"{prefix}# {caption}")
    shown = _highlight(body, language) if color else body
    out.extend(f"{prefix}{text}".rstrip() for text in shown)
    return i + 1


def _highlight(body: list[str], language: str) -> list[str]:
    from pygments import highlight
    from pygments.formatters import TerminalFormatter
    from pygments.lexers import get_lexer_by_name
    from pygments.util import ClassNotFound

    try:
        lexer = get_lexer_by_name(language or "text", stripnl=False, ensurenl=False)
    except ClassNotFound:
        return body
    rendered = highlight("\n".join(body) + "\n", lexer, TerminalFormatter()).rstrip("\n").split("\n")
    return rendered if len(rendered) == len(body) else body  # never lose or add a line


def _inline(line: str, color: bool, with_urls: bool = False) -> str:
    """Links and images as their text (``with_urls``: ``text <URL>``); with colour, code spans and
    bold styled without their markers."""
    line = _IMAGE_OR_LINK.sub(lambda m: _link(m["text"], m["target"], with_urls), line)
    if not color:
        return _STRONG.sub(lambda m: m["text"], line)
    line = _INLINE_CODE.sub(lambda m: f"{_CODE}{m['code'].strip()}{_RESET}", line)
    return _STRONG.sub(lambda m: f"{_BOLD}{m['text']}{_RESET}", line)


def _link(text: str, target: str, with_url: bool) -> str:
    if not text or text == target:
        return target
    return f"{text} <{target}>" if with_url and target else text
