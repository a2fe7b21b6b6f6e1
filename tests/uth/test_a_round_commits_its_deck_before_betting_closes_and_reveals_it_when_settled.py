"""Provably fair UTH rounds (issue 29, UTH-07/UTH-08): the commitment is published when the round opens, before
betting closes and before any card; the server seed is in no event until the round is settled, then revealed; the
dealt deck is the one the seed gives."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine.cards import FULL_DECK
from games.engine.fairness import commitment, derived_order, uth_round_domain
from games.uth.models import UthEvent, UthRound
from tests.uth.conftest import current_round

pytestmark = pytest.mark.django_db


def kinds_and_payloads(round_: UthRound) -> list[tuple[str, dict[str, Any]]]:
    return list(UthEvent.objects.filter(round=round_).order_by("sequence").values_list("kind", "payload"))


def test_the_commitment_is_published_at_the_opening_and_the_seed_revealed_after_the_settlement(
    table: Any, clock: Any, make_player: Any
) -> None:
    alice = make_player("alice", 100_000)
    from games.uth.services import uth_bet_place, uth_seat_take

    uth_seat_take(alice, table.pk, now=clock.now)
    clock.tick()  # the round opens: betting time
    round_ = current_round(table)
    events = kinds_and_payloads(round_)
    assert [kind for kind, _payload in events] == ["round_opened", "deck_committed"]
    committed = events[1][1]
    assert committed["commitment"] == round_.deck_commitment
    assert committed["domain"] == uth_round_domain(table.pk, round_.number)
    assert round_.deck == ""  # no card yet, betting is open
    uth_bet_place(alice, table.pk, "ante", 100, now=clock.now)
    clock.tick(15)  # betting closes: the committed deck is dealt
    round_.refresh_from_db()
    assert round_.phase == "preflop"
    assert not [payload for _kind, payload in kinds_and_payloads(round_) if round_.server_seed in str(payload)]
    clock.tick(10)
    clock.tick(10)
    clock.tick(10)  # automatic decisions to the settlement
    round_.refresh_from_db()
    assert round_.phase == "settled"
    kinds = [kind for kind, _payload in kinds_and_payloads(round_)]
    assert kinds.index("deck_committed") < kinds.index("dealt") < kinds.index("settled") < kinds.index("deck_revealed")
    revealed = dict(kinds_and_payloads(round_))["deck_revealed"]
    seed = bytes.fromhex(revealed["server_seed"])
    domain = uth_round_domain(table.pk, round_.number)
    assert commitment(domain, seed) == round_.deck_commitment
    assert "".join(str(card) for card in derived_order(FULL_DECK, seed, {}, domain)) == round_.deck


def test_a_cancelled_round_reveals_its_seed(table: Any, clock: Any, make_player: Any) -> None:
    from games.uth.services import uth_bet_place, uth_round_cancel, uth_seat_take

    alice = make_player("alice", 100_000)
    uth_seat_take(alice, table.pk, now=clock.now)
    clock.tick()
    uth_bet_place(alice, table.pk, "ante", 100, now=clock.now)
    clock.tick(15)
    round_ = current_round(table)
    uth_round_cancel(round_.pk, reason="malfunction test", now=clock.now)
    kinds = [kind for kind, _payload in kinds_and_payloads(round_)]
    assert kinds.index("round_cancelled") < kinds.index("deck_revealed")
