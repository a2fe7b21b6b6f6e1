"""Button, blinds and who is dealt in, hand after hand (ENG-04..ENG-07, CASH-06, CASH-07, CASH-21, TRN-05, TRN-29).

:func:`next_hand_positions` is the single algorithm for cash tables and tournaments (AMB-22):

1. **Big blind** = the next eligible player clockwise from the previous hand's big blind (ENG-05 #1). Eligible =
   ``ready`` players plus players waiting for the big blind or asking to post out of position. In tournaments every
   remaining player is ``ready``, so the big blind never skips a player and never falls twice in a row to the same
   one (ENG-07, TRN-29).
2. **Small blind** = the previous big blind's seat if that player is ``ready`` (still seated and dealt in now);
   otherwise there is no small blind this hand (dead small blind, ENG-05 #2, AMB-66).
3. **Button** = the first seat counter-clockwise from the previous big blind's seat whose occupant was dealt into the
   previous hand, even if that player has since left (dead button); it never moves backwards and may stay put
   (ENG-05 #3).
4. **Heads-up** (exactly two players dealt in): the button posts the small blind and the other player the big blind
   (ENG-04, ENG-05 #4).

New players and players returning after their big blind passed (CASH-07, CASH-21) either wait for the big blind
(``waiting_for_big_blind``: dealt in when the big blind reaches them) or post a live big blind out of position
(``posting_out_of_position``), which is refused on the button seat or a seat between the button and the small blind —
they wait until the button passes (AMB-46). At a table's first hand (``previous is None``) everyone present is dealt
in without posting, the button is random (ENG-06, cash) or given (TRN-05: :func:`tournament_first_button`).

:func:`cash_hand_may_start` is the CASH-06 start condition.

Standard library only.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from games.engine.config import MAXIMUM_SEATS, MINIMUM_SEATS


class PositionError(ValueError):
    """Positions cannot be computed (too few players, bad seat numbers)."""


class Chooser(Protocol):
    """Anything with ``choice`` like ``random.Random`` or ``secrets.SystemRandom`` (GEN-08)."""

    def choice(self, seq: Any, /) -> Any: ...


@dataclass(frozen=True, slots=True)
class PreviousHand:
    """What the positions of the next hand depend on: last hand's button, blinds and the seats dealt in."""

    button: int
    small_blind: int | None
    big_blind: int
    dealt_in: frozenset[int]


@dataclass(frozen=True, slots=True)
class HandPositions:
    """Positions for a hand.

    * ``button``: may be an empty seat (dead button). ``small_blind``: ``None`` for a dead small blind; heads-up it is
      the button. ``big_blind``.
    * ``dealt_in``: seats dealt in, clockwise from the first seat after the button.
    * ``out_of_position``: players posting a live big blind out of position this hand (dealt in).
    * ``waiting``: players not dealt in who wait for the big blind (including refused out-of-position posters).
    """

    button: int
    small_blind: int | None
    big_blind: int
    dealt_in: tuple[int, ...]
    out_of_position: tuple[int, ...]
    waiting: tuple[int, ...]

    def as_previous(self) -> PreviousHand:
        """The :class:`PreviousHand` to pass when computing the hand after this one."""
        return PreviousHand(self.button, self.small_blind, self.big_blind, frozenset(self.dealt_in))


def _clockwise_after(seat: int, candidates: Iterable[int], table_size: int) -> list[int]:
    """``candidates`` ordered clockwise starting just after ``seat`` (``seat`` itself, if present, comes last)."""
    return sorted(candidates, key=lambda candidate: (candidate - seat - 1) % table_size)


def _check_seats(seats: Iterable[int], table_size: int, what: str) -> frozenset[int]:
    result = frozenset(seats)
    for seat in result:
        if type(seat) is not int or not 1 <= seat <= table_size:
            raise PositionError(f"{what}: {seat!r} is not a seat of a {table_size}-seat table")
    return result


