"""The log-out address opened with a GET (typed, bookmarked, an old link; QA report i) shows a page with the log-out
button instead of a blank 405, and logs nobody out: only the POST of that button does (a GET could be an image or a
link on another site). Nobody logged in reads that they are logged out, with the way to log in."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.tables.support import player

pytestmark = pytest.mark.django_db


def test_a_logged_in_player_who_opens_the_log_out_address_gets_the_button_and_stays_logged_in() -> None:
    alice = player()
    client = Client()
    client.force_login(alice)

    page = client.get("/accounts/log-out/")

    assert page.status_code == 200
    assert 'method="post" action="/accounts/log-out/"' in page.content.decode()
    assert client.get("/wallet/").status_code == 200  # still logged in


def test_the_log_out_button_logs_the_player_out() -> None:
    client = Client()
    client.force_login(player())

    client.post("/accounts/log-out/")

    assert "_auth_user_id" not in client.session


def test_nobody_logged_in_reads_that_they_are_logged_out() -> None:
    page = Client().get("/accounts/log-out/")

    assert page.status_code == 200
    assert "You are logged out" in page.content.decode()
