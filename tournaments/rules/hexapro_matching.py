"""Forming HexaPro games from waiting registrations (HEX-04, HEX-03).

Each registered game is one seat. The registrations waiting at one buy-in of one product form a queue in the order
they were made (the service sorts by registration time, then id). :func:`form_games` forms games at once, as many as it
can, by this rule:

* a game takes the oldest waiting registration, then the next oldest of another player, and so on until the game's
  seats are filled with distinct players: a player's several registrations always go to different games;
* a registration skipped because its player already has a seat in the game being formed keeps its place in the queue
  for the next game. A player's surplus registrations therefore never hold up other players' games;
* when the waiting registrations belong to fewer players than a game has seats, they wait (no game is formed with a
  repeated player): the games start when other players register. Whether a waiting registration may be withdrawn
  and refunded is the service's decision; the catalog says nothing.

The service calls :func:`form_games` after every registration. Then the queue it passes never holds registrations of
three distinct players from before (they would have formed a game), so every game that can be formed is formed: a
new player's batch of registrations meets the at most two other players waiting, and each game takes one registration
of each, oldest first.

Standard library only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tournaments.rules.common import RuleError, require_whole


@dataclass(frozen=True, slots=True)
class WaitingRegistration:
    """One registered game waiting for opponents: the registration's id and its player's id."""

    registration: int
    player: int

    def __post_init__(self) -> None:
        require_whole(self.registration, "registration id")
        require_whole(self.player, "player id")


@dataclass(frozen=True, slots=True)
class Matching:
    """The games formed (each its registrations, oldest first, in formation order) and the registrations still
    waiting, in queue order."""

    games: tuple[tuple[WaitingRegistration, ...], ...]
    waiting: tuple[WaitingRegistration, ...]


def form_games(queue: Sequence[WaitingRegistration], seats: int = 3) -> Matching:
    """HEX-04: the games formed from ``queue`` (oldest registration first) at ``seats`` players each; see the module
    docstring. Every registration ends up either in exactly one game or still waiting."""
    require_whole(seats, "seats", minimum=2)
    if not all(isinstance(registration, WaitingRegistration) for registration in queue):
        raise RuleError("the queue holds WaitingRegistration values")
    identifiers = [registration.registration for registration in queue]
    if len(set(identifiers)) != len(identifiers):
        raise RuleError("a registration is in the queue twice")
    waiting = list(queue)
    games: list[tuple[WaitingRegistration, ...]] = []
    while True:
        game = _oldest_distinct_players(waiting, seats)
        if game is None:
            return Matching(tuple(games), tuple(waiting))
        games.append(game)
        taken = {registration.registration for registration in game}
        waiting = [registration for registration in waiting if registration.registration not in taken]


def _oldest_distinct_players(
    waiting: Sequence[WaitingRegistration], seats: int
) -> tuple[WaitingRegistration, ...] | None:
    chosen: list[WaitingRegistration] = []
    seated: set[int] = set()
    for registration in waiting:
        if registration.player not in seated:
            chosen.append(registration)
            seated.add(registration.player)
            if len(chosen) == seats:
                return tuple(chosen)
    return None
