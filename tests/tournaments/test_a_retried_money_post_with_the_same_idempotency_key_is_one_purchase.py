"""A money POST retried with the same ``Idempotency-Key`` header is one purchase and gets the same answer, as at the
cashier (wallet/api.py reads the header for all of them; docs/protocol.md, issue 25): tournament registration (and
so re-entry, which registers again: TRN-09, TRN-40), re-buy and add-on (TRN-39), HexaPro registration (HEX-03, the
total debited once). The same key for a different request is refused (409 ``idempotency_conflict``) and changes
nothing; a malformed key is a 400; requests without a key are each a purchase of their own."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.tournaments.rebuys_support import chips, pool
from tests.tournaments.support import cash, player, scheduled
from tests.tournaments.test_rebuys_add_ons_re_entry_and_buy_in_choice_in_the_pages_and_api import (
    running_rebuy_tournament,
)
from tournaments.hexapro.models import HexaProRegistration
from tournaments.models import TournamentEntry, TournamentPurchase
from wallet.models import Transfer

pytestmark = pytest.mark.django_db

HEXAPRO = "/api/tournaments/hexapro/registrations/"
PLAY = {"product": "hexapro", "buy_in": 1_000, "games": 2}


def post(client: Client, path: str, body: dict[str, Any], key: str | None) -> Any:
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key is not None else {}
    return client.post(path, body, content_type="application/json", **headers)


@pytest.fixture
def alice() -> Any:
    return player(cash=10_000)


@pytest.fixture
def browser(alice: Any) -> Client:
    client = Client()
    client.force_login(alice)
    return client


def test_hex_03_a_retried_hexapro_play_is_one_purchase_with_the_same_answer(browser: Client, alice: Any) -> None:
    first = post(browser, HEXAPRO, PLAY, "7d1c1b8e-play-1")
    transfers = Transfer.objects.count()
    again = post(browser, HEXAPRO, PLAY, "7d1c1b8e-play-1")

    assert first.status_code == again.status_code == 200
    assert first.json() == again.json()
    assert cash(alice) == 10_000 - 2_000
    assert HexaProRegistration.objects.filter(user=alice).count() == 2
    assert Transfer.objects.count() == transfers


def test_hex_03_the_same_key_for_another_play_is_refused_and_changes_nothing(browser: Client, alice: Any) -> None:
    post(browser, HEXAPRO, PLAY, "7d1c1b8e-play-1")

    other = post(browser, HEXAPRO, {**PLAY, "games": 1}, "7d1c1b8e-play-1")

    assert other.status_code == 409
    assert other.json()["code"] == "idempotency_conflict"
    assert cash(alice) == 10_000 - 2_000
    assert HexaProRegistration.objects.filter(user=alice).count() == 2


def test_another_players_same_key_is_their_own_purchase(browser: Client, alice: Any) -> None:
    bob = player(cash=10_000)
    bobs_browser = Client()
    bobs_browser.force_login(bob)

    post(browser, HEXAPRO, PLAY, "shared-key")
    answer = post(bobs_browser, HEXAPRO, PLAY, "shared-key")

    assert answer.status_code == 200
    assert (cash(alice), cash(bob)) == (8_000, 8_000)


def test_a_malformed_key_is_refused_and_changes_nothing(browser: Client, alice: Any) -> None:
    answer = post(browser, HEXAPRO, PLAY, "not a key!")

    assert answer.status_code == 400
    assert cash(alice) == 10_000
    assert not HexaProRegistration.objects.exists()


def test_without_a_key_each_request_is_its_own_purchase(browser: Client, alice: Any) -> None:
    post(browser, HEXAPRO, PLAY, None)
    post(browser, HEXAPRO, PLAY, None)

    assert cash(alice) == 10_000 - 4_000


def test_trn_09_a_retried_tournament_registration_is_one_entry_with_the_same_answer(
    browser: Client, alice: Any
) -> None:
    tournament = scheduled(buy_in=1_000, fee=100)
    path = f"/api/tournaments/{tournament.pk}/registration/"

    first = post(browser, path, {}, "register-1")
    again = post(browser, path, {}, "register-1")
    without_the_key = post(browser, path, {}, None)

    assert first.status_code == again.status_code == 200
    assert first.json() == again.json()
    assert without_the_key.status_code == 409  # what a retry without the key gets: already registered
    assert cash(alice) == 10_000 - 1_100
    assert TournamentEntry.objects.filter(tournament=tournament, user=alice).count() == 1


def test_trn_39_a_retried_re_buy_is_one_purchase_and_its_key_is_not_an_add_on() -> None:
    tournament, users = running_rebuy_tournament()
    user = users[0]
    client = Client()
    client.force_login(user)
    money_before = cash(user)

    first = post(client, f"/api/tournaments/{tournament.pk}/rebuy/", {}, "rebuy-1")
    state = (cash(user), pool(tournament), chips(user))
    again = post(client, f"/api/tournaments/{tournament.pk}/rebuy/", {}, "rebuy-1")
    add_on = post(client, f"/api/tournaments/{tournament.pk}/add-on/", {}, "rebuy-1")

    assert first.status_code == again.status_code == 200, again.content
    assert first.json() == again.json()
    assert (cash(user), pool(tournament), chips(user)) == state
    assert cash(user) == money_before - 1_100
    assert TournamentPurchase.objects.filter(entry__user=user).count() == 1
    assert add_on.status_code == 409
    assert add_on.json()["code"] == "idempotency_conflict"


def test_a_malformed_key_on_a_tournament_registration_is_a_400(browser: Client, alice: Any) -> None:
    tournament = scheduled(buy_in=1_000, fee=100)

    answer = post(browser, f"/api/tournaments/{tournament.pk}/registration/", {}, "not a key!")

    assert answer.status_code == 400
    assert cash(alice) == 10_000
    assert not TournamentEntry.objects.exists()
