"""A bot's view of the hand comes from the public table events and its own hole cards (issue 31): who is dealt in and
still holding cards, the street's last voluntary bettor, the pot and the board; its partner's seat is found by the
partner's name at the table (seat events), with no help from the server; partners in one process share hole cards
hand by hand; and planted pairs are seated two at a time at one table among honest bots."""

from __future__ import annotations

import pytest

from games.bots.policy import BotPolicy, HandView, Partnership, plant_pairs


def test_the_view_follows_seats_blinds_bets_folds_and_streets() -> None:
    seen = HandView()
    seen.apply_snapshot(
        {
            "table": {"big_blind": 10},
            "seats": [
                {"number": 1, "occupied": True, "name": "me"},
                {"number": 4, "occupied": True, "name": "stranger"},
            ],
            "viewer": {"seat": 1},
        }
    )
    events = [
        {"type": "seat_taken", "seat": 2, "status": "playing", "user_id": 9, "name": "partner"},
        {"type": "hand_started", "hand_id": 7, "config": {"big_blind": 10, "players": [[1, 500], [2, 800], [4, 900]]}},
        {"type": "forced_bet_posted", "seat": 2, "amount": 5},
        {"type": "forced_bet_posted", "seat": 4, "amount": 10},
        {"type": "hole_cards_dealt", "seat": 1, "cards": ["As", "Kd"]},
        {"type": "hole_cards_dealt", "seat": 2, "card_count": 2},
        {"type": "action_taken", "seat": 1, "resolved": "raise", "amount": 30, "all_in": False},
        {"type": "action_taken", "seat": 2, "resolved": "call", "amount": 25, "all_in": False},
        {"type": "action_taken", "seat": 4, "resolved": "fold", "amount": 0, "all_in": False},
    ]
    for event in events:
        seen.apply_event(event)
    assert seen.hole_cards == ("As", "Kd")
    assert seen.live() == (1, 2)
    assert seen.aggressor == 1
    assert seen.pot == 70
    assert seen.seat_of("partner") == 2
    assert seen.heads_up_with(2)
    seen.apply_event({"type": "street_dealt", "street": "flop", "board": ["7h", "Kc", "2d"]})
    assert (seen.street, seen.board, seen.aggressor) == ("flop", ("7h", "Kc", "2d"), None)
    seen.apply_event({"type": "seat_left", "seat": 2, "status": "empty"})
    assert seen.seat_of("partner") is None


def test_partners_in_one_process_share_their_hole_cards_hand_by_hand() -> None:
    partnership = Partnership()
    for hand in range(1, 20):
        partnership.share(hand, "partner", ("As", "Ad"))
    assert partnership.cards_of(19, "partner") == ("As", "Ad")
    assert partnership.cards_of(19, "me") == ()
    assert len(partnership.cards) == Partnership.KEPT_HANDS


def test_planted_pairs_sit_two_at_a_time_at_one_table_among_honest_styles() -> None:
    tables = [[f"t{table}p{seat}" for seat in range(6)] for table in range(2)]
    policies, pairs = plant_pairs(tables, colluding_pairs=2, dumping_pairs=1, styles=("random", "tight"))
    assert [(pair.kind, pair.first, pair.second) for pair in pairs] == [
        ("colluding", "t0p0", "t0p1"),
        ("colluding", "t1p0", "t1p1"),
        ("dumping", "t0p2", "t0p3"),
    ]
    assert policies["t0p0"] == BotPolicy(style="loose", plan="colluder", partner="t0p1")
    assert policies["t0p2"].plan == "dumper"
    assert policies["t0p3"] == BotPolicy(style="tight", plan="receiver", partner="t0p2")
    honest = [name for name, policy in policies.items() if policy.plan == "honest"]
    assert len(honest) == 12 - 6
    assert {policies[name].style for name in honest} == {"random", "tight"}
    with pytest.raises(ValueError, match="two seats"):
        plant_pairs([["a", "b", "c"]], colluding_pairs=1, dumping_pairs=1)
