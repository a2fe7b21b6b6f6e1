"""The monthly deck audit (issue 29): card-position chi-square tests over the provably fair decks of a month's hands.

For every hand with a commitment that started in the month (finished or cancelled; a running hand's deck is secret),
each of the 52 deck positions counts how often each card came there. Each position gets the goodness-of-fit test of
those 52 counts against the uniform expectation (``tournaments.rules.hexapro_audit.chi_square_test``, the statistics
code of the HexaPro multiplier audit: exact statistic, cards pooled until each group expects at least 5 hands, the
p-value from the regularized upper incomplete gamma function). A position is flagged when its p-value is below
:data:`FLAG_P_VALUE` / 52 (Bonferroni: across the 52 positions, a fair shuffle raises a flag in about 1 month in 100).

The decks are read in chunks (``iterator``), so a month of millions of hands stays in constant memory.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Final

from games.engine.cards import FULL_DECK
from games.models import Hand, HandStatus
from tournaments.rules.hexapro_audit import ChiSquareTest, chi_square_test

FLAG_P_VALUE: Final[float] = 0.01
"""Overall false-alarm rate of a month's audit (split over the 52 positions)."""
POSITIONS: Final[int] = 52
_CARD_INDEX: Final[dict[str, int]] = {str(card): card.index for card in FULL_DECK}


@dataclass(frozen=True)
class PositionTest:
    """One deck position: the hands counted, the most and least frequent cards' counts, and the test (None: too few
    hands)."""

    position: int
    hands: int
    most: int
    least: int
    test: ChiSquareTest | None
    flagged: bool


@dataclass(frozen=True)
class DeckAudit:
    """The audit of one month (``start`` inclusive, ``end`` exclusive)."""

    start: date
    end: date
    hands: int
    positions: tuple[PositionTest, ...]

    @property
    def flagged(self) -> tuple[PositionTest, ...]:
        return tuple(position for position in self.positions if position.flagged)

    @property
    def smallest_p_value(self) -> float | None:
        values = [position.test.p_value for position in self.positions if position.test is not None]
        return min(values) if values else None


def month_bounds(month: str | None, today: date) -> tuple[date, date]:
    """The first day of ``month`` ("YYYY-MM"; default: the month of ``today``) and of the month after; ValueError for
    anything else."""
    if month:
        year_text, _, month_text = month.partition("-")
        start = date(int(year_text), int(month_text), 1)
    else:
        start = today.replace(day=1)
    end = date(start.year + (start.month == 12), start.month % 12 + 1, 1)
    return start, end


def position_counts(start: date, end: date) -> tuple[int, list[list[int]]]:
    """(hands, counts[position][card index]) over the committed decks of the hands started in [start, end)."""
    counts = [[0] * POSITIONS for _ in range(POSITIONS)]
    hands = 0
    decks = (
        Hand.objects.filter(
            started_at__gte=datetime(start.year, start.month, start.day, tzinfo=UTC),
            started_at__lt=datetime(end.year, end.month, end.day, tzinfo=UTC),
        )
        .exclude(deck_commitment="")
        .exclude(status=HandStatus.RUNNING)
        .values_list("deck", flat=True)
        .order_by()
        .iterator(chunk_size=2_000)
    )
    index = _CARD_INDEX
    for deck in decks:
        if len(deck) != POSITIONS:
            continue
        hands += 1
        for position, card in enumerate(deck):
            counts[position][index[card]] += 1
    return hands, counts


def deck_audit(start: date, end: date) -> DeckAudit:
    """The card-position chi-square tests of the month [start, end)."""
    hands, counts = position_counts(start, end)
    threshold = FLAG_P_VALUE / POSITIONS
    tests = []
    for position, observed in enumerate(counts):
        test = chi_square_test(observed, [1] * POSITIONS) if hands else None
        tests.append(
            PositionTest(
                position=position + 1,
                hands=hands,
                most=max(observed),
                least=min(observed),
                test=test,
                flagged=test is not None and test.p_value < threshold,
            )
        )
    return DeckAudit(start, end, hands, tuple(tests))


__all__ = ["FLAG_P_VALUE", "DeckAudit", "PositionTest", "deck_audit", "month_bounds", "position_counts"]
