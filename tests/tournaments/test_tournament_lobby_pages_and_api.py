"""The Full Tournament Lobby (LOB-02) and a Specific Tournament Lobby (LOB-03) in the browser's pages and the API:
what each lists, registering and unregistering by form and by API with the refusals in words."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.tournaments.support import cash, player, register_players, scheduled, sit_and_go
from tournaments.models import TournamentEntry

pytestmark = pytest.mark.django_db


def test_the_full_tournament_lobby_lists_start_buy_in_and_fee_guarantee_freeroll_and_registrations_lob_02(
    client: Client,
) -> None:
    paid = scheduled(buy_in=900, fee=100, guarantee=50_000)
    register_players(paid, 2)
    scheduled(buy_in=0, fee=0, added_prize_money=10_000)
    sit_and_go(seats=5, buy_in=95, fee=5)
    page = client.get(reverse("tournaments:index")).content.decode()
    assert "€9.00 + €1.00" in page
    assert "€500.00" in page
    assert 'data-testid="freeroll"' in page
    assert "0 / 5" in page
    rows = client.get("/api/tournaments/").json()
    assert {row["kind"] for row in rows} == {"scheduled", "sit_and_go"}
    assert [row["entrants"] for row in rows if row["id"] == paid.pk] == [2]
    assert all(row["registration"] == "open" for row in rows)


def test_a_specific_tournament_lobby_shows_structure_breaks_and_provisional_payouts_lob_03(client: Client) -> None:
    tournament = scheduled(synchronized_breaks=True, late_registration_levels=4)
    register_players(tournament, 3)
    page = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    assert "The tournament goes on break at 55 minutes past the hour" in page
    assert 'id="payouts-provisional"' in page
    assert "10/20" in page
    assert "until the end of level 4" in page
    detail = client.get(f"/api/tournaments/{tournament.pk}/").json()
    assert detail["payouts"]["provisional"] is True
    assert detail["payouts"]["prize_pool"] == 3_000
    assert [level["level"] for level in detail["levels"]] == [1, 2, 3, 4]
    assert len(detail["entrants_list"]) == 3


def test_registering_and_unregistering_through_the_page(client: Client) -> None:
    tournament = scheduled(starts_at=timezone.now() + timedelta(days=1), buy_in=1_000, fee=100)
    user = player()
    client.force_login(user)
    url = reverse("tournaments:registration", args=[tournament.pk])
    answer = client.post(url, {"action": "register"}, follow=True)
    assert "You are registered." in answer.content.decode()
    assert cash(user) == 100_000 - 1_100
    again = client.post(url, {"action": "register"}, follow=True)
    assert "already registered" in again.content.decode()
    client.post(url, {"action": "unregister"}, follow=True)
    assert cash(user) == 100_000
    assert TournamentEntry.objects.filter(tournament=tournament, user=user).get().status == "unregistered"


def test_the_registration_api_refuses_in_words_and_refuses_unknown_fields(client: Client) -> None:
    tournament = scheduled(buy_in=1_000, fee=100)
    poor = player(cash=500)
    client.force_login(poor)
    url = f"/api/tournaments/{tournament.pk}/registration/"
    refused = client.post(url, {}, content_type="application/json")
    assert refused.status_code == 409
    assert refused.json()["code"] == "insufficient_balance"
    assert "your balance is €5.00" in refused.json()["message"]
    unknown = client.post(url, {"user": 1}, content_type="application/json")
    assert unknown.status_code == 400
    assert client.post("/api/tournaments/999999/registration/", {}, content_type="application/json").status_code == 404
    assert not TournamentEntry.objects.exists()
    assert Client().post(url, {}, content_type="application/json").status_code in (401, 403)
