"""FRD-14, FRD-19: net flow judges each test's ``z`` against the room's own distribution of it (the empirical null:
median and median absolute deviation over the ordered pairs judged), which can only make a test stricter. Honest
pairs whose styles the additive model fits badly (a calling station and a maniac who share thousands of hands) shift
and widen every pair's ``z``; a transfer far outside that spread still flags, a pair at the edge of the honest spread
no longer does. With too few pairs judged, the theoretical null (0, 1) stays."""

from __future__ import annotations

import pytest

from compliance.detection import net_flow
from compliance.detection.net_flow import THEORETICAL_NULL, NetFlow, _Losses
from compliance.detection.statistics import normal_upper_tail


def room_of(scores: dict[tuple[str, str], tuple[float, float]], monkeypatch: pytest.MonkeyPatch) -> NetFlow:
    """A net flow indicator whose judged ordered pairs have these (per hand, per pot) ``z`` against (0, 1)."""
    indicator = NetFlow()
    for pair in scores:
        losses = _Losses()
        losses.add(10.0, 20.0)
        indicator._loss_pairs[pair] = net_flow._LossPair(losses=losses)

    def tests(loser: str, winner: str, room: object) -> dict[str, dict[str, float]]:
        per_hand, per_pot = scores[(loser, winner)]
        return {
            name: {"expected": 0.0, "excess": 100.0, "standard_deviation": 10.0, "score": z, "chance": 0.0}
            for name, z in (("per_hand", per_hand), ("per_pot", per_pot))
        }

    monkeypatch.setattr(indicator, "judged_pairs", lambda: sorted(scores))
    monkeypatch.setattr(indicator, "_loss_tests", tests)
    return indicator


def honest_room(pairs: int, per_pot_shift: float, per_pot_spread: float) -> dict[tuple[str, str], tuple[float, float]]:
    """``pairs`` ordered pairs whose per-hand ``z`` spread evenly over [-1, 1] and per-pot ``z`` are shifted and
    widened."""
    scores = {}
    for index in range(pairs):
        even = -1.0 + 2.0 * index / (pairs - 1)
        scores[(f"p{index:03}", f"q{index:03}")] = (even, per_pot_shift + per_pot_spread * even)
    return scores


def test_a_room_with_a_shifted_and_wide_test_raises_that_tests_location_and_scale(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    indicator = room_of(honest_room(101, per_pot_shift=0.8, per_pot_spread=2.0), monkeypatch)

    null = indicator.empirical_null()

    location, scale = null["per_pot"]
    assert location == pytest.approx(0.8)
    assert scale == pytest.approx(1.4826 * 1.0)  # the middle half of the spread: 2.0 x 0.5
    assert null["per_hand"] == (0.0, 1.0)  # median 0, MAD 0.5: never looser than the theory


def test_a_room_can_only_make_a_test_stricter(monkeypatch: pytest.MonkeyPatch) -> None:
    indicator = room_of(honest_room(101, per_pot_shift=-0.7, per_pot_spread=0.3), monkeypatch)

    assert indicator.empirical_null() == THEORETICAL_NULL


def test_with_too_few_pairs_judged_the_theoretical_null_stays(monkeypatch: pytest.MonkeyPatch) -> None:
    pairs = net_flow.EMPIRICAL_NULL_MINIMUM_PAIRS - 1
    indicator = room_of(honest_room(pairs, per_pot_shift=2.0, per_pot_spread=3.0), monkeypatch)

    assert indicator.empirical_null() == THEORETICAL_NULL


def test_a_pair_at_the_edge_of_the_honest_spread_is_judged_against_it_and_a_transfer_far_outside_is_not_hidden(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    scores = honest_room(101, per_pot_shift=0.8, per_pot_spread=2.0)
    scores[("station", "maniac")] = (1.2, 5.05)  # honest, styles the model fits badly
    scores[("dumper", "receiver")] = (1.5, 9.4)
    indicator = room_of(scores, monkeypatch)
    null = indicator.empirical_null()
    location, scale = null["per_pot"]

    edge = indicator.judge_losses("station", "maniac", _Losses(), null)
    transfer = indicator.judge_losses("dumper", "receiver", _Losses(), null)

    assert edge is not None
    assert transfer is not None
    assert edge["tests"]["per_pot"]["raw_score"] == 5.05
    assert edge["tests"]["per_pot"]["score"] == pytest.approx((5.05 - location) / scale)
    assert edge["tests"]["per_pot"]["chance"] == pytest.approx(normal_upper_tail((5.05 - location) / scale))
    assert edge["score"] < 4.4 < transfer["score"]  # 4.4: the bar of 200,000 hands of the second room
    assert edge["null"] == {name: list(value) for name, value in null.items()}
