"""Splitting a pot between tied winners with odd cents (ENG-27, GEN-06). Integer cents or chips only.

This is the seat-number form: give it the winners' seat numbers, the button and the table size, and it works out the
clockwise order itself. (games.engine.pots.split_pot is the form for callers who already hold the winners in that
order.)
"""

from __future__ import annotations

from collections.abc import Iterable


def split_amount(amount: int, winner_seats: Iterable[int], button_seat: int, seat_count: int) -> dict[int, int]:
    """Split one pot equally between tied winners; odd cents go one at a time clockwise from the button (ENG-27).

    Seats are numbered consecutively in clockwise order (either 0..seat_count-1 or 1..seat_count). Every winner gets
    ``amount // len(winners)``; the ``amount % len(winners)`` leftover cents go, one each, to the winners in clockwise
    order starting with the first seat clockwise from the button (the button seat itself comes last). The button may
    be an empty or dead seat. Apply per pot: each side pot is split on its own.

    Returns ``{seat: cents}`` for every winner, in that clockwise order; the values add up to ``amount``.

    [derived ENG-27] ``split_amount(101, [2, 5], button_seat=4, seat_count=9) == {5: 51, 2: 50}``.
    """
    winners = list(winner_seats)
    if type(amount) is not int or amount < 0:
        raise ValueError(f"amount must be non-negative integer cents, got {amount!r}")
    if type(seat_count) is not int or seat_count < 2:
        raise ValueError(f"a table has at least two seats, got {seat_count!r}")
    if not winners:
        raise ValueError("a pot needs at least one winner")
    for seat in [*winners, button_seat]:
        if type(seat) is not int or not 0 <= seat <= seat_count:
            raise ValueError(f"seat {seat!r} is not a seat of a {seat_count}-seat table")
    positions = [(seat - button_seat - 1) % seat_count for seat in winners]
    if len(set(positions)) != len(winners):
        raise ValueError(f"winner seats repeat: {winners}")
    clockwise = [seat for _, seat in sorted(zip(positions, winners, strict=True))]
    share, odd_cents = divmod(amount, len(winners))
    return {seat: share + (1 if order < odd_cents else 0) for order, seat in enumerate(clockwise)}


__all__ = ["split_amount"]
