"""A UTH decision the phase does not offer is refused as not possible now, naming the phase's choices, before the
balance is considered (UTH-09..UTH-12, AMB-39; QA G finding 7): a player short of money who sends PLAY 1x on the flop
is told PLAY 1x is not possible after the flop, never that a larger balance would allow it. Only a decision the phase
offers is refused for the balance (`decision_refused` in docs/uth-protocol.md, the same code for both)."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine.uth.round import DECISION_OPTIONS, Decision, IllegalDecision, Phase, PlayerHand
from games.uth.errors import DecisionRefused
from games.uth.services import uth_bet_place, uth_decide, uth_seat_take
from tests.uth.conftest import current_round

NO_MONEY = 0


@pytest.mark.parametrize("phase", [Phase.PREFLOP, Phase.FLOP, Phase.RIVER])
def test_every_decision_the_phase_does_not_offer_is_refused_for_the_phase_whatever_the_balance(phase: Phase) -> None:
    hand = PlayerHand(ante=18_200)
    for decision in Decision:
        if decision in DECISION_OPTIONS[phase]:
            continue
        with pytest.raises(IllegalDecision, match="is not possible in") as refusal:
            hand.verify_decision(phase, decision, NO_MONEY)
        assert "balance" not in str(refusal.value)


def test_an_offered_play_the_balance_cannot_cover_is_refused_for_the_balance() -> None:
    with pytest.raises(IllegalDecision, match="balance does not cover PLAY 1x"):
        PlayerHand(ante=18_200).verify_decision(Phase.RIVER, Decision.PLAY_1X, NO_MONEY)


@pytest.mark.django_db
def test_play_1x_on_the_flop_with_a_short_balance_is_refused_as_not_offered_after_the_flop(
    table: Any, clock: Any, make_player: Any
) -> None:
    bob = make_player("bob", 20_000)
    uth_seat_take(bob, table.pk, now=clock.now)
    clock.tick()
    uth_bet_place(bob, table.pk, "ante", 9_000, now=clock.now)  # Ante and Blind: €180 of €200, €20 left
    clock.tick(15)
    uth_decide(bob, table.pk, "check", now=clock.now)
    clock.tick(10)
    assert current_round(table).phase == "flop"
    with pytest.raises(DecisionRefused) as refusal:
        uth_decide(bob, table.pk, "play_1x", now=clock.now)
    assert "PLAY 1x is not possible in the decision after the flop" in str(refusal.value)
    assert "balance" not in str(refusal.value)
