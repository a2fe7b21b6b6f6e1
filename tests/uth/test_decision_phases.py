"""The three decision phases: what may be chosen, raising once, automatic CHECK and FOLD (UTH-09..UTH-12, AMB-08,
AMB-39)."""

from __future__ import annotations

import pytest

from games.engine.uth.round import Decision, IllegalDecision, Phase, PlayerHand

ANTE = 1_000


def test_uth_10_amb_08_before_the_flop_the_choices_are_play_4x_play_3x_or_check() -> None:
    hand = PlayerHand(ante=ANTE)
    assert hand.options(Phase.PREFLOP) == (Decision.PLAY_4X, Decision.PLAY_3X, Decision.CHECK)
    with pytest.raises(IllegalDecision, match="PLAY 2x is not possible in the decision before the flop"):
        hand.decide(Phase.PREFLOP, Decision.PLAY_2X)


@pytest.mark.parametrize(("decision", "play"), [(Decision.PLAY_4X, 4 * ANTE), (Decision.PLAY_3X, 3 * ANTE)])
def test_uth_10_play_4x_or_3x_places_that_multiple_of_the_ante_and_ends_the_decisions(
    decision: Decision, play: int
) -> None:
    hand = PlayerHand(ante=ANTE, trips=500).decide(Phase.PREFLOP, decision)
    assert hand.play == play
    assert hand.stake == 2 * ANTE + 500 + play
    assert not hand.needs_decision(Phase.FLOP)
    assert not hand.needs_decision(Phase.RIVER)
    assert hand.options(Phase.FLOP) == ()


def test_uth_09_a_player_may_raise_only_once_per_round() -> None:
    hand = PlayerHand(ante=ANTE).decide(Phase.PREFLOP, Decision.PLAY_3X)
    with pytest.raises(IllegalDecision, match="may raise only once"):
        hand.decide(Phase.FLOP, Decision.PLAY_2X)


def test_uth_11_after_checking_the_flop_offers_play_2x_or_check() -> None:
    hand = PlayerHand(ante=ANTE).decide(Phase.PREFLOP, Decision.CHECK)
    assert hand.options(Phase.FLOP) == (Decision.PLAY_2X, Decision.CHECK)
    assert hand.decide(Phase.FLOP, Decision.PLAY_2X).play == 2 * ANTE
    with pytest.raises(IllegalDecision, match="PLAY 4x is not possible in the decision after the flop"):
        hand.decide(Phase.FLOP, Decision.PLAY_4X)


def test_uth_12_after_checking_twice_the_river_offers_play_1x_or_fold() -> None:
    hand = PlayerHand(ante=ANTE).decide(Phase.PREFLOP, Decision.CHECK).decide(Phase.FLOP, Decision.CHECK)
    assert hand.options(Phase.RIVER) == (Decision.PLAY_1X, Decision.FOLD)
    assert hand.decide(Phase.RIVER, Decision.PLAY_1X).play == ANTE
    folded = hand.decide(Phase.RIVER, Decision.FOLD)
    assert folded.folded
    assert folded.play == 0
    with pytest.raises(IllegalDecision, match="CHECK is not possible in the decision after the turn and river"):
        hand.decide(Phase.RIVER, Decision.CHECK)


def test_uth_10_11_timeouts_before_and_after_the_flop_are_auto_checked() -> None:
    hand = PlayerHand(ante=ANTE).time_out(Phase.PREFLOP).time_out(Phase.FLOP)
    assert [record.label for record in hand.decisions] == ["AUTO CHECKED", "AUTO CHECKED"]
    assert all(record.automatic for record in hand.decisions)
    assert hand.play == 0
    assert hand.needs_decision(Phase.RIVER)


def test_uth_12_a_timeout_at_the_last_decision_is_auto_folded() -> None:
    hand = PlayerHand(ante=ANTE).time_out(Phase.PREFLOP).time_out(Phase.FLOP).time_out(Phase.RIVER)
    assert hand.decisions[-1].label == "AUTO FOLDED"
    assert hand.folded


def test_a_player_decides_once_per_phase_and_a_timeout_needs_a_pending_decision() -> None:
    hand = PlayerHand(ante=ANTE).decide(Phase.PREFLOP, Decision.CHECK)
    with pytest.raises(IllegalDecision, match="already decided in the decision before the flop"):
        hand.decide(Phase.PREFLOP, Decision.CHECK)
    with pytest.raises(IllegalDecision, match="no decision pending"):
        hand.time_out(Phase.PREFLOP)


def test_decisions_out_of_phase_are_refused_in_plain_words() -> None:
    hand = PlayerHand(ante=ANTE)
    with pytest.raises(IllegalDecision, match="betting is still open"):
        hand.decide(Phase.BETTING, Decision.CHECK)
    with pytest.raises(IllegalDecision, match="round is over"):
        hand.decide(Phase.SETTLED, Decision.PLAY_1X)
    folded = hand.decide(Phase.PREFLOP, Decision.CHECK).decide(Phase.FLOP, Decision.CHECK)
    folded = folded.decide(Phase.RIVER, Decision.FOLD)
    with pytest.raises(IllegalDecision, match="folded"):
        folded.decide(Phase.RIVER, Decision.PLAY_1X)


def test_amb_39_play_options_the_balance_cannot_cover_are_not_offered() -> None:
    hand = PlayerHand(ante=ANTE)
    assert hand.options(Phase.PREFLOP, available=3 * ANTE) == (Decision.PLAY_3X, Decision.CHECK)
    with pytest.raises(IllegalDecision, match=r"balance does not cover PLAY 4x \(€40\.00\)"):
        hand.decide(Phase.PREFLOP, Decision.PLAY_4X, available=3 * ANTE)
    at_river = hand.decide(Phase.PREFLOP, Decision.CHECK).decide(Phase.FLOP, Decision.CHECK)
    assert at_river.options(Phase.RIVER, available=ANTE - 1) == (Decision.FOLD,)
    assert at_river.can_decide(Phase.RIVER, Decision.FOLD, available=0)
