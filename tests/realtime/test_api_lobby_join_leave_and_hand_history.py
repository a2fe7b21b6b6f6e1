"""The REST API at /api/games/: lobby filters, the stake queue (CASH-04) and leaving through the services, own hand
histories.

Privacy (architecture rule 4): a replay shows another player's hole cards only when they were shown at showdown; a
hand the user did not play is not found.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from django.test import Client

from tests.realtime.conftest import deposit, make_table, make_user

pytestmark = pytest.mark.django_db(transaction=True)


def client_for(user: Any | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def post_json(client: Client, path: str, body: Any) -> Any:
    return client.post(path, data=json.dumps(body), content_type="application/json")


def test_the_lobby_is_public_and_filters_by_game_and_stake(clean_cache: None) -> None:
    holdem = make_table("holdem", "NL10", name="H1")
    make_table("holdem", "NL25", name="H2")
    omaha = make_table("omaha", "PL25", name="O1")
    anonymous = client_for(None)
    everything = anonymous.get("/api/games/tables/")
    assert everything.status_code == 200
    assert {row["name"] for row in everything.json()} == {"H1", "H2", "O1"}
    assert [row["id"] for row in anonymous.get("/api/games/tables/?game=omaha").json()] == [omaha.pk]
    assert [row["id"] for row in anonymous.get("/api/games/tables/?game=holdem&stake=NL10").json()] == [holdem.pk]
    assert anonymous.get("/api/games/tables/?game=nothing").json() == []


def test_joining_and_leaving_need_a_logged_in_player(clean_cache: None) -> None:
    table = make_table()
    anonymous = client_for(None)
    assert post_json(anonymous, f"/api/games/stakes/{table.stake_id}/queue/", {"buy_in": 1000}).status_code == 403
    assert post_json(anonymous, f"/api/games/tables/{table.pk}/leave/", {}).status_code == 403


@pytest.mark.parametrize("buy_in", ["1000", 1000.0, True, -1000, 0, None, 10**20])
def test_a_buy_in_must_be_a_positive_json_integer(buy_in: object, clean_cache: None) -> None:
    from games.models import Seat

    table = make_table()
    player = make_user("alice")
    deposit(player, 5000)
    response = post_json(client_for(player), f"/api/games/stakes/{table.stake_id}/queue/", {"buy_in": buy_in})
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"
    assert not Seat.objects.filter(table=table, user=player).exists()


def test_cash_04_a_player_asks_for_the_stake_is_seated_then_leaves_and_refusals_carry_the_domain_code(
    clean_cache: None,
) -> None:
    from games.models import Seat, SeatingRequest
    from wallet.services.accounts import balance_of, player_cash_account

    table = make_table("holdem", "NL10")
    player = make_user("alice")
    deposit(player, 5000)
    client = client_for(player)
    queue = f"/api/games/stakes/{table.stake_id}/queue/"
    too_small = post_json(client, queue, {"buy_in": 100})
    assert too_small.status_code == 409
    assert too_small.json()["code"] == "buy_in_refused"
    assert balance_of(player_cash_account(player)) == 5000
    assert not SeatingRequest.objects.filter(user=player).exists()

    joined = post_json(client, queue, {"buy_in": 1000})
    assert joined.status_code == 200, joined.content
    answer = joined.json()
    assert (answer["status"], answer["table_id"], answer["stake_id"], answer["position"]) == (
        "seated",
        table.pk,
        table.stake_id,
        None,
    )
    assert Seat.objects.get(table=table, user=player).session is not None
    assert balance_of(player_cash_account(player)) == 4000

    left = post_json(client, f"/api/games/tables/{table.pk}/leave/", {})
    assert left.status_code == 200
    assert not Seat.objects.filter(table=table, user=player).exists()
    assert balance_of(player_cash_account(player)) == 5000
    assert post_json(client, f"/api/games/tables/{table.pk}/leave/", {}).json()["code"] == "not_seated"
    assert post_json(client, "/api/games/stakes/999999/queue/", {"buy_in": 1000}).status_code == 404


def play_to_showdown(table_id: int, users: dict[int, Any], folder_seat: int) -> int:
    """Deal a hand; ``folder_seat`` folds at its first turn, the others check or call to the showdown."""
    from games.models import Table
    from games.services import hand_act, hand_start

    table = Table.objects.get(pk=table_id)
    hand = hand_start(table, shuffler=random.Random(5))
    assert hand is not None
    for _ in range(100):
        hand.refresh_from_db()
        if hand.status != "running":
            return hand.pk
        seat = hand.acting_seat
        snapshot_user = users[seat]
        if seat == folder_seat:
            hand_act(table, snapshot_user, "fold")
            continue
        try:
            hand_act(table, snapshot_user, "check")
        except Exception:
            hand_act(table, snapshot_user, "call")
    raise AssertionError("the hand did not finish")


def test_hand_history_replays_step_by_step_and_shows_only_showdown_cards(clean_cache: None) -> None:
    from games.models import HandEvent, HandPlayer
    from games.services import seat_take

    table = make_table("holdem", "NL10")
    users = {seat: make_user(name) for seat, name in ((1, "alice"), (2, "bob"), (3, "carol"))}
    for seat, user in users.items():
        deposit(user, 5000)
        seat_take(user, table, 1000, seat_number=seat)
    outsider = make_user("mallory")
    hand_id = play_to_showdown(table.pk, users, folder_seat=3)

    hole = {
        row.private_to_seat: row.payload["cards"]
        for row in HandEvent.objects.filter(hand_id=hand_id, kind="hole_cards_dealt")
    }
    shown = HandEvent.objects.filter(hand_id=hand_id, kind="hand_shown")
    shown_seats = set(shown.values_list("payload__seat", flat=True))
    assert shown_seats == {1, 2}

    alice = client_for(users[1])
    listing = alice.get("/api/games/hands/").json()["results"]
    assert [row["id"] for row in listing] == [hand_id]
    assert listing[0]["seat"] == 1
    response = alice.get(f"/api/games/hands/{hand_id}/")
    assert response.status_code == 200
    replay = response.json()
    body = response.content.decode()
    assert replay["hand"]["my_cards"] == hole[1]
    assert all(f'"{card}"' not in body for card in hole[3]), "carol folded: her cards were never shown"
    assert set(replay["steps"][-1]["shown"]) == {"1", "2"}
    assert replay["steps"][-1]["shown"]["2"]["cards"] == hole[2]
    assert replay["steps"][0]["kind"] == "hand_started"
    assert [step["kind"] for step in replay["steps"]].count("action_taken") >= 3
    assert len(replay["steps"][-1]["board"]) == 5
    result = replay["steps"][-1]["result"]
    starts = sum(player["start_stack"] for player in result["players"])
    ends = sum(player["end_stack"] for player in result["players"])
    assert starts == ends + result["rake"]
    assert result["rake"] > 0  # the hand saw a flop (RAKE-03)
    assert {player["seat"]: player["end_stack"] for player in result["players"]} == {
        row.seat_number: row.end_stack for row in HandPlayer.objects.filter(hand_id=hand_id)
    }

    carol_replay = client_for(users[3]).get(f"/api/games/hands/{hand_id}/").content.decode()
    assert all(f'"{card}"' in carol_replay for card in hole[1] + hole[2] + hole[3])

    assert client_for(outsider).get(f"/api/games/hands/{hand_id}/").status_code == 404
    assert client_for(outsider).get("/api/games/hands/").json()["results"] == []
    assert client_for(None).get(f"/api/games/hands/{hand_id}/").status_code == 403


def test_a_player_asks_for_a_stake_and_waits_in_the_queue_until_leaving_it(clean_cache: None) -> None:
    """CASH-04/05: players choose game and stake; with no table of the stake open (an empty table would take the
    player, issue 22), the request waits, says why and where, and may be withdrawn."""
    from games.models import SeatingRequest, Stake

    make_table("holdem", "NL25")  # another stake's table: no NL10 table is open
    stake = Stake.objects.get(game_type__code="holdem", label="NL10")
    player = make_user("alice")
    deposit(player, 5000)
    client = client_for(player)
    response = post_json(client, f"/api/games/stakes/{stake.pk}/queue/", {"buy_in": 1000})
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "waiting"
    assert response.json()["position"] == 1
    assert response.json()["message"].startswith("No Texas Hold'em NL10 table is open.")
    assert post_json(client, f"/api/games/stakes/{stake.pk}/queue/", {"buy_in": "1000"}).status_code == 400
    left = client.delete(f"/api/games/stakes/{stake.pk}/queue/")
    assert left.status_code == 200
    assert SeatingRequest.objects.get(user=player).status == "cancelled"
    assert post_json(client_for(None), f"/api/games/stakes/{stake.pk}/queue/", {"buy_in": 1000}).status_code == 403


@pytest.mark.parametrize("cursor", ["cD1hYmM=", "cD0xLjU=", "cD0xZTM="])
def test_a_forged_hand_list_cursor_is_a_404_not_a_server_error(cursor: str, clean_cache: None) -> None:
    """``p=abc``, ``p=1.5``, ``p=1e3`` (base64 in the cursor): a position that is not a hand id is an invalid cursor."""
    response = client_for(make_user("cursor-forger")).get(f"/api/games/hands/?cursor={cursor}")
    assert response.status_code == 404


@pytest.mark.parametrize("query", ["game=%00", "stake=%00", "game=holdem%00&stake=NL10"])
def test_a_nul_byte_in_a_lobby_filter_is_a_bad_request_instead_of_failing(query: str, clean_cache: None) -> None:
    """Refused for every address by poker_site.core.middleware (PostgreSQL text cannot hold NUL)."""
    make_table("holdem", "NL10")
    response = client_for(None).get(f"/api/games/tables/?{query}")
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"
