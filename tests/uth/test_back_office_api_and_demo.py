"""Back office (limits with recorded changes, game recall, cancel with a reason), the REST API (tables, snapshot,
history, recall by game number) and the demo table (UTH-22, UTH-34, UTH-35, UTH-36, LOB-07, LOB-08, GEN-07)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client

from games.uth.demo import DEMO_TABLE_NAME, seed_demo
from games.uth.models import UthLimitChange, UthRound, UthTable
from games.uth.readside import observed_rtp
from games.uth.services import uth_bet_place, uth_decide, uth_seat_take
from poker_site.accounts.models import User
from poker_site.core.models import RuleChangeProposal
from poker_site.core.rule_changes import RuleChangeRefused, rule_change_approve
from wallet.services import ledger_reconcile

from .conftest import Clock, balance, current_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client: Client) -> Client:
    client.force_login(User.objects.create_superuser("boss", "boss@example.com", "x-unused-password"))
    return client


@pytest.fixture
def played(table: UthTable, clock: Clock, make_player: Callable[..., User]) -> User:
    """Alice played one settled round (player Ah 9h, dealer Kc Kd, board 2h 5h Jh 7c 3s; PLAY 4x)."""
    alice = make_player("alice", 50_000)
    uth_seat_take(alice, table.pk, now=clock.now)
    clock.tick()
    uth_bet_place(alice, table.pk, "ante", 1_000, now=clock.now)
    clock.rig("Ah 9h Kc Kd 2h 5h Jh 7c 3s")
    clock.tick(15)
    uth_decide(alice, table.pk, "play_4x", now=clock.now)
    for _ in range(3):
        clock.tick(10)
    assert current_round(table).phase == "settled"
    return alice


def test_lob_07_limits_edited_in_the_back_office_apply_once_a_second_staff_member_approves_and_are_recorded(
    admin_client: Client, table: UthTable
) -> None:
    """Issue 30: the limits, chips and clocks are proposed when saved; another staff member's approval applies them."""
    page = admin_client.get(f"/admin/uth/uthtable/{table.pk}/change/")
    assert page.status_code == 200
    form = {
        "name": table.name,
        "is_open": "on",
        "ante_minimum": "200",
        "ante_maximum": "20000",
        "trips_minimum": "100",
        "trips_maximum": "5000",
        "chip_values": "[200, 1000]",
        "betting_seconds": "20",
        "decision_seconds": "12",
        "result_seconds": "6",
        "rules_version": table.rules_version,
    }
    refused = admin_client.post(f"/admin/uth/uthtable/{table.pk}/change/", form)
    assert "Say why the limits change" in refused.content.decode()

    response = admin_client.post(f"/admin/uth/uthtable/{table.pk}/change/", {**form, "reason": "Quieter table"})
    assert response.status_code == 302
    table.refresh_from_db()
    assert (table.ante_minimum, table.ante_maximum, table.betting_seconds) == (100, 10_000, 15)
    assert not UthLimitChange.objects.exists()
    proposal = RuleChangeProposal.objects.get(target=f"uth.uthtable:{table.pk}")
    assert proposal.changes["ante_minimum"] == 200

    with pytest.raises(RuleChangeRefused, match="cannot approve it"):
        rule_change_approve(proposal, User.objects.get(username="boss"))
    rule_change_approve(proposal, User.objects.create_superuser("second", "second@example.com", "x-unused-password"))
    table.refresh_from_db()
    assert (table.ante_minimum, table.ante_maximum, table.betting_seconds) == (200, 20_000, 20)
    change = UthLimitChange.objects.get(table=table)
    assert (change.before["ante_minimum"], change.after["ante_minimum"]) == (100, 200)
    assert change.changed_by.username == "second"  # type: ignore[union-attr]


def test_uth_22_limits_that_make_no_sense_are_refused_by_the_back_office_form(
    admin_client: Client, table: UthTable
) -> None:
    form = {
        "name": table.name,
        "is_open": "on",
        "ante_minimum": "101",
        "ante_maximum": "100",
        "trips_minimum": "100",
        "trips_maximum": "5000",
        "chip_values": "[100, 50]",
        "betting_seconds": "15",
        "decision_seconds": "10",
        "result_seconds": "6",
        "rules_version": table.rules_version,
    }
    response = admin_client.post(f"/admin/uth/uthtable/{table.pk}/change/", form)
    assert response.status_code == 200
    assert "minimum Ante is above the maximum" in response.content.decode()
    table.refresh_from_db()
    assert table.ante_minimum == 100
    assert not UthLimitChange.objects.exists()


def test_lob_08_uth_34_a_round_is_found_by_its_game_number_with_deck_hands_and_records(
    admin_client: Client, played: User, table: UthTable
) -> None:
    round_ = current_round(table)
    listing = admin_client.get("/admin/uth/uthround/", {"q": round_.game_number})
    assert round_.game_number in listing.content.decode()
    recall = admin_client.get(f"/admin/uth/uthround/{round_.pk}/change/").content.decode()
    assert "player A♥ 9♥ · dealer K♣ K♦ · board 2♥ 5♥ J♥ 7♣ 3♠" in recall
    assert "PLAY 4x" in recall
    hand = round_.hands.get()
    hand_page = admin_client.get(f"/admin/uth/uthhand/{hand.pk}/change/").content.decode()
    assert "settlement" in hand_page
    for path in ("/admin/uth/uthhand/", "/admin/uth/uthevent/", "/admin/uth/uthbetrecord/", "/admin/uth/uthtable/"):
        assert admin_client.get(path).status_code == 200


