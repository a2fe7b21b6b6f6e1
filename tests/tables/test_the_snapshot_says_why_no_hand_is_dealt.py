"""The table snapshot says why a cash table deals no hand (CASH-06, AMB-11) and names the viewer's made hand from the
flop on; both are read-only additions of ``games.runtime.views.table_snapshot``."""

from __future__ import annotations

from typing import Any

from games.runtime.engine_state import hand_engine_state
from games.runtime.views import table_snapshot
from games.services import seat_leave, seat_take
from tests.tables.support import (
    START,
    act,
    check_or_call_down,
    current_hand,
    deal,
    later,
    open_table,
    player,
    seat_players,
)


def waiting(table: Any) -> dict[str, Any] | None:
    return table_snapshot(table, None)["waiting"]  # type: ignore[no-any-return]


def test_one_player_waits_for_players_and_two_wait_for_a_third_cash_06() -> None:
    table = open_table()
    seat_players(table, [player()], 1000)
    assert waiting(table) == {"reason": "players", "available": 1, "needed": 2, "other_tables": []}
    users = [player(), player()]
    seat_take(users[0], table, 1000, seat_number=2, now=START)
    assert waiting(table) == {"reason": "third_player", "available": 2, "needed": 1, "other_tables": []}
    seat_take(users[1], table, 1000, seat_number=3, now=START)
    assert waiting(table) == {"reason": "starting", "available": 3, "needed": 0}


def test_after_a_three_handed_hand_two_may_play_once_then_wait_amb_11() -> None:
    table = open_table()
    users = [player(), player(), player()]
    seat_players(table, users, 1000)
    deal(table)
    assert waiting(table) is None  # a hand is in play
    check_or_call_down(table)
    seat_leave(users[2], table, now=later(1))
    assert waiting(table) == {"reason": "starting", "available": 2, "needed": 0}  # one heads-up hand follows
    deal(table, now=later(10))
    check_or_call_down(table, now=later(11))
    assert waiting(table) == {"reason": "third_player", "available": 2, "needed": 1, "other_tables": []}


def test_a_waiting_table_offers_the_other_open_tables_of_its_stake_with_a_free_seat_fullest_first() -> None:
    """Issue 28 (CASH-06 in plain words): nobody has to sit and wait: the other open tables of the same game and stake
    with a free seat are offered, those with more players first; a full table and a table of another stake are not."""
    table = open_table()
    seat_players(table, [player()], 1000)
    fuller, emptier, full = open_table(), open_table(), open_table()
    other_stake = open_table("holdem", "NL25")
    seat_players(emptier, [player()], 1000)
    for number in (1, 2):
        seat_take(player(), fuller, 1000, seat_number=number, now=START)
    seat_players(full, [player() for _ in range(full.seat_count)], 1000)
    seat_players(other_stake, [player()], 2500)
    offered = waiting(table)["other_tables"]  # type: ignore[index]
    assert [row["id"] for row in offered] == [fuller.pk, emptier.pk]
    assert offered[0] == {
        "id": fuller.pk,
        "name": fuller.name,
        "players": 2,
        "seats": fuller.seat_count,
        "url": f"/games/tables/{fuller.pk}/",
    }


def test_the_viewer_sees_their_made_hand_from_the_flop_on() -> None:
    table = open_table()
    users = [player(), player(), player()]
    seat_players(table, users, 1000)
    hand = deal(table)
    viewer = users[0]
    assert table_snapshot(table, viewer)["viewer"]["made_hand"] is None  # before the flop
    while (current := current_hand(table)) is not None and current.pk == hand.pk:
        snapshot = table_snapshot(table, viewer)
        if snapshot["hand"]["street"] == "flop":
            break
        legal = hand_engine_state(current).legal_actions()
        assert legal is not None
        act(table, "check" if legal.check else "call")
    snapshot = table_snapshot(table, viewer)
    made = snapshot["viewer"]["made_hand"]
    assert isinstance(made, str)
    assert made
    assert table_snapshot(table, None)["viewer"].get("made_hand") is None  # a spectator has no hand
