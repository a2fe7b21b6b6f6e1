"""FRD-14, FRD-02, FRD-19, issue 31: chip dumping without an all-in — a player who pays off the same partner's bets
street after street holding nothing is flagged as the loser; paying off with a good hand is not; the weak calls,
folds and all-ins of a pair add up into one count; a stored state from before calls were judged still loads."""

from __future__ import annotations

from compliance.detection.chip_dumping import ChipDumping
from compliance.detection.detector import Detector
from compliance.detection.flags import Flag
from compliance.detection.records import HandRecord
from compliance.detection.statistics import binomial_sum_upper_tail, binomial_upper_tail
from tests.compliance.hands import honest_all_ins, scripted_hand, shove_and_call


def paid_off(hand_id: str, caller: str, bettor: str, caller_cards: str, bettor_cards: str) -> HandRecord:
    """Heads-up: the button (the caller) limps, the big blind bets 10 and 20 big blinds on the flop and the turn and
    the caller calls both; both check the river."""
    return scripted_hand(
        hand_id,
        {1: caller, 2: bettor},
        hole={1: caller_cards, 2: bettor_cards},
        board="Kc9h4d3sJd",
        button=1,
        actions=[
            *[(1, "call"), (2, "check")],
            *[(2, "bet", 100), (1, "call")],
            *[(2, "bet", 200), (1, "call")],
            *[(2, "check"), (1, "check")],
        ],
    )


def field() -> list[HandRecord]:
    """Regulars who call bets with good hands, and now and then with nothing, and who go all-in with good hands."""
    records = honest_all_ins(40)
    for number in range(40):
        caller, bettor = f"regular{number % 8}", f"regular{(number + 3) % 8}"
        cards = "7c2h" if number % 10 == 0 else "KdQd"
        records.append(paid_off(f"field-{number}", caller, bettor, cards, "AsAh"))
    return records


def flags_after(hands: list[HandRecord]) -> list[Flag]:
    detector = Detector()
    detector.feed_hands(field())
    detector.feed_hands(hands)
    return [flag for flag in detector.flags() if flag.indicator == "chip_dumping"]


def test_paying_off_the_same_partner_with_nothing_is_flagged_without_any_all_in() -> None:
    flags = flags_after([paid_off(f"pay-{number}", "dee", "rob", "7c2d", "AsAh") for number in range(4)])

    assert [flag.players for flag in flags] == [("dee", "rob")]
    flag = flags[0]
    assert (flag.evidence["calls"], flag.evidence["weak_calls"]) == (8, 8)
    assert flag.evidence["weak_commitments"] == 0
    assert flag.evidence["weak_transfer_big_blinds"] == 124.0
    assert flag.evidence["expected_weak_call_rate"] < 0.2
    assert {item["kind"] for item in flag.evidence["weak_decisions"]} == {"call"}
    assert flag.score >= flag.threshold


def test_paying_off_with_a_good_hand_is_not_a_weak_call() -> None:
    assert flags_after([paid_off(f"pay-{number}", "dee", "rob", "KdQd", "AsAh") for number in range(4)]) == []


def test_weak_calls_and_weak_all_ins_add_up_into_one_count() -> None:
    """Two weak calls and one weak all-in: three weak decisions, flagged together though neither kind alone has
    three."""
    hands = [paid_off("pay-0", "dee", "rob", "7c2d", "AsAh"), shove_and_call("dump-0", "dee", "rob", "7c2d", "AsAh")]
    flags = flags_after(hands)

    assert [flag.players for flag in flags] == [("dee", "rob")]
    assert (flags[0].evidence["weak_calls"], flags[0].evidence["weak_commitments"]) == (2, 1)


def test_the_count_of_several_kinds_is_judged_exactly() -> None:
    """One kind alone is the binomial tail; two kinds are the tail of the sum of their binomials."""
    assert abs(binomial_sum_upper_tail([(10, 0.2)], 4) - binomial_upper_tail(10, 4, 0.2)) < 1e-12
    two = binomial_sum_upper_tail([(1, 0.5), (1, 0.5)], 1)
    assert abs(two - 0.75) < 1e-12
    assert binomial_sum_upper_tail([(3, 0.1)], 4) == 0.0
    assert binomial_sum_upper_tail([(3, 0.1)], 0) == 1.0


def test_a_state_stored_before_calls_were_judged_loads_with_no_calls() -> None:
    state = {
        "format": 1,
        "totals": [10, 1, 4, 1],
        "players": {"dee": [3, 3, 0, 0]},
        "pairs": [["dee", "rob", [3, 3, 0, 0], 300.0, 300.0, []]],
    }
    indicator = ChipDumping()
    indicator.load_state(state)

    assert indicator.state()["pairs"][0][2] == [3, 3, 0, 0, 0, 0]
    assert indicator.state()["totals"] == [10, 1, 4, 1, 0, 0]
