"""Browsers ask for ``/favicon.ico`` on every page (whatever the page links: the admin's and the API docs' pages link
no icon), and it answered 404, a line in the log for each. It now leads to the site's icon, the header's gold spade on
the felt green: a small ICO (16 and 32 pixels) among the static files. The site's pages link the same spade as an
SVG, served as a static file too."""

from __future__ import annotations

import re
import struct

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

ICO_HEADER = struct.pack("<HHH", 0, 1, 2)
"""Reserved, type 1 (an icon), two images."""
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def body(response: object) -> bytes:
    """The bytes of a response, streamed (WhiteNoise's static files) or not."""
    streaming = getattr(response, "streaming_content", None)
    return b"".join(streaming) if streaming is not None else bytes(response.content)  # type: ignore[attr-defined]


def test_favicon_ico_leads_to_the_sites_icon_instead_of_a_404() -> None:
    browser = Client()

    asked = browser.get("/favicon.ico")
    icon = browser.get(asked["Location"])

    assert asked.status_code == 301
    assert asked["Location"] == "/static/favicon.ico"
    assert icon.status_code == 200
    assert icon["Content-Type"] in {"image/x-icon", "image/vnd.microsoft.icon"}
    data = body(icon)
    assert data.startswith(ICO_HEADER)
    entries = [struct.unpack("<BBBBHHII", data[6 + 16 * index : 22 + 16 * index]) for index in range(2)]
    assert [(width, height) for width, height, *_rest in entries] == [(16, 16), (32, 32)]
    for *_size, length, offset in entries:
        assert data[offset : offset + length].startswith(PNG_SIGNATURE)
        assert offset + length <= len(data)


def test_the_lobby_links_the_spade_svg_and_the_link_is_served() -> None:
    browser = Client()
    page = browser.get("/").content.decode()

    (link,) = re.findall(r'<link rel="icon" href="([^"]+)" type="image/svg\+xml">', page)
    icon = browser.get(link)

    assert link == "/static/favicon.svg"
    assert icon.status_code == 200
    assert icon["Content-Type"] == "image/svg+xml"
    assert body(icon).startswith(b'<svg xmlns="http://www.w3.org/2000/svg"')
