"""Planted colluders (issue 31; FRD-02, FRD-19) soft-play each other: whatever the cards, a decision aimed at the
partner (facing the partner's bet, or heads-up with the partner when nobody bet) never bets or raises; heads-up they
check it down and fold to each other's bets; with a third player's bet in front of them the stronger of the two (by
the cards they share) squeezes it and the weaker gets out of the way."""

from __future__ import annotations

from random import Random

from games.bots.policy import BotPolicy
from tests.realtime.bot_situations import AHEAD_OF_JUNK, BEHIND, FACING_A_BET, STRONG, UNOPENED, view

COLLUDER = BotPolicy(style="loose", plan="colluder", partner="partner")
AGGRESSIVE = {"bet", "raise", "all_in"}


def test_frd_02_a_colluder_never_bets_or_raises_into_its_partner() -> None:
    decisions = 0
    for seed in range(25):
        for street in ("preflop", "flop", "turn", "river"):
            for hole, partner in ((STRONG, BEHIND), (AHEAD_OF_JUNK, BEHIND), (BEHIND, STRONG)):
                for third_player_in in (False, True):
                    situations = [(FACING_A_BET, 2)]
                    if not third_player_in:
                        situations.append((UNOPENED, None))  # heads-up with the partner, nobody bet
                    for legal, aggressor in situations:
                        seen = view(
                            street=street,
                            hole=hole,
                            partner_cards=partner,
                            aggressor=aggressor,
                            third_player_in=third_player_in,
                        )
                        assert COLLUDER.decide(legal, seen, Random(seed))["action"] not in AGGRESSIVE
                        decisions += 1
    assert decisions == 25 * 4 * 3 * 3


def test_frd_02_heads_up_the_partners_check_it_down_and_fold_to_each_others_bets() -> None:
    for street in ("flop", "turn", "river"):
        with_the_nuts = view(street=street, hole=STRONG, partner_cards=BEHIND)
        assert COLLUDER.decide(UNOPENED, with_the_nuts, Random(1))["action"] == "check"
        facing = view(street=street, hole=STRONG, partner_cards=BEHIND, aggressor=2)
        assert COLLUDER.decide(FACING_A_BET, facing, Random(1))["action"] == "fold"


def test_frd_02_the_stronger_partner_squeezes_a_third_players_bet_and_the_weaker_folds() -> None:
    stronger = [
        COLLUDER.decide(
            FACING_A_BET, view(hole=STRONG, partner_cards=BEHIND, aggressor=3, third_player_in=True), Random(seed)
        )["action"]
        for seed in range(40)
    ]
    assert "raise" in stronger
    weaker = view(hole=BEHIND, partner_cards=STRONG, aggressor=3, third_player_in=True)
    assert {COLLUDER.decide(FACING_A_BET, weaker, Random(seed))["action"] for seed in range(20)} == {"fold"}
