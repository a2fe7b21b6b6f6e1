"""The lobby shows a tournament's bounty (TRN-41..TRN-43): the kind and the bounty part of the buy-in in the Full
Tournament Lobby (LOB-02) and the API; the rule, the progressive percentages, the VIP and each player's current bounty
and bounties won in the Specific Tournament Lobby (LOB-03); the table's snapshot carries each seated player's bounty;
and all of it in Estonian."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.runtime.views import table_snapshot
from tests.tournaments.bounty_support import (
    FIRST_HAND_AT,
    bounty_sit_and_go,
    play_hand,
    shove,
    the_table,
    user_at,
)
from tests.tournaments.support import player, register_players, scheduled
from tests.tournaments.test_tournament_pages_speak_estonian import english_lines
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def test_the_full_lobby_and_the_api_show_the_bounty_kind_and_amounts(client: Client) -> None:
    regular = scheduled(buy_in=900, fee=100, bounty_kind="regular", bounty=500)
    vip = player()
    scheduled(bounty_kind="progressive", bounty=250, vip_player=vip, vip_bounty=10_000)
    page = client.get(reverse("tournaments:index")).content.decode()
    assert "€9.00 + €5.00 bounty + €1.00" in page
    assert 'data-testid="bounty"' in page
    assert "progressive bounty" in page
    assert "VIP bounty €100.00" in page
    rows = {row["id"]: row for row in client.get("/api/tournaments/").json()}
    row = rows[regular.pk]
    assert (row["bounty_kind"], row["bounty"], row["entry_price"], row["vip_bounty"]) == ("regular", 500, 1_500, 0)
    assert row["bounty_credited_percent"] is None
    progressive = next(row for row in rows.values() if row["bounty_kind"] == "progressive")
    assert (progressive["bounty_credited_percent"], progressive["bounty_added_percent"]) == (50, 50)
    assert progressive["vip_bounty"] == 10_000


def test_the_tournament_page_shows_the_rule_the_vip_and_each_players_bounty(client: Client) -> None:
    tournament = bounty_sit_and_go(3, kind="progressive", bounty=1_000)
    users = register_players(tournament, 3)
    table = the_table(tournament)
    a, b = user_at(table, 3), user_at(table, 1)
    Tournament.objects.filter(pk=tournament.pk).update(vip_player=user_at(table, 2), vip_bounty=5_000)
    play_hand(table, {1: "AsAh", 2: "KcKd", 3: "7c2d"}, "3s8h9dJcQs", shove(3, 1), now=FIRST_HAND_AT, button=3)
    client.force_login(b)
    page = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    assert "credited 50% of their bounty at once; the other 50% is added to your own bounty" in page
    assert 'id="vip-bounty"' in page
    assert "€50.00" in page
    assert "Your bounty: €15.00." in page
    assert "Bounties won: €5.00." in page
    assert "Register for" not in page
    detail = client.get(f"/api/tournaments/{tournament.pk}/").json()
    by_name = {row["name"]: row for row in detail["entrants_list"]}
    assert by_name[b.get_username()]["bounty"] == 1_500
    assert by_name[b.get_username()]["bounties_won"] == 500
    assert by_name[a.get_username()]["bounty"] is None
    assert [row["vip"] for row in detail["entrants_list"]].count(True) == 1
    assert detail["viewer"]["bounty"] == 1_500
    assert detail["vip_name"] == user_at(table, 2).get_username()
    snapshot = table_snapshot(table, viewer=users[0])
    bounties = snapshot["table"]["bounties"]
    assert bounties["kind"] == "progressive"
    assert bounties["by_seat"] == {"1": 1_500, "2": 1_000}
    assert (bounties["vip_seat"], bounties["vip_bounty"]) == (2, 5_000)


def test_the_bounty_lobby_and_page_are_estonian() -> None:
    tournament = bounty_sit_and_go(3, kind="progressive", bounty=1_000)
    register_players(tournament, 3)
    table = the_table(tournament)
    Tournament.objects.filter(pk=tournament.pk).update(vip_player=user_at(table, 2), vip_bounty=5_000)
    scheduled(buy_in=900, fee=100, bounty_kind="regular", bounty=500)
    play_hand(table, {1: "AsAh", 2: "KcKd", 3: "7c2d"}, "3s8h9dJcQs", shove(3, 1), now=FIRST_HAND_AT, button=3)
    client = Client(HTTP_ACCEPT_LANGUAGE="et")
    client.cookies["django_language"] = "et"
    client.force_login(user_at(table, 1))
    lobby = client.get(reverse("tournaments:index")).content.decode()
    detail = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    assert "pearaha" in lobby
    assert "Sinu pearaha: €15.00." in detail or "Sinu pearaha: 15,00" in detail
    assert english_lines(lobby) == []
    assert english_lines(detail) == []


def test_the_back_office_tournament_page_shows_the_bounty_money() -> None:
    from poker_site.accounts.roles import SUPPORT_STAFF
    from tests.tournaments.back_office import TOURNAMENTS, client_of

    tournament = bounty_sit_and_go(3, kind="progressive", bounty=1_000)
    register_players(tournament, 3)
    table = the_table(tournament)
    play_hand(table, {1: "AsAh", 2: "KcKd", 3: "7c2d"}, "3s8h9dJcQs", shove(3, 1), now=FIRST_HAND_AT, button=3)
    support = client_of(SUPPORT_STAFF)
    page = support.get(f"{TOURNAMENTS}{tournament.pk}/change/").content.decode()
    assert "Bounties (progressive bounty): €25.00 held in the bounty pool, €5.00 credited, VIP bounty paid €0.00." in (
        page
    )
    awards = support.get(f"/admin/tournaments/tournamentbountyaward/?tournament__id__exact={tournament.pk}")
    assert awards.status_code == 200
    assert "€5.00" in awards.content.decode()
