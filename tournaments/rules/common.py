"""What the tournament rule modules share: their error type, the injected random source and input checks.

Every function of ``tournaments.rules`` refuses bad input with :class:`RuleError` (a ``ValueError`` whose message says
what is wrong) before it decides anything, so a service can turn it into a clear refusal.

Randomness is injected (GEN-08): production passes ``secrets.SystemRandom()``, tests a seeded ``random.Random``.

Standard library and the engine only.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Protocol, TypeVar

from games.engine.cards import Shuffler
from games.engine.positions import Chooser

Item = TypeVar("Item")


class RuleError(ValueError):
    """A tournament rule cannot be applied to these values (the message says which value and why)."""


class RandomSource(Chooser, Shuffler, Protocol):
    """``choice`` and ``shuffle``, like ``random.Random`` and ``secrets.SystemRandom``."""


def require_whole(value: object, what: str, *, minimum: int = 0) -> int:
    """``value`` if it is an ``int`` (not a bool) of at least ``minimum``, else :class:`RuleError`."""
    if type(value) is not int or value < minimum:  # bool is refused: it subclasses int
        raise RuleError(f"{what} must be a whole number of at least {minimum}, not {value!r}")
    return value


def require_utc(moment: object, what: str) -> datetime:
    """``moment`` if it is a timezone-aware ``datetime`` (naive times are ambiguous), else :class:`RuleError`."""
    if not isinstance(moment, datetime) or moment.utcoffset() is None:
        raise RuleError(f"{what} must be a timezone-aware datetime, not {moment!r}")
    return moment


def shuffled(items: Iterable[Item], randomness: RandomSource) -> list[Item]:
    """A new list with ``items`` in random order (the input order only matters for seeded reproducibility)."""
    result = list(items)
    randomness.shuffle(result)
    return result
