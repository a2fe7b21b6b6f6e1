"""LOB-09 / RAKE-08: the cash-game rake, read from the hand settlements.

Per day (the day the hand ended, in the site's time zone) × game × stake: the hands finished, how many were raked, the
rake and the average rake per raked hand. The rake of a hand is the house rake account's leg of its settlement
transfer (``hand_settlement``, idempotency key ``cash-hand:<id>:settlement``), so the report adds up to what the
house rake account received; a hand without a settlement (nothing changed hands) has no rake.

Per player, for rakeback and VIP: the hands each played, how many of them were raked, and the rake attributed to them:
each pot's rake (RAKE-07, :func:`games.engine.rake.compute_rake`) shared among the players who put money into that
pot, in proportion to what each put in (``HandPlayer.rake_share``, written at settlement by
:func:`games.cash.policy.rake_attribution`). A player who folded preflop after posting a blind pays their share of the
main pot's rake. Hands settled before that field existed count as played but with no rake attributed
(``unattributed_rake`` says how much of the period's rake that is).

Each part is one grouped query.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date, tzinfo
from typing import Any

from django.db.models import Count, Q, QuerySet, Sum
from django.db.models.functions import Coalesce, TruncDate

from games.models import Hand, HandPlayer, HandStatus
from poker_site.core.admin_exports import amount
from poker_site.core.report_periods import period_bounds, period_check
from wallet.models import AccountKind


@dataclass(frozen=True)
class RakeLine:
    """Hands, raked hands and rake (cents) of one day, game and stake (``day`` None: the total of the period)."""

    day: date | None
    game: str
    stake: str
    hands: int
    raked_hands: int
    rake: int

    @property
    def average_per_raked_hand(self) -> int:
        """The rake per raked hand, in whole cents rounded half up; 0 without raked hands."""
        return (2 * self.rake + self.raked_hands) // (2 * self.raked_hands) if self.raked_hands else 0


@dataclass(frozen=True)
class PlayerRakeLine:
    user_id: int
    username: str
    hands: int
    raked_hands: int
    rake: int


@dataclass(frozen=True)
class RakeReport:
    first_day: date
    last_day: date
    lines: list[RakeLine] = field(default_factory=list)  # newest day first, then game and stake
    totals: list[RakeLine] = field(default_factory=list)  # per game and stake over the period
    players: list[PlayerRakeLine] = field(default_factory=list)  # most rake first

    @property
    def rake(self) -> int:
        return sum(line.rake for line in self.totals)

    @property
    def unattributed_rake(self) -> int:
        """Rake of the period's hands settled before the rake was attributed to players."""
        return self.rake - sum(line.rake for line in self.players)


def settled_cash_hands(first_day: date, last_day: date, zone: tzinfo) -> QuerySet[Hand]:
    """The cash hands finished in the period."""
    start, end = period_bounds(first_day, last_day, zone)
    return Hand.objects.filter(
        status=HandStatus.FINISHED, stake_terms__isnull=False, ended_at__gte=start, ended_at__lt=end
    )


def rake_rows(first_day: date, last_day: date, zone: tzinfo) -> list[dict[str, Any]]:
    """Hands, raked hands and the settlements' house rake legs, per day, game and stake: one query."""
    rake_leg = Q(settlement__legs__account__kind=AccountKind.HOUSE_RAKE)
    rows: Any = (
        settled_cash_hands(first_day, last_day, zone)
        .annotate(day=TruncDate("ended_at", tzinfo=zone))
        .values("day", "stake_terms__stake__game_type__name", "stake_terms__stake__label")
        .annotate(
            hands=Count("pk", distinct=True),
            raked_hands=Count("pk", distinct=True, filter=rake_leg & Q(settlement__legs__amount__gt=0)),
            rake=Coalesce(Sum("settlement__legs__amount", filter=rake_leg), 0),
        )
        .order_by()
    )
    return list(rows)


def player_rows(first_day: date, last_day: date, zone: tzinfo) -> list[dict[str, Any]]:
    """Per player: hands played, hands in which they paid rake, the rake attributed to them: one query."""
    start, end = period_bounds(first_day, last_day, zone)
    rows: Any = (
        HandPlayer.objects.filter(
            hand__status=HandStatus.FINISHED,
            hand__stake_terms__isnull=False,
            hand__ended_at__gte=start,
            hand__ended_at__lt=end,
        )
        .values("user_id", "user__username")
        .annotate(
            hands=Count("pk"),
            raked_hands=Count("pk", filter=Q(rake_share__gt=0)),
            rake=Coalesce(Sum("rake_share"), 0),
        )
        .order_by("-rake", "user__username")
    )
    return list(rows)


def rake_report(first_day: date, last_day: date, zone: tzinfo) -> RakeReport:
    """The rake from ``first_day`` to ``last_day`` (both included, days in ``zone``), per day × game × stake and per
    player. Raises ValueError for a period that ends before it starts or is longer than a year."""
    period_check(first_day, last_day)
    lines = [
        RakeLine(
            row["day"],
            row["stake_terms__stake__game_type__name"],
            row["stake_terms__stake__label"],
            row["hands"],
            row["raked_hands"],
            row["rake"],
        )
        for row in rake_rows(first_day, last_day, zone)
    ]
    lines.sort(key=lambda line: (-line.day.toordinal() if line.day else 0, line.game, line.stake))
    totals: dict[tuple[str, str], list[int]] = {}
    for line in lines:
        figures = totals.setdefault((line.game, line.stake), [0, 0, 0])
        figures[0] += line.hands
        figures[1] += line.raked_hands
        figures[2] += line.rake
    players = [
        PlayerRakeLine(row["user_id"], row["user__username"], row["hands"], row["raked_hands"], row["rake"])
        for row in player_rows(first_day, last_day, zone)
    ]
    return RakeReport(
        first_day,
        last_day,
        lines,
        [RakeLine(None, game, stake, *figures) for (game, stake), figures in sorted(totals.items())],
        players,
    )


RAKE_REPORT_HEADER = ["day", "game", "stake", "hands", "raked hands", "rake (EUR)", "average per raked hand (EUR)"]
PLAYER_RAKE_HEADER = ["player id", "player", "hands", "hands in which they paid rake", "rake attributed (EUR)"]


def rake_report_rows(report: RakeReport) -> Iterator[list[Any]]:
    """The per-day lines as CSV rows (see :data:`RAKE_REPORT_HEADER`)."""
    for line in report.lines:
        yield [
            line.day,
            line.game,
            line.stake,
            line.hands,
            line.raked_hands,
            amount(line.rake),
            amount(line.average_per_raked_hand),
        ]


def player_rake_rows(report: RakeReport) -> Iterator[list[Any]]:
    """The per-player lines as CSV rows (see :data:`PLAYER_RAKE_HEADER`)."""
    for line in report.players:
        yield [line.user_id, line.username, line.hands, line.raked_hands, amount(line.rake)]
