"""No template has inline script, an inline event handler, a ``javascript:`` link or inline style: the
Content-Security-Policy allows scripts and styles from the site's files only (the hardening issue, item 6). The one
exception is the API docs page (templates/api/redoc.html), whose policy allows inline styles, never scripts."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from poker_site.embedded import PROJECT_DIRECTORY

TEMPLATE_DIRECTORIES = [Path(PROJECT_DIRECTORY) / "templates", *Path(PROJECT_DIRECTORY).glob("*/templates")]
TEMPLATES = sorted(path for directory in TEMPLATE_DIRECTORIES for path in directory.rglob("*.html"))
STYLE_ALLOWED = {Path(PROJECT_DIRECTORY) / "templates" / "api" / "redoc.html"}

INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.IGNORECASE)
EVENT_HANDLER = re.compile(r"<[^>]*\son[a-z]+\s*=", re.IGNORECASE)
JAVASCRIPT_URL = re.compile(r"""(href|src|action)\s*=\s*["']?\s*javascript:""", re.IGNORECASE)
INLINE_STYLE = re.compile(r"<style\b|<[^>]*\sstyle\s*=", re.IGNORECASE)


def test_the_scan_sees_the_sites_templates() -> None:
    names = {path.name for path in TEMPLATES}
    assert {"base.html", "table.html", "tables.html", "redoc.html"} <= names
    assert len(TEMPLATES) >= 20


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda path: str(path.relative_to(PROJECT_DIRECTORY)))
def test_a_template_has_no_inline_script_or_handler(template: Path) -> None:
    text = template.read_text()
    assert not INLINE_SCRIPT.search(text), "move the script to a static file"
    assert not EVENT_HANDLER.search(text), "attach the handler from a static script"
    assert not JAVASCRIPT_URL.search(text)


@pytest.mark.parametrize(
    "template",
    [path for path in TEMPLATES if path not in STYLE_ALLOWED],
    ids=lambda path: str(path.relative_to(PROJECT_DIRECTORY)),
)
def test_a_template_has_no_inline_style(template: Path) -> None:
    assert not INLINE_STYLE.search(template.read_text()), "move the style to a static stylesheet"


def test_the_scan_would_catch_each_kind() -> None:
    assert INLINE_SCRIPT.search('<script>document.title = "x";</script>')
    assert not INLINE_SCRIPT.search('<script src="/static/js/has_js.js"></script>')
    assert EVENT_HANDLER.search('<button type="button" onclick="go()">')
    assert not EVENT_HANDLER.search('<button type="button" data-online="yes">')
    assert JAVASCRIPT_URL.search('<a href="javascript:void(0)">')
    assert INLINE_STYLE.search('<div style="color: red">')
    assert INLINE_STYLE.search("<style>")