def next_hand_positions(
    *,
    table_size: int,
    previous: PreviousHand | None,
    ready: Iterable[int],
    waiting_for_big_blind: Iterable[int] = (),
    posting_out_of_position: Iterable[int] = (),
    chooser: Chooser | None = None,
    first_button: int | None = None,
) -> HandPositions:
    """Positions for the next hand at a table of ``table_size`` seats (see the module docstring for the rules).

    * ``ready``: players who play this hand as a matter of course (dealt into the previous hand or present at the
      table's first hand, not sitting out). A new player in a seat vacated since the last hand is never ``ready``.
    * ``waiting_for_big_blind`` / ``posting_out_of_position``: new or returning players and their choice (CASH-07,
      CASH-21).
    * ``previous``: the previous hand at this table, or ``None`` for the first hand: then the button is
      ``first_button`` if given (tournaments, TRN-05) or a random player chosen with ``chooser`` (cash, ENG-06), and
      everyone present is dealt in without posting (AMB-46).

    Raises :class:`PositionError` when fewer than two players can be dealt in.
    """
    if type(table_size) is not int or not MINIMUM_SEATS <= table_size <= MAXIMUM_SEATS:
        raise PositionError(f"a table has {MINIMUM_SEATS}..{MAXIMUM_SEATS} seats, not {table_size!r}")
    ready_seats = _check_seats(ready, table_size, "ready")
    waiting = _check_seats(waiting_for_big_blind, table_size, "waiting for the big blind")
    posting = _check_seats(posting_out_of_position, table_size, "posting out of position")
    if ready_seats & waiting or ready_seats & posting or waiting & posting:
        raise PositionError("a seat is in more than one of ready / waiting / posting")
    if previous is None:
        return _first_hand(table_size, ready_seats | waiting | posting, chooser, first_button)

    eligible = ready_seats | waiting | posting
    if len(eligible) < 2:
        raise PositionError("fewer than two players can play")
    big_blind = _clockwise_after(previous.big_blind, eligible, table_size)[0]
    small_blind: int | None = previous.big_blind if previous.big_blind in ready_seats else None
    if small_blind == big_blind:
        small_blind = None
    button = next(
        (
            seat
            for seat in reversed(_clockwise_after(previous.big_blind, range(1, table_size + 1), table_size))
            if seat in previous.dealt_in and seat != previous.big_blind
        ),
        previous.button,
    )

    dealt_in = set(ready_seats)
    dealt_in.add(big_blind)
    out_of_position: list[int] = []
    still_waiting = set(waiting)
    still_waiting.discard(big_blind)
    # AMB-46: no posting from the button seat or a seat between it and the small blind (the big blind when there is
    # no small blind): such a player would get a hand in late position without paying for it; they wait.
    first_blind_offset = ((small_blind if small_blind is not None else big_blind) - button) % table_size
    for seat in sorted(posting):
        if seat == big_blind:
            continue
        if (seat - button) % table_size < first_blind_offset:
            still_waiting.add(seat)
        else:
            dealt_in.add(seat)
            out_of_position.append(seat)

    if len(dealt_in) == 2:
        # ENG-04: heads-up, the button is the small blind and the other player the big blind.
        (other,) = dealt_in - {big_blind}
        button = small_blind = other
        out_of_position = []
    if len(dealt_in) < 2:
        raise PositionError("fewer than two players can play")
    return HandPositions(
        button=button,
        small_blind=small_blind,
        big_blind=big_blind,
        dealt_in=tuple(_clockwise_after(button, dealt_in, table_size)),
        out_of_position=tuple(_clockwise_after(button, out_of_position, table_size)),
        waiting=tuple(sorted(still_waiting)),
    )


def _first_hand(
    table_size: int, players: frozenset[int], chooser: Chooser | None, first_button: int | None
) -> HandPositions:
    if len(players) < 2:
        raise PositionError("fewer than two players can play")
    if first_button is None:
        if chooser is None:
            raise PositionError("the first hand needs a random chooser for the button (ENG-06)")
        button = chooser.choice(sorted(players))
    else:
        button = first_button
        if button not in players:
            raise PositionError(f"the first button {button} is not a player")
    order = _clockwise_after(button, players, table_size)  # button last
    if len(players) == 2:
        small_blind, big_blind = button, order[0]
    else:
        small_blind, big_blind = order[0], order[1]
    return HandPositions(button, small_blind, big_blind, tuple(order), (), ())


def tournament_first_button(occupied_seats: Iterable[int]) -> int:
    """TRN-05 / AMB-13: at the start of a tournament the button is at the highest-numbered occupied seat."""
    seats = list(occupied_seats)
    if not seats:
        raise PositionError("no occupied seats")
    return max(seats)


def cash_hand_may_start(
    available_players: int,
    previous_hand_dealt_in: int | None,
    *,
    continue_heads_up: bool = False,
) -> bool:
    """CASH-06 / AMB-11: a cash hand starts with at least three available players (seated, not sitting out, plus
    anyone posting or reaching the big blind), or with two when the immediately preceding hand had three or more
    dealt in. ``continue_heads_up`` is the back-office flag "continue heads-up while >= 2" (default off)."""
    if available_players >= 3:
        return True
    if available_players == 2:
        return continue_heads_up or (previous_hand_dealt_in is not None and previous_hand_dealt_in >= 3)
    return False


__all__ = [
    "HandPositions",
    "PositionError",
    "PreviousHand",
    "cash_hand_may_start",
    "next_hand_positions",
    "tournament_first_button",
]
