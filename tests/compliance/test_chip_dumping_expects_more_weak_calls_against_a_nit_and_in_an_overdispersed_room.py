"""FRD-14, FRD-19, issue 31: chip dumping's chances stay right in a big room. The weak rate expected of a player
against an opponent reflects that opponent (a nit who bets only strong hands makes everybody's calls against him
weak), and a room whose pairs' weak counts spread wider than binomials is judged quasi-binomially (the counts divided
by the dispersion estimated from its pairs, never below 1, and only from enough pairs)."""

from __future__ import annotations

from typing import Any

from compliance.detection.chip_dumping import ChipDumping


def calls(judged: int, weak: int) -> list[int]:
    return [0, 0, 0, 0, judged, weak]


def room_with_a_nit() -> ChipDumping:
    """``sta`` calls weak one time in ten against the field, and 6 times in 10 against the nit; eight others call
    weak against the nit half the time and against a regular one time in ten."""
    pairs: list[list[Any]] = [
        ["sta", "reg", calls(200, 20), 0.0, 0.0, []],
        ["sta", "nit", calls(10, 6), 150.0, 150.0, []],
    ]
    players = {"sta": calls(210, 26)}
    for number in range(8):
        name = f"o{number}"
        pairs.append([name, "nit", calls(50, 25), 0.0, 0.0, []])
        pairs.append([name, "reg", calls(50, 5), 0.0, 0.0, []])
        players[name] = calls(100, 30)
    indicator = ChipDumping()
    indicator.load_state({"format": 1, "totals": calls(1010, 266), "players": players, "pairs": pairs})
    return indicator


def test_weak_calls_against_a_nit_are_judged_against_everybodys_calls_against_him() -> None:
    indicator = room_with_a_nit()
    pair = indicator._pairs[("sta", "nit")]

    field_only, _ = indicator.score("sta", pair)  # the player's own rate alone
    with_opponent, rates = indicator.score("sta", pair, "nit")

    assert field_only >= 3  # would be flagged by the player's rate alone
    assert with_opponent < 2
    assert 0.2 < rates[2] < 0.3  # 0.13 for the player, times 1.8 for calls against this nit
    assert indicator.flags() == []


def overdispersed_room(pairs: int) -> ChipDumping:
    """``pairs`` ordered pairs of ten judged calls each at a rate of 0.3: half with none weak, half with six."""
    rows: list[list[Any]] = []
    players: dict[str, list[int]] = {}
    for number in range(pairs):
        loser, winner = f"l{number}", f"w{number % 10}"
        weak = 0 if number % 2 else 6
        rows.append([loser, winner, calls(10, weak), 0.0, 0.0, []])
        players[loser] = calls(10, weak)
    weak_total = sum(row[2][5] for row in rows)
    indicator = ChipDumping()
    indicator.load_state({"format": 1, "totals": calls(10 * pairs, weak_total), "players": players, "pairs": rows})
    return indicator


def test_a_room_whose_weak_counts_spread_wider_than_binomials_is_judged_with_its_dispersion() -> None:
    indicator = overdispersed_room(60)
    dispersion = indicator.dispersion()
    assert dispersion > 1.5
    pair = indicator._pairs[("l0", "w0")]
    assert indicator.score("l0", pair, "w0", dispersion=dispersion)[0] < indicator.score("l0", pair, "w0")[0]


def test_the_dispersion_is_1_with_too_few_pairs() -> None:
    assert overdispersed_room(20).dispersion() == 1.0
