"""TRN-39: the re-buy and add-on buttons on the tournament table and the tournament page are offered only while the
player may use them now — re-buys during the first ``rebuy_levels`` levels, at most ``rebuy_maximum`` per entry, while
at or below the stack threshold; the add-on once per entry in its window (here the last re-buy level) — decided by the
rules the purchase service applies, and kept live at the table through the tournament bar (``viewer.purchases``)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import Seat
from tests.tournaments.rebuys_support import LEVEL, seat_of
from tests.tournaments.test_rebuys_add_ons_re_entry_and_buy_in_choice_in_the_pages_and_api import (
    running_rebuy_tournament,
)
from tournaments.models import Tournament
from tournaments.services import entry_rebuy
from tournaments.table_bar import purchase_offers

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]


def offered(page: str) -> dict[str, bool]:
    """Which purchase forms the page shows (a form with ``hidden`` is not offered)."""
    shown = {}
    for kind in ("rebuy", "add_on"):
        match = re.search(rf'<form[^>]*data-purchase="{kind}"[^>]*>', page)
        shown[kind] = bool(match) and " hidden" not in match.group(0)
    return shown


def test_trn_39_the_table_the_tournament_page_and_the_bar_offer_only_what_the_player_may_buy_now(
    client: Client,
) -> None:
    tournament, users = running_rebuy_tournament()  # 1,000 starting chips, threshold 1,000, two re-buys, level 1
    user = users[0]
    client.force_login(user)
    table_url = reverse("games:table", args=[seat_of(user).table.pk])
    detail_url = reverse("tournaments:detail", args=[tournament.pk])
    bar_url = reverse("tournaments-api:bar", args=[tournament.pk])

    # Level 1, at the threshold: the re-buy is offered; the add-on (last re-buy level only) is not yet.
    assert offered(client.get(table_url).content.decode()) == {"rebuy": True, "add_on": False}
    assert offered(client.get(detail_url).content.decode()) == {"rebuy": True, "add_on": False}
    assert client.get(bar_url).json()["viewer"]["purchases"] == {"rebuy": True, "add_on": False}

    # 2,000 chips after a re-buy: above the threshold, no re-buy button anywhere.
    entry_rebuy(user, tournament)
    assert offered(client.get(table_url).content.decode()) == {"rebuy": False, "add_on": False}
    assert offered(client.get(detail_url).content.decode()) == {"rebuy": False, "add_on": False}
    assert client.get(bar_url).json()["viewer"]["purchases"] == {"rebuy": False, "add_on": False}

    # Back at the threshold: offered again, until the entry's maximum (two) is used.
    Seat.objects.filter(pk=seat_of(user).pk).update(chips=500)
    assert client.get(bar_url).json()["viewer"]["purchases"]["rebuy"] is True
    entry_rebuy(user, tournament)
    Seat.objects.filter(pk=seat_of(user).pk).update(chips=500)
    assert offered(client.get(table_url).content.decode())["rebuy"] is False  # maximum reached

    # The add-on: offered in the last re-buy level, not after the re-buy period.
    tournament = Tournament.objects.get(pk=tournament.pk)
    started_at = tournament.started_at
    assert started_at is not None
    now = timezone.now()
    assert purchase_offers(tournament, user.pk, started_at + LEVEL + timedelta(seconds=10))["add_on"] is True
    assert purchase_offers(tournament, user.pk, started_at + 2 * LEVEL + timedelta(seconds=10)) == {
        "rebuy": False,
        "add_on": False,
    }
    assert purchase_offers(tournament, user.pk, now)["add_on"] is False


def test_trn_39_a_spectator_and_a_player_of_another_tournament_are_offered_nothing(client: Client) -> None:
    tournament, users = running_rebuy_tournament()
    table_url = reverse("games:table", args=[seat_of(users[0]).table.pk])
    assert offered(client.get(table_url).content.decode()) == {"rebuy": False, "add_on": False}
    assert purchase_offers(tournament, None) == {"rebuy": False, "add_on": False}
