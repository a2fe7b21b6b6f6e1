"""LOB-09: tournament and Sit & Go fees, read from the ledger legs.

The fees are every leg of the house fees account, nothing left out: a report line's net fees are the sum of that
account's legs in the line's day, tournament kind and currency, whatever moved them. Each leg is sorted by the
transfer it belongs to:

* fees received: the fee leg of a registration (``tournament_buy_in``, FEE-04; paid in cash or with a ticket), of a
  re-buy or add-on (the same kind, idempotency key ``…:rebuy:<n>`` / ``…:add_on:<n>``, TRN-39), and the fee
  components booked when a HexaPro game forms (``hexapro_game``, FEE-06, AMB-16: one "registration" per game);
* fees refunded: the fee leg of a refund (``tournament_refund``) — an unregistration or a cancellation before the
  start (reference ``tournament-entry:<id>``, TRN-10, TRN-15) or the compensation of a cancelled running tournament
  (reference ``tournament-cancellation:<id>``, CXL-02..CXL-09), counted apart;
* other movements: anything else that touched the account (a HexaPro game parked in the unresolved queue and its
  money coming back, HEX-17), so the net still adds up to the account.

Beside them, the overlays: the house guarantee account's legs of ``tournament_overlay`` transfers (the guarantee's
shortfall, TRN-07, operator-added prize money, TRN-17, and — negative — what a cancellation gives back to the house,
CXL-04), as paid by the house.

The tournament kind of a leg is looked up from its transfer's reference (``tournament-entry:<id>``,
``tournament:<id>``, ``tournament-cancellation:<id>``, ``hexapro:<id>``); a reference of none of these is reported
with an empty kind ("other"). Each figure is summed in the database, per day (in the site's time zone), tournament
kind and currency: two grouped queries (fees, overlays), whatever the number of registrations.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date, tzinfo
from typing import Any

from django.db.models import BigIntegerField, Case, CharField, Count, OuterRef, Q, Subquery, Sum, Value, When
from django.db.models.functions import Cast, Substr, TruncDate

from poker_site.core.admin_exports import amount
from poker_site.core.report_periods import period_bounds, period_check
from tournaments.models import Tournament, TournamentCancellation, TournamentEntry, TournamentKind
from wallet.models import AccountKind, Leg
from wallet.services import TransferKind

PURCHASE_KEY = r":(rebuy|add_on):[0-9]+$"
OTHER_KIND = ""


class Movement:
    """What moved a house fees leg (the ``movement`` of a grouped row)."""

    REGISTRATION = "registration"
    PURCHASE = "purchase"
    HEXAPRO = "hexapro"
    REFUND = "refund"
    CANCELLATION_REFUND = "cancellation_refund"
    OTHER = "other"


@dataclass
class FeeFigures:
    """One line of the report (cents and counts of legs). ``fees_refunded`` includes ``cancellation_refunded``, the
    part given back by cancellations of running tournaments; ``other_movements`` is the net of any other leg."""

    fees_received: int = 0
    fees_refunded: int = 0
    registrations: int = 0
    refunds: int = 0
    overlays: int = 0
    purchases: int = 0
    cancellation_refunded: int = 0
    cancellation_refunds: int = 0
    other_movements: int = 0

    @property
    def net_fees(self) -> int:
        """The net of the house fees account's legs on this line."""
        return self.fees_received - self.fees_refunded + self.other_movements

    def add(self, other: FeeFigures) -> None:
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def count(self, movement: str, amount: int, legs: int) -> None:
        """Add a grouped row of house fees legs (``amount``: their sum, positive when the house received)."""
        if movement in (Movement.REGISTRATION, Movement.HEXAPRO):
            self.fees_received += amount
            self.registrations += legs
        elif movement == Movement.PURCHASE:
            self.fees_received += amount
            self.purchases += legs
        elif movement in (Movement.REFUND, Movement.CANCELLATION_REFUND):
            self.fees_refunded -= amount
            self.refunds += legs
            if movement == Movement.CANCELLATION_REFUND:
                self.cancellation_refunded -= amount
                self.cancellation_refunds += legs
        else:
            self.other_movements += amount


@dataclass(frozen=True)
class FeeLine:
    day: date | None  # None: the total of the period
    kind: str
    currency: str
    figures: FeeFigures

    @property
    def kind_label(self) -> str:
        return str(TournamentKind(self.kind).label) if self.kind in TournamentKind.values else "other"


@dataclass(frozen=True)
class FeeReport:
    first_day: date
    last_day: date
    lines: list[FeeLine] = field(default_factory=list)  # by day (newest first), kind, currency
    totals: list[FeeLine] = field(default_factory=list)  # per kind and currency over the period


def _referenced(prefix: str) -> Cast:
    """The id a reference ``<prefix><id>`` carries (only evaluated where the reference has that form)."""
    return Cast(Substr(OuterRef("transfer__reference"), len(prefix) + 1), BigIntegerField())


