"""Honest bots are unchanged by the planted policies (issue 31): the default policy is the demo bots' random legal
play, decision for decision; an honest style ignores who sits at the table; every style and plan sends only
well-formed actions within the server's ranges; and a planted bot whose partner is not in the hand plays its honest
style."""

from __future__ import annotations

import json
from random import Random

from games.bots.policy import PLANS, BotPolicy, choose_action, honest_action
from games.runtime.protocol import TABLE_MESSAGES, parse_client_message
from tests.realtime.bot_situations import BEHIND, FACING_A_BET, STRONG, UNOPENED, view


def test_the_default_policy_is_the_random_legal_play_decision_for_decision() -> None:
    for seed in range(200):
        for legal in (FACING_A_BET, UNOPENED):
            assert BotPolicy().decide(legal, view(aggressor=2), Random(seed)) == choose_action(legal, Random(seed))


def test_a_planted_bot_whose_partner_folded_or_is_elsewhere_plays_its_honest_style() -> None:
    for plan in ("dumper", "receiver", "colluder"):
        policy = BotPolicy(style="tight", plan=plan, partner="partner")
        folded = view(aggressor=3, third_player_in=True)
        folded.folded.add(2)
        elsewhere = BotPolicy(style="tight", plan=plan, partner="somebody at another table")
        for seed in range(10):
            honest = honest_action("tight", FACING_A_BET, folded, Random(seed))
            assert policy.decide(FACING_A_BET, folded, Random(seed)) == honest
            assert elsewhere.decide(FACING_A_BET, folded, Random(seed)) == honest


def test_a_tight_bot_folds_junk_to_a_raise_before_the_flop_and_raises_aces_sometimes() -> None:
    tight = BotPolicy(style="tight")
    junk = view(street="preflop", hole=BEHIND, aggressor=2, third_player_in=True)
    assert {tight.decide(FACING_A_BET, junk, Random(seed))["action"] for seed in range(20)} == {"fold"}
    aces = view(street="preflop", hole=STRONG, aggressor=2, third_player_in=True)
    assert "raise" in {tight.decide(FACING_A_BET, aces, Random(seed))["action"] for seed in range(20)}


def test_every_style_and_plan_sends_well_formed_actions_within_the_ranges() -> None:
    engine_kind = {"raise": "raise_to"}
    for plan in PLANS:
        for style in ("random", "tight", "loose"):
            policy = BotPolicy(style=style, plan=plan, partner=None if plan == "honest" else "partner")
            for seed in range(15):
                for street in ("preflop", "flop", "river"):
                    for legal, aggressor in ((FACING_A_BET, 2), (UNOPENED, None), (FACING_A_BET, 3)):
                        seen = view(street=street, hole=STRONG if seed % 2 else BEHIND, aggressor=aggressor)
                        message = policy.decide(legal, seen, Random(seed))
                        parsed = parse_client_message(json.dumps(message), TABLE_MESSAGES).fields
                        assert engine_kind.get(message["action"], message["action"]) in legal["kinds"]
                        for kind, bounds in (("bet", "bet_range"), ("raise_to", "raise_range")):
                            if parsed["action"] == kind:
                                assert legal[bounds][0] <= parsed["amount"] <= legal[bounds][1]
