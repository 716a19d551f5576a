"""Rule pages: ``rules/<CODE>.md`` in a checkout, ``bgcheck/rule_pages`` when installed."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

_PACKAGE = Path(__file__).resolve().parents[1]  # bgcheck/
_PACKAGE_PAGES = _PACKAGE / "rule_pages"
_CHECKOUT_PAGES = _PACKAGE.parent / "rules"


def pages_dir() -> Path:
    return _PACKAGE_PAGES if _PACKAGE_PAGES.is_dir() else _CHECKOUT_PAGES


def page_path(code: str) -> Optional[Path]:
    path = pages_dir() / f"{code}.md"
    return path if path.is_file() else None


def read_page(code: str) -> Optional[str]:
    path = page_path(code)
    return path.read_text(encoding="utf-8") if path else None
