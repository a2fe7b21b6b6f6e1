"""LOB-09: tournament and Sit & Go fees, read from the ledger.

The fees are what the house fees account received: the fee leg of each registration (``tournament_buy_in``, FEE-04)
less the fee leg of each refund (``tournament_refund``: an unregistration, TRN-10, or a cancellation, CXL-02) — the
legs of the ``house_fees`` account in transfers whose reference is ``tournament-entry:<id>``. Beside them, the
overlays the house paid into prize pools (``tournament_overlay``, reference ``tournament:<id>``: the guarantee's
shortfall, TRN-07, and operator-added prize money, TRN-17), from the house guarantee account.

HexaPro games (FEE-06, AMB-16) book the fee components of their three seats when the game forms, as the fee leg of
the game's one transfer (``hexapro_game``, reference ``tournament:<id>``): they count as fees received, one
"registration" per game.

Each figure is summed in the database, per day (in the site's time zone), tournament kind (scheduled / Sit & Go) and
currency: three grouped queries, whatever the number of registrations. The kind of each row's tournament is looked up
by the entry or tournament id the reference carries.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta, tzinfo
from typing import Any

from django.db.models import BigIntegerField, Count, OuterRef, QuerySet, Subquery, Sum
from django.db.models.functions import Cast, Substr, TruncDate

from tournaments.models import Tournament, TournamentEntry, TournamentKind
from wallet.models import AccountKind, Leg
from wallet.services import TransferKind

ENTRY_REFERENCE = "tournament-entry:"
TOURNAMENT_REFERENCE = "tournament:"
LONGEST_PERIOD = timedelta(days=366)
"""A report covers at most this many days (a year, leap day included)."""


@dataclass
class FeeFigures:
    """One line of the report (cents): fees received and refunded, how many legs each, overlays paid."""

    fees_received: int = 0
    fees_refunded: int = 0
    registrations: int = 0
    refunds: int = 0
    overlays: int = 0

    @property
    def net_fees(self) -> int:
        return self.fees_received - self.fees_refunded

    def add(self, other: FeeFigures) -> None:
        self.fees_received += other.fees_received
        self.fees_refunded += other.fees_refunded
        self.registrations += other.registrations
        self.refunds += other.refunds
        self.overlays += other.overlays


@dataclass(frozen=True)
class FeeLine:
    day: date | None  # None: the total of the period
    kind: str
    currency: str
    figures: FeeFigures

    @property
    def kind_label(self) -> str:
        return str(TournamentKind(self.kind).label) if self.kind in TournamentKind.values else self.kind


@dataclass(frozen=True)
class FeeReport:
    first_day: date
    last_day: date
    lines: list[FeeLine] = field(default_factory=list)  # by day (newest first), kind, currency
    totals: list[FeeLine] = field(default_factory=list)  # per kind and currency over the period


def _grouped_legs(
    first_day: date,
    last_day: date,
    zone: tzinfo,
    *,
    account_kind: str,
    transfer_kinds: tuple[str, ...],
    reference_prefix: str,
    kind_of: QuerySet[Any],
) -> list[Any]:
    """The legs of the ``account_kind`` account in transfers of ``transfer_kinds`` whose reference is
    ``<reference_prefix><id>``, summed per day (in ``zone``), tournament kind (``kind_of``: the kind of the row whose
    id is ``OuterRef("referenced_id")``), transfer kind and currency: one query."""
    start = datetime.combine(first_day, time.min, tzinfo=zone)
    end = datetime.combine(last_day + timedelta(days=1), time.min, tzinfo=zone)
    return list(
        Leg.objects.filter(
            account__kind=account_kind,
            transfer__kind__in=transfer_kinds,
            transfer__reference__regex=rf"^{reference_prefix}[0-9]+$",
            transfer__created_at__gte=start,
            transfer__created_at__lt=end,
        )
        .annotate(
            day=TruncDate("transfer__created_at", tzinfo=zone),
            referenced_id=Cast(Substr("transfer__reference", len(reference_prefix) + 1), BigIntegerField()),
        )
        .annotate(tournament_kind=Subquery(kind_of))
        .values("day", "tournament_kind", "transfer__kind", "account__currency")
        .annotate(amount=Sum("amount"), legs=Count("pk"))
        .order_by()
    )


def fee_rows(first_day: date, last_day: date, zone: tzinfo) -> list[Any]:
    """The fee legs of registrations and refunds, summed per day, tournament kind, transfer kind and currency."""
    return _grouped_legs(
        first_day,
        last_day,
        zone,
        account_kind=AccountKind.HOUSE_FEES,
        transfer_kinds=(TransferKind.TOURNAMENT_BUY_IN, TransferKind.TOURNAMENT_REFUND),
        reference_prefix=ENTRY_REFERENCE,
        kind_of=TournamentEntry.objects.filter(pk=OuterRef("referenced_id")).values("tournament__kind")[:1],
    )


def hexapro_fee_rows(first_day: date, last_day: date, zone: tzinfo) -> list[Any]:
    """FEE-06: the fee components booked when HexaPro games formed (the fee leg of each game's transfer)."""
    from tournaments.hexapro.money import GAME_TRANSFER_KIND

    return _grouped_legs(
        first_day,
        last_day,
        zone,
        account_kind=AccountKind.HOUSE_FEES,
        transfer_kinds=(GAME_TRANSFER_KIND,),
        reference_prefix=TOURNAMENT_REFERENCE,
        kind_of=Tournament.objects.filter(pk=OuterRef("referenced_id")).values("kind")[:1],
    )


def overlay_rows(first_day: date, last_day: date, zone: tzinfo) -> list[Any]:
    """The house guarantee account's overlay payments, summed per day, tournament kind and currency."""
    return _grouped_legs(
        first_day,
        last_day,
        zone,
        account_kind=AccountKind.HOUSE_GUARANTEE,
        transfer_kinds=(TransferKind.TOURNAMENT_OVERLAY,),
        reference_prefix=TOURNAMENT_REFERENCE,
        kind_of=Tournament.objects.filter(pk=OuterRef("referenced_id")).values("kind")[:1],
    )


def fee_report(first_day: date, last_day: date, zone: tzinfo) -> FeeReport:
    """Fees received, refunded and net, and overlays paid, from ``first_day`` to ``last_day`` (both included, days in
    ``zone``). Raises ValueError for a period that ends before it starts or is longer than :data:`LONGEST_PERIOD`."""
    if last_day < first_day:
        raise ValueError("The period ends before it starts.")
    if last_day - first_day >= LONGEST_PERIOD:
        raise ValueError(f"A report covers at most {LONGEST_PERIOD.days} days.")
    lines: dict[tuple[date, str, str], FeeFigures] = defaultdict(FeeFigures)
    for row in fee_rows(first_day, last_day, zone):
        figures = lines[(row["day"], row["tournament_kind"] or "", row["account__currency"])]
        if row["transfer__kind"] == TransferKind.TOURNAMENT_BUY_IN:
            figures.fees_received += row["amount"]
            figures.registrations += row["legs"]
        else:
            figures.fees_refunded -= row["amount"]
            figures.refunds += row["legs"]
    for row in hexapro_fee_rows(first_day, last_day, zone):
        figures = lines[(row["day"], row["tournament_kind"] or "", row["account__currency"])]
        figures.fees_received += row["amount"]
        figures.registrations += row["legs"]
    for row in overlay_rows(first_day, last_day, zone):
        lines[(row["day"], row["tournament_kind"] or "", row["account__currency"])].overlays -= row["amount"]
    totals: dict[tuple[str, str], FeeFigures] = defaultdict(FeeFigures)
    for (_day, kind, currency), figures in lines.items():
        totals[(kind, currency)].add(figures)
    ordered = sorted(lines.items(), key=lambda item: (-item[0][0].toordinal(), item[0][1], item[0][2]))
    return FeeReport(
        first_day,
        last_day,
        [FeeLine(day, kind, currency, figures) for (day, kind, currency), figures in ordered],
        [FeeLine(None, kind, currency, figures) for (kind, currency), figures in sorted(totals.items())],
    )
