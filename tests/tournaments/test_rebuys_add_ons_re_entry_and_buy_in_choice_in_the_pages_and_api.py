"""Players re-buy, take the add-on and choose their buy-in from the tournament page, the tournament table and the API
(TRN-38, TRN-39, TRN-40); a refusal is an answer in words that changes nothing; the pages speak Estonian."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.tournaments.rebuys_support import REBUY_SETTINGS, chips, pool, seat_of
from tests.tournaments.support import cash, player, register_players, scheduled
from tests.tournaments.test_tournament_pages_speak_estonian import english_lines
from tournaments.models import Tournament, TournamentEntry, TournamentPurchase
from tournaments.services import tournaments_advance_all

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]

ADD_ON = {"add_on_allowed": True, "add_on_buy_in": 1_000, "add_on_fee": 100, "add_on_chips": 2_000}


def running_rebuy_tournament() -> tuple[Tournament, list[Any]]:
    """A re-buy tournament started just now (the pages and the API read the real clock): its re-buy period is open."""
    tournament = scheduled(
        starts_at=timezone.now() - timedelta(seconds=1),
        buy_in=1_000,
        fee=100,
        late_registration_levels=2,
        re_entries_maximum=1,
        **{**REBUY_SETTINGS, **ADD_ON},
    )
    users = register_players(tournament, 3, now=timezone.now())
    tournaments_advance_all()
    return tournament, users


def test_a_player_re_buys_through_the_api_and_a_refusal_is_a_409_in_words_trn_39(client: Client) -> None:
    tournament, users = running_rebuy_tournament()
    user = users[0]
    client.force_login(user)
    url = reverse("tournaments-api:rebuy", args=[tournament.pk])
    answer = client.post(url, {}, content_type="application/json")
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert (body["kind"], body["number"], body["chips"], body["prize_contribution"], body["fee"]) == (
        "rebuy",
        1,
        1_000,
        1_000,
        100,
    )
    assert body["tournament"]["viewer"]["rebuys"] == 1
    assert body["tournament"]["payouts"]["provisional"] is True
    assert body["tournament"]["payouts"]["prize_pool"] == 4_000
    assert chips(user) == 2_000
    before = (cash(user), pool(tournament), chips(user))
    refused = client.post(url, {}, content_type="application/json")  # 2,000 chips: above the threshold
    assert refused.status_code == 409
    assert refused.json()["code"] == "not_allowed_now"
    assert "more than 1000 chips" in refused.json()["message"]
    assert (cash(user), pool(tournament), chips(user)) == before
    add_on = client.post(reverse("tournaments-api:add-on", args=[tournament.pk]), {}, content_type="application/json")
    assert add_on.status_code == 409  # level 1 is not the last re-buy level
    assert "not available yet" in add_on.json()["message"]


def test_the_buy_in_is_chosen_through_the_api_and_an_amount_not_offered_changes_nothing_trn_38(client: Client) -> None:
    tournament = scheduled(
        buy_in=900, fee=100, starting_stack=10_000, buy_in_minimum=500, buy_in_maximum=5_000, buy_in_step=500
    )
    user = player()
    client.force_login(user)
    url = reverse("tournaments-api:registration", args=[tournament.pk])
    refused = client.post(url, {"buy_in": 2_600}, content_type="application/json")
    assert refused.status_code == 409
    assert refused.json()["code"] == "invalid_request"
    assert cash(user) == 100_000
    assert client.post(url, {"buy_in": 2_500}, content_type="application/json").status_code == 200
    entry = TournamentEntry.objects.get(tournament=tournament, user=user)
    assert (entry.prize_contribution, entry.fee, entry.starting_chips) == (2_250, 250, 25_000)
    page = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    assert 'name="buy_in"' not in page  # registered: no second registration form
    other = player()
    client.force_login(other)
    page = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    assert '<option value="2500">€25.00: 25000 chips</option>' in page
    client.post(reverse("tournaments:registration", args=[tournament.pk]), {"action": "register", "buy_in": "5000"})
    assert TournamentEntry.objects.get(tournament=tournament, user=other).starting_chips == 50_000


def test_the_tournament_page_and_the_table_offer_the_re_buy_and_the_add_on_trn_39(client: Client) -> None:
    tournament, users = running_rebuy_tournament()
    user = users[1]
    client.force_login(user)
    page = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    assert 'id="rebuy"' in page
    assert 'id="add-on"' in page
    assert 'id="rebuy-rule"' in page
    table = seat_of(user).table
    table_page = client.get(reverse("games:table", args=[table.pk])).content.decode()
    assert 'id="rebuy"' in table_page
    answer = client.post(
        reverse("tournaments:purchase", args=[tournament.pk]), {"action": "rebuy", "from_table": str(table.pk)}
    )
    assert answer.status_code == 302
    assert answer["Location"] == reverse("games:table", args=[table.pk])
    assert chips(user) == 2_000
    assert TournamentPurchase.objects.filter(entry__user=user).count() == 1
    client.post(reverse("tournaments:purchase", args=[tournament.pk]), {"action": "rebuy"})  # refused: threshold
    assert TournamentPurchase.objects.filter(entry__user=user).count() == 1
    followed = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    assert "You have re-bought 1 time." in followed


def test_the_pages_of_a_re_buy_tournament_speak_estonian(client: Client) -> None:
    tournament, users = running_rebuy_tournament()
    estonian = Client(HTTP_ACCEPT_LANGUAGE="et")
    estonian.cookies["django_language"] = "et"
    estonian.force_login(users[2])
    detail = estonian.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    assert "Tagasiost" in detail
    assert english_lines(detail) == []
    multi = scheduled(
        buy_in=900, fee=100, starting_stack=10_000, buy_in_minimum=500, buy_in_maximum=5_000, buy_in_step=500
    )
    estonian.force_login(player())
    page = estonian.get(reverse("tournaments:detail", args=[multi.pk])).content.decode()
    assert "Sinu sissemaks" in page
    assert english_lines(page) == []


def test_a_knocked_out_player_re_enters_from_the_tournament_page_trn_40(client: Client) -> None:
    from tests.tournaments.support import one_shove_a_hand, play
    from tournaments.models import EntryStatus

    tournament, _users = running_rebuy_tournament()
    play(
        tournament,
        policy=one_shove_a_hand,
        start=timezone.now(),
        step=timedelta(milliseconds=10),
        until=lambda now: TournamentEntry.objects.filter(tournament=now, status=EntryStatus.BUSTED).exists(),
    )
    out = TournamentEntry.objects.get(tournament=tournament, status=EntryStatus.BUSTED)
    client.force_login(out.user)
    page = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    assert 'id="re-enter"' in page
    before = cash(out.user)
    client.post(reverse("tournaments:registration", args=[tournament.pk]), {"action": "register"})
    again = TournamentEntry.objects.get(tournament=tournament, user=out.user, status=EntryStatus.PLAYING)
    assert again.entry_number == 2
    assert cash(out.user) == before - 1_100


def test_the_back_office_shows_each_entrys_re_buys_and_add_on_trn_39() -> None:
    from poker_site.accounts.roles import SUPPORT_STAFF
    from tests.tournaments.back_office import ENTRIES, client_of
    from tournaments.services import entry_rebuy

    tournament, users = running_rebuy_tournament()
    entry_rebuy(users[0], tournament)
    entry = TournamentEntry.objects.get(tournament=tournament, user=users[0])
    page = client_of(SUPPORT_STAFF).get(f"{ENTRIES}{entry.pk}/change/").content.decode()
    assert "e-buys and add-ons (TRN-39)" in page
    assert "chips added" in page  # the re-buy row with its status
