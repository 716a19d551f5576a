"""Output formats. Each reporter turns a finished run into text.

One seam for every format: a function ``render(result, options) -> str``
registered under its ``--format`` name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from bgcheck.report import concise, github, gitlab, json_format, lsp, sarif, text


@dataclass(frozen=True)
class ReportOptions:
    color: bool = False
    show_source: bool = False
    show_explanations: bool = False  # text: each finding's explanation under it
    statistics: bool = False
    quiet: bool = False
    unsafe_fixes: bool = False  # unsafe fixes count as fixable ([*]) too
    show_fixes: bool = False  # text: the diff of each fixable finding's fix under it
    fix_mode: bool = False  # a --fix run: say how many findings were fixed


Renderer = Callable[..., str]

REPORTERS: dict[str, Renderer] = {
    "text": text.render,
    "concise": concise.render,
    "json": json_format.render,
    "sarif": sarif.render,
    "github": github.render,
    "gitlab": gitlab.render,
    "lsp": lsp.render,
}
