"""Chips within the limits, DOUBLE, REPEAT and UNDO on a bet slip (UTH-05, UTH-06, UTH-22, UTH-26, UTH-28..31)."""

from __future__ import annotations

import pytest

from games.engine.uth.betting import BetAmounts, BetLimits, BetRejected, BetSlip, StepKind
from games.engine.uth.settlement import BetSpot

# Ante €1..€100, Trips €1..€25.
LIMITS = BetLimits(ante_minimum=100, ante_maximum=10_000, trips_minimum=100, trips_maximum=2_500)


def slip_with(*chips: tuple[BetSpot, int]) -> BetSlip:
    slip = BetSlip()
    for spot, chip in chips:
        slip, _ = slip.with_chip(spot, chip, LIMITS)
    return slip


def test_uth_05_an_ante_chip_also_places_an_equal_blind_and_stakes_twice_the_chip() -> None:
    slip, step = BetSlip().with_chip(BetSpot.ANTE, 500, LIMITS)
    assert (slip.ante, slip.amounts.blind, slip.trips) == (500, 500, 0)
    assert step.stake == 1_000
    assert slip.stake == 1_000


def test_uth_06_trips_is_refused_until_an_ante_has_been_placed() -> None:
    with pytest.raises(BetRejected, match="Place your Ante before the Trips bet"):
        BetSlip().with_chip(BetSpot.TRIPS, 100, LIMITS)
    slip = slip_with((BetSpot.ANTE, 100), (BetSpot.TRIPS, 500))
    assert (slip.ante, slip.trips, slip.stake) == (100, 500, 700)


def test_uth_05_09_blind_and_play_spots_take_no_chips() -> None:
    with pytest.raises(BetRejected, match="Blind is placed for you automatically"):
        BetSlip().with_chip(BetSpot.BLIND, 100, LIMITS)
    with pytest.raises(BetRejected, match="PLAY decision"):
        BetSlip().with_chip(BetSpot.PLAY, 100, LIMITS)


def test_uth_22_a_spot_must_reach_its_minimum_with_the_chip_that_opens_it() -> None:
    with pytest.raises(BetRejected, match=r"minimum Ante at this table is €1\.00"):
        BetSlip().with_chip(BetSpot.ANTE, 50, LIMITS)
    slip = slip_with((BetSpot.ANTE, 100))
    with pytest.raises(BetRejected, match=r"minimum Trips bet at this table is €1\.00"):
        slip.with_chip(BetSpot.TRIPS, 20, LIMITS)
    # Once open, smaller chips add up normally.
    assert slip_with((BetSpot.ANTE, 100), (BetSpot.ANTE, 50)).ante == 150


def test_uth_26_a_chip_fills_the_spot_up_to_its_maximum_and_then_the_maximum_message_appears() -> None:
    slip = slip_with((BetSpot.ANTE, 9_000))
    slip, step = slip.with_chip(BetSpot.ANTE, 5_000, LIMITS)
    assert (slip.ante, step.ante) == (10_000, 1_000)
    with pytest.raises(BetRejected, match=r"already bet the maximum Ante of €100\.00"):
        slip.with_chip(BetSpot.ANTE, 100, LIMITS)


def test_an_ante_is_kept_in_whole_2_cent_steps_so_the_blind_pays_exact_cents() -> None:
    with pytest.raises(BetRejected, match="2-cent steps"):
        slip_with((BetSpot.ANTE, 100)).with_chip(BetSpot.ANTE, 1, LIMITS)
    # Trips pays whole multiples, so odd cents are fine there.
    assert slip_with((BetSpot.ANTE, 100), (BetSpot.TRIPS, 101)).trips == 101


@pytest.mark.parametrize("chip", [0, -100, 1.5, "100", True, None, 10**13])
def test_malformed_chip_values_are_refused_in_plain_words(chip: object) -> None:
    with pytest.raises(BetRejected, match="positive whole number of cents"):
        BetSlip().with_chip(BetSpot.ANTE, chip, LIMITS)


def test_uth_29_double_doubles_every_spot_capped_at_each_maximum_in_one_undoable_step() -> None:
    slip = slip_with((BetSpot.ANTE, 6_000), (BetSpot.TRIPS, 1_000))
    doubled, step = slip.with_double(LIMITS)
    assert (doubled.ante, doubled.trips) == (10_000, 2_000)
    assert (step.kind, step.ante, step.trips, step.stake) == (StepKind.DOUBLE, 4_000, 1_000, 9_000)
    undone, removed = doubled.without_last()
    assert undone == slip
    assert removed == step


def test_uth_29_double_needs_a_bet_and_room_below_the_maximum() -> None:
    with pytest.raises(BetRejected, match="Place a bet before doubling"):
        BetSlip().with_double(LIMITS)
    at_maximum = slip_with((BetSpot.ANTE, 10_000), (BetSpot.TRIPS, 2_500))
    with pytest.raises(BetRejected, match="already at the table maximum"):
        at_maximum.with_double(LIMITS)


def test_uth_28_repeat_places_the_previous_rounds_bets_only_before_the_first_chip() -> None:
    repeated, step = BetSlip().with_repeat(BetAmounts(ante=500, trips=200), LIMITS)
    assert (repeated.ante, repeated.trips, step.kind) == (500, 200, StepKind.REPEAT)
    with pytest.raises(BetRejected, match="only available before you place the first chip"):
        repeated.with_repeat(BetAmounts(ante=500), LIMITS)


def test_uth_28_repeat_is_refused_without_previous_bets_or_when_they_are_outside_todays_limits() -> None:
    with pytest.raises(BetRejected, match="no bets from a previous round"):
        BetSlip().with_repeat(None, LIMITS)
    with pytest.raises(BetRejected, match="outside this table's current limits"):
        BetSlip().with_repeat(BetAmounts(ante=20_000), LIMITS)


def test_uth_30_undo_takes_bets_back_one_by_one_newest_first_and_clear_takes_them_all() -> None:
    slip = slip_with((BetSpot.ANTE, 100), (BetSpot.TRIPS, 500), (BetSpot.ANTE, 200))
    slip, last = slip.without_last()
    assert (last.ante, slip.ante, slip.trips) == (200, 100, 500)
    slip, last = slip.without_last()
    assert (last.trips, slip.trips) == (500, 0)
    full = slip_with((BetSpot.ANTE, 100), (BetSpot.TRIPS, 500))
    cleared, removed = full.cleared()
    assert cleared.is_empty
    assert [step.stake for step in removed] == [500, 200]
    with pytest.raises(BetRejected, match="no bet to undo"):
        cleared.without_last()


def test_uth_31_the_total_bet_is_ante_plus_blind_plus_trips() -> None:
    assert slip_with((BetSpot.ANTE, 1_000), (BetSpot.TRIPS, 500)).stake == 2_500


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ((0, 100, 100, 100), "ante_minimum must be a positive whole number"),
        ((200, 100, 100, 100), "minimum Ante is above the maximum"),
        ((100, 100, 300, 200), "minimum Trips bet is above the maximum"),
        ((101, 200, 100, 100), "multiples of 2 cents"),
        ((100, 201, 100, 100), "multiples of 2 cents"),
        ((100, "200", 100, 100), "ante_maximum must be a positive whole number"),
    ],
)
def test_uth_22_limits_that_make_no_sense_cannot_be_configured(arguments: tuple[object, ...], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        BetLimits(*arguments)  # type: ignore[arg-type]
