"""The HexaPro tab and page (HEX-02, HEX-03, HEX-20): every buy-in with its prize-pool range, PLAY opening the
confirmation dialogue (game type, prize pool range, number of games, total buy-in), REGISTER by form and by API
debiting the total once, the player's games with links to their tables and the HexaPro history (HEX-10), the prize
pool on the table (HEX-05); bad requests answered in words with nothing changed; HexaPro games stay off the
tournament lobby."""

from __future__ import annotations

from unittest import mock

import pytest
from django.test import Client
from django.urls import reverse

from tests.tables.back_office import logged_in
from tests.tournaments.hexapro_support import ChosenMultiplier, register
from tests.tournaments.support import cash, player
from tournaments.hexapro.models import HexaProRegistration
from tournaments.models import TournamentTable

pytestmark = pytest.mark.django_db

PAGE = "/tournaments/hexapro/"
API = "/api/tournaments/hexapro/"


def test_hex_02_hex_20_the_lobby_tab_lists_every_buy_in_with_its_prize_pool_range(client: Client) -> None:
    page = client.get(reverse("home")).content.decode()
    assert "HexaPro and HexaPro Extreme games are not open yet." not in page
    assert page.count('id="hexapro-buy-ins-hexapro"') == 1
    assert "€150.00 – €100,000.00" in page  # HexaPro €100: 1.5x to 1000x
    assert "€0.20 – €200.00" in page  # Extreme €0.20: 1x to 1000x
    assert page.count('href="/tournaments/hexapro/?product=hexapro&amp;buy_in=') == 7
    assert page.count('href="/tournaments/hexapro/?product=hexapro_extreme&amp;buy_in=') == 10


def test_hex_03_play_shows_the_confirmation_dialogue_with_game_type_pool_range_and_total(client: Client) -> None:
    page = client.get(PAGE, {"product": "hexapro", "buy_in": "2500"}).content.decode()
    assert '<dialog id="hexapro-dialog" aria-labelledby="hexapro-dialog-title" class="card" open>' in page
    assert 'id="hexapro-game-type">HexaPro<' in page
    assert 'id="hexapro-pool-range">€37.50 – €25,000.00<' in page
    assert "Number of games" in page
    assert 'Total Buy-in: <span id="hexapro-total">€25.00</span>' in page
    closed = client.get(PAGE, {"product": "hexapro", "buy_in": "2000"}).content.decode()  # not offered
    assert '<dialog id="hexapro-dialog" aria-labelledby="hexapro-dialog-title" class="card">' in closed


def test_hex_03_register_by_form_debits_the_total_and_lists_the_waiting_games() -> None:
    user = player(cash=10_000)
    client = logged_in(user)
    answer = client.post(
        reverse("tournaments:hexapro_registration"), {"product": "hexapro", "buy_in": "500", "games": "3"}
    )
    assert answer.status_code == 302
    assert cash(user) == 10_000 - 1_500
    page = client.get(answer.url).content.decode()
    assert "You are registered for 3 games; 0 started." in page
    assert page.count("Withdraw and refund") == 3


def test_hex_05_the_registration_that_forms_a_game_goes_to_its_table_with_the_prize_pool_shown() -> None:
    others = [player(), player()]
    for user in others:
        register(user, 1_000, multiplier=250)
    third = player()
    client = logged_in(third)
    # The page registers with the production draw (the queue's committed seed, issue 29); its ticket is forced here.
    with mock.patch("tournaments.hexapro.registration.CommittedTicket", return_value=ChosenMultiplier(250)):
        answer = client.post(
            reverse("tournaments:hexapro_registration"), {"product": "hexapro", "buy_in": "1000", "games": "1"}
        )
    table_id = TournamentTable.objects.get().table_id
    assert answer.url == reverse("games:table", args=[table_id])
    table_page = client.get(answer.url).content.decode()
    assert 'id="hexapro-reveal"' in table_page
    assert '<strong id="hexapro-prize-pool">€250.00</strong> (25x)' in table_page
    mine = client.get(PAGE).content.decode()
    assert f'href="{reverse("games:table", args=[table_id])}">Open the table</a>' in mine


def test_bad_registrations_by_form_are_refused_in_words_and_change_nothing() -> None:
    user = player(cash=1_000)
    client = logged_in(user)
    for fields, message in (
        ({"product": "hexapro", "buy_in": "500", "games": "0"}, "the number of games is a whole number from 1 to 20"),
        ({"product": "hexapro", "buy_in": "500", "games": "-3"}, "not &#x27;-3&#x27;"),
        ({"product": "hexapro", "buy_in": "500", "games": "99999999999999"}, "not 99999999999999"),
        ({"product": "hexapro", "buy_in": "2000", "games": "1"}, "HexaPro has no €20.00 buy-in"),
        ({"product": "hexapro", "buy_in": "500", "games": "3"}, "is more than the balance of €10.00"),
    ):
        answer = client.post(reverse("tournaments:hexapro_registration"), fields, follow=True)
        assert message in answer.content.decode()
    assert cash(user) == 1_000
    assert not HexaProRegistration.objects.exists()


def test_the_api_registers_lists_and_withdraws_with_refusals_in_its_error_shape() -> None:
    user = player(cash=5_000)
    client = logged_in(user)
    products = client.get(API).json()
    assert [product["code"] for product in products] == ["hexapro", "hexapro_extreme"]
    assert products[0]["buy_ins"][3] == {"buy_in": 1_000, "prize_pool_min": 1_500, "prize_pool_max": 1_000_000}
    answer = client.post(
        API + "registrations/", {"product": "hexapro", "buy_in": 1_000, "games": 2}, "application/json"
    )
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["total"] == 2_000
    assert len(body["registrations"]) == 2
    assert body["games_started"] == []
    assert cash(user) == 3_000
    assert len(client.get(API + "mine/").json()["waiting"]) == 2
    refused = client.post(
        API + "registrations/", {"product": "hexapro", "buy_in": 1_000, "games": 4}, "application/json"
    )
    assert refused.status_code == 409
    assert refused.json()["code"] == "insufficient_balance"
    bad = client.post(API + "registrations/", {"product": "hexapro", "buy_in": 1_000, "games": 0}, "application/json")
    assert bad.status_code == 400
    assert bad.json()["code"] == "invalid_request"
    extra = client.post(
        API + "registrations/", {"product": "hexapro", "buy_in": 1_000, "games": 1, "user": 1}, "application/json"
    )
    assert extra.status_code == 400
    withdrawn = client.delete(API + f"registrations/{body['registrations'][0]}/")
    assert withdrawn.status_code == 200
    assert len(withdrawn.json()["waiting"]) == 1
    assert cash(user) == 4_000
    assert client.delete(API + f"registrations/{body['registrations'][0]}/").status_code == 409
    assert logged_in(player()).delete(API + f"registrations/{body['registrations'][1]}/").status_code == 404
    assert Client().post(API + "registrations/", {}, "application/json").status_code in (401, 403)


def test_hex_10_the_history_lists_the_players_games_with_place_and_prize() -> None:
    users = [player() for _ in range(3)]
    for user in users:
        register(user, 100, multiplier=30)
    page = logged_in(users[0]).get(reverse("tournaments:hexapro_history")).content.decode()
    assert "HexaPro #" in page
    assert "€3.00 (3x)" in page
    assert "contact Customer Support with the game number" in page


def test_hexapro_games_stay_off_the_tournament_lobby(client: Client) -> None:
    for user in [player() for _ in range(3)]:
        register(user, 100, multiplier=30)
    assert client.get("/api/tournaments/").json() == []
