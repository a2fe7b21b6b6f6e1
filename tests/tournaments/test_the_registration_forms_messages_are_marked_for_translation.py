"""The messages the tournament page's registration form answers with ("You are registered.", "Choose to register or
to unregister.", ...) go through gettext, so a player reading another language gets them in it once translated (QA
finding: three of them were plain English strings). English is unchanged. Measured by giving ``tournaments.pages`` a
gettext that marks what it is handed: a message that skips it comes out unmarked."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from tests.tournaments.support import START, player, scheduled
from tournaments import pages

pytestmark = pytest.mark.django_db


@pytest.fixture
def marked(monkeypatch: pytest.MonkeyPatch) -> Callable[[str], str]:
    def mark(text: str) -> str:
        return f"[translated] {text}"

    monkeypatch.setattr(pages, "gettext", mark)
    return mark


def messages_after(client: Client, action: str) -> list[str]:
    tournament = scheduled(starts_at=START.replace(year=START.year + 1))
    response = client.post(reverse("tournaments:registration", args=[tournament.pk]), {"action": action})
    return [str(message) for message in get_messages(response.wsgi_request)]


@pytest.mark.parametrize(
    ("action", "english"),
    [
        ("register", "You are registered."),
        ("neither", "Choose to register or to unregister."),
    ],
)
def test_a_registration_forms_answer_is_translated(
    client: Client, marked: Callable[[str], str], action: str, english: str
) -> None:
    client.force_login(player(cash=100_000))
    assert messages_after(client, action) == [marked(english)]


def test_an_unregistration_is_answered_in_translation(client: Client, marked: Callable[[str], str]) -> None:
    client.force_login(player(cash=100_000))
    tournament = scheduled(starts_at=START.replace(year=START.year + 1))
    url = reverse("tournaments:registration", args=[tournament.pk])
    client.post(url, {"action": "register"})
    response = client.post(url, {"action": "unregister"})
    shown = [str(message) for message in get_messages(response.wsgi_request)]
    assert shown[-1] == marked("You are unregistered; buy-in and fee refunded.")