def tournament_kind_of_reference() -> Case:
    """The kind of the tournament a leg's transfer reference names, "" for a reference naming none."""
    entries = TournamentEntry.objects.filter(pk=_referenced("tournament-entry:")).values("tournament__kind")[:1]
    cancellations = TournamentCancellation.objects.filter(pk=_referenced("tournament-cancellation:"))
    return Case(
        When(transfer__reference__regex=r"^tournament-entry:[0-9]+$", then=Subquery(entries)),
        When(
            transfer__reference__regex=r"^tournament:[0-9]+$",
            then=Subquery(Tournament.objects.filter(pk=_referenced("tournament:")).values("kind")[:1]),
        ),
        When(
            transfer__reference__regex=r"^tournament-cancellation:[0-9]+$",
            then=Subquery(cancellations.values("tournament__kind")[:1]),
        ),
        When(
            transfer__reference__regex=r"^hexapro:[0-9]+$",
            then=Subquery(Tournament.objects.filter(pk=_referenced("hexapro:")).values("kind")[:1]),
        ),
        default=Value(OTHER_KIND),
        output_field=CharField(),
    )


def fee_movement() -> Case:
    """Which :class:`Movement` a house fees leg belongs to, from its transfer's kind, reference and key."""
    from tournaments.hexapro.money import GAME_TRANSFER_KIND

    buy_in = Q(transfer__kind=TransferKind.TOURNAMENT_BUY_IN)
    refund = Q(transfer__kind=TransferKind.TOURNAMENT_REFUND)
    return Case(
        When(buy_in & Q(transfer__idempotency_key__regex=PURCHASE_KEY), then=Value(Movement.PURCHASE)),
        When(buy_in, then=Value(Movement.REGISTRATION)),
        When(transfer__kind=GAME_TRANSFER_KIND, then=Value(Movement.HEXAPRO)),
        When(
            refund & Q(transfer__reference__startswith="tournament-cancellation:"),
            then=Value(Movement.CANCELLATION_REFUND),
        ),
        When(refund, then=Value(Movement.REFUND)),
        default=Value(Movement.OTHER),
        output_field=CharField(),
    )


def fee_rows(first_day: date, last_day: date, zone: tzinfo) -> list[Any]:
    """Every leg of the house fees account in the period, summed per day, tournament kind, movement and currency."""
    start, end = period_bounds(first_day, last_day, zone)
    return list(
        Leg.objects.filter(
            account__kind=AccountKind.HOUSE_FEES, transfer__created_at__gte=start, transfer__created_at__lt=end
        )
        .annotate(
            day=TruncDate("transfer__created_at", tzinfo=zone),
            tournament_kind=tournament_kind_of_reference(),
            movement=fee_movement(),
        )
        .values("day", "tournament_kind", "movement", "account__currency")
        .annotate(amount=Sum("amount"), legs=Count("pk"))
        .order_by()
    )


def overlay_rows(first_day: date, last_day: date, zone: tzinfo) -> list[Any]:
    """The house guarantee account's legs of overlay transfers, summed per day, tournament kind and currency."""
    start, end = period_bounds(first_day, last_day, zone)
    return list(
        Leg.objects.filter(
            account__kind=AccountKind.HOUSE_GUARANTEE,
            transfer__kind=TransferKind.TOURNAMENT_OVERLAY,
            transfer__created_at__gte=start,
            transfer__created_at__lt=end,
        )
        .annotate(day=TruncDate("transfer__created_at", tzinfo=zone), tournament_kind=tournament_kind_of_reference())
        .values("day", "tournament_kind", "account__currency")
        .annotate(amount=Sum("amount"), legs=Count("pk"))
        .order_by()
    )


def fee_report(first_day: date, last_day: date, zone: tzinfo) -> FeeReport:
    """Fees received, refunded and net, and overlays paid, from ``first_day`` to ``last_day`` (both included, days in
    ``zone``). Raises ValueError for a period that ends before it starts or is longer than :data:`LONGEST_PERIOD`."""
    period_check(first_day, last_day)
    lines: dict[tuple[date, str, str], FeeFigures] = defaultdict(FeeFigures)
    for row in fee_rows(first_day, last_day, zone):
        key = (row["day"], row["tournament_kind"] or OTHER_KIND, row["account__currency"])
        lines[key].count(row["movement"], row["amount"], row["legs"])
    for row in overlay_rows(first_day, last_day, zone):
        lines[(row["day"], row["tournament_kind"] or OTHER_KIND, row["account__currency"])].overlays -= row["amount"]
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


FEE_REPORT_HEADER = [
    "day",
    "kind",
    "currency",
    "fees received",
    "registrations",
    "re-buys and add-ons",
    "fees refunded",
    "refunds",
    "refunded by cancellations of running tournaments",
    "such refunds",
    "other movements",
    "net fees",
    "overlays paid",
]


def fee_report_rows(report: FeeReport) -> Iterator[list[Any]]:
    """The per-day lines as CSV rows (see :data:`FEE_REPORT_HEADER`; amounts in the line's currency)."""
    for line in report.lines:
        figures = line.figures
        yield [
            line.day,
            line.kind_label,
            line.currency,
            amount(figures.fees_received),
            figures.registrations,
            figures.purchases,
            amount(figures.fees_refunded),
            figures.refunds,
            amount(figures.cancellation_refunded),
            figures.cancellation_refunds,
            amount(figures.other_movements),
            amount(figures.net_fees),
            amount(figures.overlays),
        ]
