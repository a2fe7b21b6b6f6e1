"""What a hand needs to start: variant, seats and stacks, button, who posts which forced bet.

The table service (cash tables, tournaments) decides positions with :mod:`games.engine.positions` and stakes from its
own data, then builds a :class:`HandConfig`. The configuration is validated once, at construction; the state machine
trusts it afterwards.

Seats are numbered 1..``table_size`` and "clockwise" means increasing seat number, wrapping from ``table_size`` to 1.
The button may sit on an empty seat (dead button, ENG-05); the small blind may be absent (dead small blind, ENG-05);
extra seats may post a live big blind out of position (CASH-07, AMB-46).

Standard library only.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any, Final

from games.engine.actions import MAXIMUM_AMOUNT, is_whole_number

MINIMUM_SEATS: Final[int] = 2
MAXIMUM_SEATS: Final[int] = 10


class ConfigurationError(ValueError):
    """The hand cannot start with this configuration (the message says what is wrong)."""


class Variant(Enum):
    """The games the engine deals (ENG-01). The value is the PHH variant code."""

    NO_LIMIT_HOLDEM = "NT"
    POT_LIMIT_OMAHA = "PO"

    @property
    def hole_card_count(self) -> int:
        """Two hole cards in Hold'em, four in Omaha (ENG-02)."""
        return 4 if self is Variant.POT_LIMIT_OMAHA else 2

    @property
    def pot_limit(self) -> bool:
        """Omaha is played pot-limit (ENG-17); Hold'em no-limit (ENG-15)."""
        return self is Variant.POT_LIMIT_OMAHA


@dataclass(frozen=True, slots=True)
class SeatedPlayer:
    """A player dealt into the hand: seat number and stack at the start of the hand (before forced bets)."""

    seat: int
    stack: int


