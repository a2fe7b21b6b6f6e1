"""The reset link's scheme, host and port (QA pass D, F8): with ``PUBLIC_SITE_URL`` set, every reset link is built
from it, whatever Host the request came with (ALLOWED_HOSTS does not check the port, so a request to another port of
the host mailed a link to that port); unset, links follow the request as before."""

from __future__ import annotations

import pytest
from django.core import mail
from django.test import override_settings

from poker_site.accounts.roles import SUPPORT_STAFF
from tests.accounts.support import ask_for_a_link, player
from tests.foundation.staff_roles import staff_member
from tests.tables.back_office import logged_in

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clean_cache")]


@override_settings(PUBLIC_SITE_URL="https://poker.example")
def test_the_public_pages_link_is_built_from_the_public_site_url_whatever_the_host() -> None:
    pat = player()

    ask_for_a_link(pat.email, HTTP_HOST="localhost:6666")

    body = str(mail.outbox[0].body)
    assert "https://poker.example/accounts/password-reset/" in body
    assert "6666" not in body
    assert "localhost" not in body


@override_settings(PUBLIC_SITE_URL="https://poker.example:8443")
def test_supports_link_is_built_from_the_public_site_url_whatever_the_host() -> None:
    pat = player()

    sent = logged_in(staff_member(SUPPORT_STAFF)).post(
        f"/admin/accounts/user/{pat.pk}/send-password-reset/", {"reason": "Ticket 7"}, HTTP_HOST="127.0.0.1:31337"
    )

    assert sent.status_code == 302
    body = str(mail.outbox[0].body)
    assert "https://poker.example:8443/accounts/password-reset/" in body
    assert "31337" not in body


@override_settings(PUBLIC_SITE_URL="")
def test_without_the_setting_the_link_follows_the_request() -> None:
    pat = player()

    ask_for_a_link(pat.email, HTTP_HOST="localhost:8000")

    assert "http://localhost:8000/accounts/password-reset/" in str(mail.outbox[0].body)
