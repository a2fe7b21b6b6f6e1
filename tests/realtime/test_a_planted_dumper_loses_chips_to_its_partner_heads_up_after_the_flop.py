"""A planted chip dumper (issue 31; FRD-14, FRD-19) heads-up with its partner after the flop makes the decisions that
lose chips to the partner — calls off and shoves while behind, folds the better hand on the river — in the three ways
it varies by hand; its partner bets into it and calls it. With a third player in, or its partner out, it plays its
honest style."""

from __future__ import annotations

from random import Random

import pytest

from games.bots.policy import DUMPING_WAYS, BotPolicy, honest_action
from tests.realtime.bot_situations import AHEAD_OF_JUNK, BEHIND, FACING_A_BET, STRONG, UNOPENED, view

DUMPER = BotPolicy(style="tight", plan="dumper", partner="partner")
RECEIVER = BotPolicy(style="tight", plan="receiver", partner="partner")
WAYS = {way: number for number, way in enumerate(DUMPING_WAYS)}  # a hand id that picks each way


@pytest.mark.parametrize("street", ["flop", "turn", "river"])
@pytest.mark.parametrize("way", ["calls_off", "shoves_weak"])
def test_frd_14_behind_it_pays_the_partners_bet(way: str, street: str) -> None:
    decision = DUMPER.decide(FACING_A_BET, view(hand_id=WAYS[way], street=street, aggressor=2), Random(1))
    assert decision["action"] in {"call", "all_in"}


@pytest.mark.parametrize("way", DUMPING_WAYS)
def test_frd_14_ahead_on_the_river_it_folds_to_the_partners_bet(way: str) -> None:
    ahead = view(hand_id=WAYS[way], street="river", hole=AHEAD_OF_JUNK, partner_cards=BEHIND, aggressor=2)
    assert DUMPER.decide(FACING_A_BET, ahead, Random(2))["action"] == "fold"


def test_frd_14_shoving_weak_it_puts_its_stack_in_when_behind_and_never_bets_when_ahead() -> None:
    way = WAYS["shoves_weak"]
    assert DUMPER.decide(UNOPENED, view(hand_id=way), Random(3))["action"] == "all_in"
    ahead = view(hand_id=way, hole=AHEAD_OF_JUNK, partner_cards=BEHIND)
    assert DUMPER.decide(UNOPENED, ahead, Random(3))["action"] == "check"
    assert (
        DUMPER.decide(
            FACING_A_BET, view(hand_id=way, hole=AHEAD_OF_JUNK, partner_cards=BEHIND, aggressor=2), Random(3)
        )["action"]
        == "fold"
    )


def test_frd_14_folding_the_river_it_pays_the_flop_and_turn_whatever_it_holds() -> None:
    way = WAYS["folds_the_river"]
    for street in ("flop", "turn"):
        for hole, partner in ((BEHIND, STRONG), (AHEAD_OF_JUNK, BEHIND)):
            decision = DUMPER.decide(
                FACING_A_BET, view(hand_id=way, street=street, hole=hole, partner_cards=partner, aggressor=2), Random(4)
            )
            assert decision["action"] == "call"
    assert DUMPER.decide(FACING_A_BET, view(hand_id=way, street="river", aggressor=2), Random(4))["action"] == "fold"


def test_frd_14_the_dumper_never_bets_or_raises_into_its_partner_when_ahead() -> None:
    for hand_id in range(30):
        for street in ("flop", "turn", "river"):
            ahead = dict(hole=AHEAD_OF_JUNK, partner_cards=BEHIND, hand_id=hand_id, street=street)
            for legal, aggressor in ((UNOPENED, None), (FACING_A_BET, 2)):
                decision = DUMPER.decide(legal, view(aggressor=aggressor, **ahead), Random(hand_id))
                assert decision["action"] in {"check", "call", "fold"}


def test_frd_14_the_partner_bets_into_the_dumper_and_calls_its_shoves() -> None:
    rng = Random(5)
    opening = [RECEIVER.decide(UNOPENED, view(hole=STRONG, partner_cards=BEHIND), rng)["action"] for _ in range(40)]
    assert set(opening) <= {"bet", "all_in"}
    assert "bet" in opening
    shove = dict(FACING_A_BET, kinds=["fold", "call", "timeout"], call_amount=4000, raise_range=None)
    assert RECEIVER.decide(shove, view(hole=STRONG, partner_cards=BEHIND, aggressor=2), rng)["action"] == "call"


def test_frd_14_with_a_third_player_in_the_dumper_plays_its_honest_style() -> None:
    multiway = view(aggressor=3, third_player_in=True)
    for seed in range(20):
        assert DUMPER.decide(FACING_A_BET, multiway, Random(seed)) == honest_action(
            "tight", FACING_A_BET, multiway, Random(seed)
        )


@pytest.mark.parametrize("way", DUMPING_WAYS)
@pytest.mark.parametrize("street", ["flop", "turn"])
def test_frd_14_ahead_it_never_calls_the_partners_all_in_which_would_win_it_the_pot(way: str, street: str) -> None:
    all_in = dict(FACING_A_BET, kinds=["fold", "call", "timeout"], call_amount=4000, raise_range=None)
    ahead = view(hand_id=WAYS[way], street=street, hole=AHEAD_OF_JUNK, partner_cards=BEHIND, aggressor=2)
    assert DUMPER.decide(all_in, ahead, Random(6))["action"] == "fold"
    behind = view(hand_id=WAYS[way], street=street, aggressor=2)
    assert DUMPER.decide(all_in, behind, Random(6))["action"] == "call"


def test_frd_14_with_everybody_else_all_in_the_two_partners_betting_is_heads_up() -> None:
    """A third player all-in leaves the side pot to the two partners: the dumper dumps there too (a live run had the
    pair play honest, stack-deep pots against each other beside an all-in third player)."""
    ahead = view(hand_id=WAYS["calls_off"], street="river", hole=AHEAD_OF_JUNK, partner_cards=BEHIND, aggressor=2)
    ahead.folded.discard(3)
    ahead.all_in.add(3)
    assert ahead.heads_up_with(2)
    assert DUMPER.decide(FACING_A_BET, ahead, Random(7))["action"] == "fold"