@dataclass(frozen=True, slots=True)
class HandConfig:
    """Everything the state machine needs to play one hand. Validated at construction (:class:`ConfigurationError`).

    * ``players``: the 2..10 players dealt in (any order; the engine orders them clockwise from the button). Every
      stack is positive.
    * ``button``: the button seat (may be empty: dead button). ``small_blind_seat``: the seat posting the small blind,
      or ``None`` (dead small blind). ``big_blind_seat``: the seat posting the big blind. Heads-up, the button posts
      the small blind (ENG-04): the caller passes ``small_blind_seat == button``.
    * ``out_of_position_seats``: players posting a live big blind out of position this hand (CASH-07, AMB-46).
    * ``small_blind``, ``big_blind``: blind amounts. Preflop the amount to call is at least ``big_blind`` even when the
      big blind poster is all-in for less (players call the full blind). ``min_bet``: the smallest bet and the
      smallest raise increment (ENG-15); defaults to ``big_blind``.
    * ``ante`` and ``ante_seats``: the ante posted by ``ante_seats`` (default: every player dealt in, ENG-08).
    """

    variant: Variant
    table_size: int
    button: int
    players: tuple[SeatedPlayer, ...]
    small_blind: int
    big_blind: int
    small_blind_seat: int | None
    big_blind_seat: int
    ante: int = 0
    ante_seats: tuple[int, ...] | None = None
    out_of_position_seats: tuple[int, ...] = ()
    min_bet: int | None = None

    def __post_init__(self) -> None:
        _validate(self)

    @classmethod
    def create(
        cls,
        *,
        variant: Variant,
        stacks: Mapping[int, int],
        button: int,
        big_blind_seat: int,
        small_blind_seat: int | None,
        small_blind: int,
        big_blind: int,
        ante: int = 0,
        table_size: int = 6,
        out_of_position_seats: Iterable[int] = (),
        ante_seats: Iterable[int] | None = None,
        min_bet: int | None = None,
    ) -> HandConfig:
        """Convenience constructor from ``{seat: stack}``."""
        return cls(
            variant=variant,
            table_size=table_size,
            button=button,
            players=tuple(SeatedPlayer(seat, stack) for seat, stack in sorted(stacks.items())),
            small_blind=small_blind,
            big_blind=big_blind,
            small_blind_seat=small_blind_seat,
            big_blind_seat=big_blind_seat,
            ante=ante,
            ante_seats=tuple(ante_seats) if ante_seats is not None else None,
            out_of_position_seats=tuple(out_of_position_seats),
            min_bet=min_bet,
        )

    @property
    def minimum_bet(self) -> int:
        """The smallest bet and raise increment (``min_bet`` or, by default, the big blind)."""
        return self.min_bet if self.min_bet is not None else self.big_blind

    @property
    def seats_clockwise(self) -> tuple[int, ...]:
        """Seats dealt in, clockwise starting with the first seat after the button (the button seat comes last)."""
        button = self.button
        size = self.table_size
        return tuple(sorted((player.seat for player in self.players), key=lambda seat: (seat - button - 1) % size))

    @property
    def stacks(self) -> dict[int, int]:
        """Starting stack by seat."""
        return {player.seat: player.stack for player in self.players}

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (stored with the hand so :func:`games.engine.state.replay` can rebuild it)."""
        return {
            "variant": self.variant.value,
            "table_size": self.table_size,
            "button": self.button,
            "players": [[player.seat, player.stack] for player in self.players],
            "small_blind": self.small_blind,
            "big_blind": self.big_blind,
            "small_blind_seat": self.small_blind_seat,
            "big_blind_seat": self.big_blind_seat,
            "ante": self.ante,
            "ante_seats": list(self.ante_seats) if self.ante_seats is not None else None,
            "out_of_position_seats": list(self.out_of_position_seats),
            "min_bet": self.min_bet,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HandConfig:
        """Inverse of :meth:`to_dict`; raises :class:`ConfigurationError` for malformed data."""
        try:
            ante_seats = data.get("ante_seats")
            return cls(
                variant=Variant(data["variant"]),
                table_size=data["table_size"],
                button=data["button"],
                players=tuple(SeatedPlayer(seat, stack) for seat, stack in data["players"]),
                small_blind=data["small_blind"],
                big_blind=data["big_blind"],
                small_blind_seat=data["small_blind_seat"],
                big_blind_seat=data["big_blind_seat"],
                ante=data.get("ante", 0),
                ante_seats=tuple(ante_seats) if ante_seats is not None else None,
                out_of_position_seats=tuple(data.get("out_of_position_seats", ())),
                min_bet=data.get("min_bet"),
            )
        except (KeyError, TypeError, ValueError) as error:
            if isinstance(error, ConfigurationError):
                raise
            raise ConfigurationError(f"malformed hand configuration: {error}") from error


def _validate(config: HandConfig) -> None:
    if not isinstance(config.variant, Variant):
        raise ConfigurationError(f"unknown variant {config.variant!r}")
    size = config.table_size
    if not is_whole_number(size) or not MINIMUM_SEATS <= size <= MAXIMUM_SEATS:
        raise ConfigurationError(f"table size must be {MINIMUM_SEATS}..{MAXIMUM_SEATS}, not {size!r}")

    def check_seat(value: object, what: str) -> None:
        if not is_whole_number(value) or not 1 <= value <= size:  # type: ignore[operator]
            raise ConfigurationError(f"{what} must be a seat number 1..{size}, not {value!r}")

    check_seat(config.button, "button")
    seats: list[int] = []
    for player in config.players:
        if not isinstance(player, SeatedPlayer):
            raise ConfigurationError(f"players must be SeatedPlayer values, not {player!r}")
        check_seat(player.seat, "player seat")
        if not is_whole_number(player.stack) or not 0 < player.stack <= MAXIMUM_AMOUNT:
            raise ConfigurationError(f"seat {player.seat}: stack must be a positive whole number, not {player.stack!r}")
        seats.append(player.seat)
    if len(set(seats)) != len(seats):
        raise ConfigurationError("a seat is listed twice")
    if not MINIMUM_SEATS <= len(seats) <= MAXIMUM_SEATS:
        raise ConfigurationError(f"a hand needs {MINIMUM_SEATS} to {MAXIMUM_SEATS} players, got {len(seats)}")
    dealt_in = set(seats)
    for name in ("small_blind", "big_blind", "ante"):
        value = getattr(config, name)
        if not is_whole_number(value) or not 0 <= value <= MAXIMUM_AMOUNT:
            raise ConfigurationError(f"{name} must be a non-negative whole number, not {value!r}")
    if config.big_blind <= 0:
        raise ConfigurationError("the big blind must be positive")
    if config.min_bet is not None and (not is_whole_number(config.min_bet) or not 0 < config.min_bet <= MAXIMUM_AMOUNT):
        raise ConfigurationError(f"min_bet must be a positive whole number, not {config.min_bet!r}")
    if config.big_blind_seat not in dealt_in:
        raise ConfigurationError(f"the big blind seat {config.big_blind_seat!r} is not dealt in")
    if config.small_blind_seat is not None:
        if config.small_blind_seat not in dealt_in:
            raise ConfigurationError(f"the small blind seat {config.small_blind_seat!r} is not dealt in")
        if config.small_blind_seat == config.big_blind_seat:
            raise ConfigurationError("the same seat cannot post both blinds")
    for seat in config.out_of_position_seats:
        if seat not in dealt_in:
            raise ConfigurationError(f"out-of-position poster {seat!r} is not dealt in")
        if seat in (config.small_blind_seat, config.big_blind_seat):
            raise ConfigurationError(f"seat {seat} already posts a blind")
    if len(set(config.out_of_position_seats)) != len(config.out_of_position_seats):
        raise ConfigurationError("an out-of-position poster is listed twice")
    if config.ante_seats is not None:
        for seat in config.ante_seats:
            if seat not in dealt_in:
                raise ConfigurationError(f"ante seat {seat!r} is not dealt in")
        if len(set(config.ante_seats)) != len(config.ante_seats):
            raise ConfigurationError("an ante seat is listed twice")


__all__ = [
    "MAXIMUM_SEATS",
    "MINIMUM_SEATS",
    "ConfigurationError",
    "HandConfig",
    "SeatedPlayer",
    "Variant",
]
