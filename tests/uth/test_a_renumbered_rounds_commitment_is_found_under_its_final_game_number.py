"""A betting time nobody used starts again and the round takes a new game number (UTH-34, AMB-36: the number shows
when its betting time opened). Its deck is still the one committed when the round first opened, before any card, and
that same commitment is announced again under the new number (QA G finding 4), so the commitment is found under the
game number the player sees, in the event log and on the round, and the revealed seed verifies against it."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine.fairness import commitment, uth_round_domain
from games.uth.models import UthEvent, UthRound
from games.uth.services import uth_bet_place, uth_seat_take
from tests.uth.conftest import current_round

pytestmark = pytest.mark.django_db


def test_the_commitment_made_before_the_deal_is_found_under_the_final_game_number(
    table: Any, clock: Any, make_player: Any
) -> None:
    alice = make_player("alice", 100_000)
    uth_seat_take(alice, table.pk, now=clock.now)
    clock.tick()
    round_ = current_round(table)
    first_number, first_commitment = round_.game_number, round_.deck_commitment
    clock.tick(15)  # nobody bet: a new betting time, a new game number
    clock.tick(15)  # and again
    round_.refresh_from_db()
    assert round_.phase == "betting"
    assert round_.game_number != first_number
    assert round_.deck_commitment == first_commitment  # the deck committed at the opening is kept
    final_number = round_.game_number
    uth_bet_place(alice, table.pk, "ante", 100, now=clock.now)
    for seconds in (15, 10, 10, 10):
        clock.tick(seconds)
    round_.refresh_from_db()
    assert round_.phase == "settled"
    assert round_.game_number == final_number

    events = list(UthEvent.objects.filter(table=table).order_by("sequence").values_list("kind", "payload"))
    kinds = [kind for kind, _payload in events]
    committed = [payload for kind, payload in events if kind == "deck_committed"]
    assert [payload["game_number"] for payload in committed][-1] == final_number
    assert {payload["commitment"] for payload in committed} == {first_commitment}
    announced = next(
        index
        for index, (kind, payload) in enumerate(events)
        if kind == "deck_committed" and payload["game_number"] == final_number
    )
    assert announced < kinds.index("dealt")  # announced under the final number before any card
    revealed = next(payload for kind, payload in events if kind == "deck_revealed")
    assert revealed["game_number"] == final_number
    stored = UthRound.objects.get(game_number=final_number)
    assert stored.deck_commitment == first_commitment
    domain = uth_round_domain(table.pk, stored.number)
    assert commitment(domain, bytes.fromhex(revealed["server_seed"])) == first_commitment