def test_uth_36_staff_cancel_a_round_from_the_back_office_with_a_reason(
    admin_client: Client, table: UthTable, clock: Clock, make_player: Callable[..., User]
) -> None:
    alice = make_player("alice", 50_000)
    uth_seat_take(alice, table.pk, now=clock.now)
    clock.tick()
    uth_bet_place(alice, table.pk, "ante", 1_000, now=clock.now)
    round_ = current_round(table)
    action = {"action": "cancel_rounds", "_selected_action": [str(round_.pk)]}
    form = admin_client.post("/admin/uth/uthround/", action)
    assert "Give the reason" in form.content.decode()
    assert UthRound.objects.get(pk=round_.pk).phase == "betting"
    done = admin_client.post("/admin/uth/uthround/", {**action, "reason": "dealer shoe jammed"})
    assert done.status_code == 302
    round_.refresh_from_db()
    assert (round_.phase, round_.cancel_reason) == ("cancelled", "dealer shoe jammed")
    assert balance(alice) == 50_000
    assert ledger_reconcile() == []


def test_the_api_lists_tables_and_gives_a_snapshot_without_hidden_cards(
    client: Client, table: UthTable, clock: Clock, make_player: Callable[..., User]
) -> None:
    tables = client.get("/api/uth/tables/").json()["tables"]
    assert [(row["name"], row["limits"]["ante_maximum"]) for row in tables] == [("Test UTH table", 10_000)]
    alice = make_player("alice", 50_000)
    uth_seat_take(alice, table.pk, now=clock.now)
    clock.tick()
    uth_bet_place(alice, table.pk, "ante", 1_000, now=clock.now)
    clock.rig("Ah 9h Kc Kd 2h 5h Jh 7c 3s")
    clock.tick(15)
    snapshot = client.get(f"/api/uth/tables/{table.pk}/").json()
    assert snapshot["round"]["player_cards"] == ["Ah", "9h"]
    assert snapshot["round"]["dealer_cards"] == []
    assert "Kc" not in str(snapshot)
    assert snapshot["me"] is None
    assert client.get("/api/uth/tables/999999/").status_code == 404


def test_uth_35_the_api_gives_a_player_their_history_and_the_recall_of_their_own_games_only(
    client: Client, played: User, table: UthTable, make_player: Callable[..., User]
) -> None:
    assert client.get("/api/uth/history/").status_code in (401, 403)
    client.force_login(played)
    history = client.get("/api/uth/history/").json()["rounds"]
    assert len(history) == 1
    assert history[0]["result"]["net"] == 1_000 + 1_500 + 4_000
    assert history[0]["dealer_cards"] == ["Kc", "Kd"]
    game_number = history[0]["game_number"]
    recall = client.get(f"/api/uth/rounds/{game_number}/").json()
    assert recall["round"]["dealer_cards"] == ["Kc", "Kd"]
    assert [record["kind"] for record in recall["hands"][0]["records"]] == ["chip", "decision", "settlement"]
    assert "deck" not in recall
    client.force_login(make_player("mallory", 0))
    assert client.get(f"/api/uth/rounds/{game_number}/").status_code == 404


def test_the_demo_seed_creates_one_open_table_and_is_idempotent(db: None) -> None:
    lines: list[str] = []
    seed_demo(lines.append)
    seed_demo(lines.append)
    table = UthTable.objects.get(name=DEMO_TABLE_NAME)
    assert table.is_open
    assert (table.ante_minimum, table.ante_maximum, table.trips_maximum) == (100, 50_000, 10_000)
    assert UthTable.objects.count() == 1
    assert f"/uth/{table.pk}/" in lines[0]


def test_uth_21_lob_09_the_back_office_shows_the_return_each_bet_type_actually_paid(
    admin_client: Client, played: User, table: UthTable
) -> None:
    report = observed_rtp(table.pk)
    # Alice's flush beat a qualifying dealer: Ante 1:1, Blind 1.5:1, Play 1:1 on €40.
    assert report["ante"] == {"staked": 1_000, "returned": 2_000, "rtp": 2.0}
    assert report["blind"] == {"staked": 1_000, "returned": 2_500, "rtp": 2.5}
    assert report["play"] == {"staked": 4_000, "returned": 8_000, "rtp": 2.0}
    assert report["trips"]["rtp"] is None
    assert report["main"]["rtp"] == 12_500 / 6_000
    page = admin_client.get(f"/admin/uth/uthtable/{table.pk}/change/").content.decode()
    assert "<td>Main bets</td><td>€60.00</td><td>€125.00</td><td>208.33%</td>" in page
    assert "total main bet 99.47%" in page
