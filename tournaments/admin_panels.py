"""The live monitor on a tournament's change page (LOB-08): its entries, tables, eliminations and payouts.

Built for tournaments of any size: each panel is one or two queries over the tournament's own rows by index, shows at
most :data:`PANEL_ROWS` rows, and links to the full list (filtered to the tournament) for the rest.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Count, QuerySet, Sum
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from tournaments.definitions import payouts_now
from tournaments.forfeiture_changes import forfeiture_target, forfeiture_withholding, pending_forfeitures
from tournaments.models import EntryStatus, Tournament, TournamentEntry, TournamentStatus, TournamentTable
from tournaments.rules.common import RuleError
from wallet.errors import format_cents

PANEL_ROWS = 50
"""Rows a panel shows at most; the link under it opens the full list."""

REFUNDED_STATUSES = (EntryStatus.UNREGISTERED, EntryStatus.REFUNDED)


def list_link(model_name: str, text: str, **filters: Any) -> SafeString:
    query = "&".join(f"{name}={value}" for name, value in filters.items())
    return format_html('<a href="{}?{}">{}</a>', reverse(f"admin:tournaments_{model_name}_changelist"), query, text)


def _table(headers: tuple[str, ...], rows: list[tuple[Any, ...]]) -> SafeString:
    head = format_html_join("", "<th>{}</th>", ((header,) for header in headers))
    body = format_html_join(
        "", "<tr>{}</tr>", ((format_html_join("", "<td>{}</td>", ((cell,) for cell in row)),) for row in rows)
    )
    return format_html("<table><thead><tr>{}</tr></thead><tbody>{}</tbody></table>", head, body)


WITHHOLDING_FORFEITURE = "withholding_forfeiture"
"""The annotation :func:`with_prize_states` adds: the pending forfeiture proposal withholding the prize, or None."""


def with_prize_states(entries: QuerySet[TournamentEntry]) -> QuerySet[TournamentEntry]:
    """``entries`` with what :func:`prize_state` reads beyond the entry, in the same query: the pending forfeiture
    proposal withholding each prize, if any (TRN-28, issue 30)."""
    return entries.annotate(**{WITHHOLDING_FORFEITURE: forfeiture_withholding()})


def prize_state(entry: TournamentEntry) -> str:
    """The entry's prize as staff read it: "—" (none), "paid" (in full, or the rest of a partial forfeiture),
    "forfeited", "withheld: forfeiture pending (rule change #N)" while a forfeiture of it awaits its decision (paid
    by nothing until then, TRN-28, issue 30), else "unpaid". An entry not read through :func:`with_prize_states`
    costs one query when it is disqualified with its prize unpaid."""
    if not entry.prize:
        return "—"
    if entry.prize_transfer_id is not None:
        return "paid"
    if entry.prize_forfeited:
        return "forfeited"
    proposal = _withholding_forfeiture(entry)
    return "unpaid" if proposal is None else f"withheld: forfeiture pending (rule change #{proposal})"


def _withholding_forfeiture(entry: TournamentEntry) -> int | None:
    if hasattr(entry, WITHHOLDING_FORFEITURE):
        return getattr(entry, WITHHOLDING_FORFEITURE)
    if entry.status != EntryStatus.DISQUALIFIED:
        return None  # only a disqualified player's prize is ever forfeited
    return pending_forfeitures().filter(target=forfeiture_target(entry)).values_list("pk", flat=True).first()


def entries_panel(tournament: Tournament) -> SafeString:
    """Entries by status and the fees they paid and kept (refunded entries' fees went back): one grouped query."""
    by_status = {
        row["status"]: row
        for row in TournamentEntry.objects.filter(tournament=tournament)
        .values("status")
        .annotate(count=Count("pk"), fees=Sum("fee"))
        .order_by()
    }
    labels = dict(EntryStatus.choices)
    counts = [
        (
            list_link(
                "tournamententry",
                f"{labels[status]}: {row['count']:,}",
                tournament__id__exact=tournament.pk,
                status__exact=status,
            ),
        )
        for status, row in sorted(by_status.items())
    ]
    kept = sum(row["fees"] or 0 for status, row in by_status.items() if status not in REFUNDED_STATUSES)
    return format_html(
        "<p>{}</p><p>Fees kept: {}. {}</p>",
        format_html_join(" · ", "{}", counts) if counts else "No entries yet.",
        format_cents(kept),
        list_link("tournamententry", "All entries", tournament__id__exact=tournament.pk),
    )


def tables_panel(tournament: Tournament) -> SafeString:
    """The tables still in play (number, players, the live table page), lowest number first; how many are in play and
    broken comes from the tournament's own counters."""
    live = list(
        TournamentTable.objects.filter(tournament=tournament, broken_at__isnull=True)
        .select_related("table")
        .order_by("number")[:PANEL_ROWS]
    )
    opened = tournament.next_table_number - 1
    rows = [
        (
            f"Table {link.number}",
            link.players,
            "waiting for the tournament" if link.needs_coordination else "dealing",
            format_html('<a href="{}">{}</a>', reverse("games:table", args=[link.table_id]), link.table.name),
        )
        for link in live
    ]
    summary = format_html(
        "<p>{} in play{}, {} broken. {}</p>",
        tournament.tables_running,
        f" (the first {PANEL_ROWS} shown)" if len(live) == PANEL_ROWS else "",
        max(opened - tournament.tables_running, 0),
        list_link("tournamenttable", "All tables", tournament__id__exact=tournament.pk),
    )
    return format_html("{}{}", summary, _table(("table", "players", "state", "live page"), rows) if rows else "")


def eliminations_panel(tournament: Tournament) -> SafeString:
    """The places given so far, best first (for a running tournament, the latest eliminations): the player, how and
    when they went out, their prize and whether it is paid."""
    placed = list(
        with_prize_states(TournamentEntry.objects.filter(tournament=tournament, place__isnull=False))
        .select_related("user")
        .order_by("place")[:PANEL_ROWS]
    )
    rows = [
        (
            entry.place,
            entry.user.username,
            entry.get_status_display(),
            "—" if entry.eliminated_in_hand_id is None else f"hand #{entry.eliminated_in_hand_id}",
            "—" if entry.chips_at_hand_start is None else f"{entry.chips_at_hand_start:,}",
            "—" if entry.eliminated_at is None else f"{entry.eliminated_at:%Y-%m-%d %H:%M:%S}",
            format_cents(entry.prize),
            prize_state(entry),
        )
        for entry in placed
    ]
    link = list_link(
        "tournamententry", "All placed entries", tournament__id__exact=tournament.pk, place__isnull="False"
    )
    if not rows:
        return format_html("<p>Nobody has a place yet. {}</p>", link)
    return format_html(
        "{}<p>{}</p>",
        _table(
            ("place", "player", "status", "out in", "chips at that hand's start", "at", "prize", "prize paid"), rows
        ),
        link,
    )


def payouts_panel(tournament: Tournament) -> SafeString:
    """The prize pool and the prize of each paid place (final once registration closed, else what the entries so far
    would give, TRN-06), with who finished there and whether it is paid. A cancelled tournament pays no prizes: the
    panel says how its money went back (:func:`cancelled_payouts_line`), never "provisional"."""
    if tournament.status == TournamentStatus.CANCELLED:
        return cancelled_payouts_line(tournament)
    try:
        payouts = payouts_now(tournament)
    except RuleError as error:
        return format_html("<p>No payouts: {}.</p>", str(error))
    finishers = {
        entry.place: entry
        for entry in with_prize_states(
            TournamentEntry.objects.filter(tournament=tournament, place__lte=PANEL_ROWS)
        ).select_related("user")
    }
    rows = []
    for place, prize in enumerate(payouts.prizes[:PANEL_ROWS], start=1):
        entry = finishers.get(place)
        rows.append(
            (
                place,
                format_cents(prize),
                "—" if entry is None else entry.user.username,
                "—" if entry is None else prize_state(entry),
            )
        )
    state = "provisional: more entries can change them" if payouts.provisional else "final"
    more = f" (the first {PANEL_ROWS} shown)" if payouts.paid_places > PANEL_ROWS else ""
    return format_html(
        "<p>Prize pool {}, {} places paid{} — {}. {}</p>{}{}",
        format_cents(payouts.pool),
        payouts.paid_places,
        more,
        state,
        list_link("tournamententry", "Unpaid prizes", tournament__id__exact=tournament.pk, prize_state="unpaid"),
        _table(("place", "prize", "player", "prize paid"), rows),
        bounties_line(tournament),
    )


def cancelled_payouts_line(tournament: Tournament) -> SafeString:
    """Cancelled before the start: every entry refunded (TRN-15, CXL-02); cancelled while running: compensated under
    the cancellation policy, with what the players were paid and the house kept, and the archived calculation."""
    from tournaments.models import CancellationStatus, TournamentCancellation

    row = (
        TournamentCancellation.objects.filter(tournament=tournament, status=CancellationStatus.APPROVED)
        .order_by("-pk")
        .first()
    )
    if row is None:
        return format_html(
            "<p>Cancelled: refunded. {} was cancelled before it started; every entry got its buy-in and fee back. "
            "No prizes are paid.</p>",
            tournament.name,
        )
    return format_html(
        "<p>Cancelled: compensated. Under the cancellation policy ({}), {} was paid to the players and {} kept by the "
        'house. No prizes are paid. <a href="{}">The cancellation and its calculation</a></p>',
        row.state.replace("_", " "),
        format_cents(row.paid_in_money),
        format_cents(row.kept_by_house),
        reverse("admin:tournaments_tournamentcancellation_change", args=[row.pk]),
    )


def bounties_line(tournament: Tournament) -> SafeString:
    """TRN-41..TRN-44: the bounty money held apart from the prize pool, what was credited, and the VIP bounty paid."""
    if not tournament.has_bounties and tournament.vip_player_id is None:
        return SafeString("")
    from django.db.models import Sum

    from tournaments.models import TournamentBountyAward
    from wallet.models import Account, AccountKind

    held = (
        Account.objects.filter(kind=AccountKind.BOUNTY_POOL, reference=f"tournament:{tournament.pk}:bounties")
        .values_list("balance", flat=True)
        .first()
    )
    totals = TournamentBountyAward.objects.filter(tournament=tournament).aggregate(cash=Sum("cash"), vip=Sum("vip"))
    return format_html(
        "<p>Bounties ({}): {} held in the bounty pool, {} credited, VIP bounty paid {}. {}</p>",
        tournament.get_bounty_kind_display(),
        format_cents(int(held or 0)),
        format_cents(int(totals["cash"] or 0)),
        format_cents(int(totals["vip"] or 0)),
        list_link("tournamentbountyaward", "Bounties won", tournament__id__exact=tournament.pk),
    )
