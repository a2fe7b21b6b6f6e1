"""Player-facing pages of the cash tables: the live table, the player's hand history and the hand replayer.

Thin views: the table page renders the viewer's first snapshot (the domain's ``table_snapshot`` through
:mod:`games.runtime.readside`, exactly what the table socket sends on connect) so the table is drawn before the socket
opens;
static/js/table.js keeps it live over ``/ws/tables/<id>/`` (docs/protocol.md). The history pages read
:mod:`games.runtime.history`, the same read model as ``/api/games/hands/``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import formats, timezone
from django.utils.translation import get_language, gettext
from django.views.decorators.http import require_GET

from games.cash.lobby import queue_answer
from games.runtime import history, readside
from poker_site.core.templatetags.money import format_money

HANDS_PER_PAGE = 50


@require_GET
def table_page(request: HttpRequest, table_id: int) -> HttpResponse:
    """The live table for a player or a spectator (no hole card of anyone else ever reaches a spectator)."""
    table = readside.table_by_id(table_id)
    if table is None:
        raise Http404(gettext("No such table."))
    viewer = request.user if request.user.is_authenticated else None
    snapshot = readside.snapshot(table, viewer)
    return render(
        request,
        "games/table.html",
        {
            "table": table,
            "snapshot": snapshot,
            "snapshot_sequence": readside.snapshot_sequence(snapshot),
            "auto_top_up": _auto_top_up(request),
            "purchase_offers": _purchase_offers(snapshot, viewer),
        },
    )


def _purchase_offers(snapshot: dict[str, Any], viewer: Any) -> dict[str, bool] | None:
    """TRN-39: at a re-buy tournament's table, whether the viewer may re-buy and take the add-on now (the page shows
    only those; tournament_bar.js keeps them live from the tournament bar)."""
    info = snapshot.get("table") or {}
    if viewer is None or not info.get("rebuy"):
        return None
    from tournaments.models import Tournament
    from tournaments.table_bar import purchase_offers

    tournament = Tournament.objects.filter(pk=int(info.get("tournament_id") or 0)).first()
    return purchase_offers(tournament, int(viewer.pk)) if tournament is not None else None


def _auto_top_up(request: HttpRequest) -> bool:
    """The player's auto top-up setting (CASH-15, off by default) for the toggle's first state."""
    if not request.user.is_authenticated:
        return False
    from games.models import PlayerTableSettings

    return bool(
        PlayerTableSettings.objects.filter(user_id=request.user.pk).values_list("auto_top_up", flat=True).first()
    )


@login_required
@require_GET
def hand_history(request: HttpRequest) -> HttpResponse:
    """The player's finished and cancelled hands, newest first, fifty per page."""
    paginator = Paginator(history.hands_of(request.user), HANDS_PER_PAGE)
    page = paginator.get_page(request.GET.get("page"))
    rows: list[dict[str, Any]] = [_written(history.hand_summary(row)) for row in page.object_list]
    return render(request, "games/hand_history.html", {"page": page, "hands": rows})


def _written(hand: dict[str, Any]) -> dict[str, Any]:
    """A hand (a list row or a replay's header) with its figures as the page shows them: ``pot_text``, ``net_text``
    (signed), ``blinds_text`` and ``ended_text``; one way on both history pages."""
    currency = hand.get("currency", "EUR")
    written = {
        **hand,
        "pot_text": amount_text(hand.get("pot_total"), currency),
        "net_text": amount_text(hand.get("net"), currency, signed=True),
        "ended_text": moment_text(hand.get("ended_at")),
    }
    if hand.get("small_blind") is not None:
        written["blinds_text"] = (
            f"{amount_text(hand['small_blind'], currency)} / {amount_text(hand['big_blind'], currency)}"
        )
    return written


def amount_text(value: int | None, currency: str, *, signed: bool = False) -> str:
    """Cash amounts (cents) as the site's money (``€1,234.56``, ``1 234,56 €`` in Estonian: the ``|money`` filter and
    ``Poker.money``); tournament chips (TRN-16) as a whole number grouped the same way (``12,500`` / ``12 500``:
    ``Poker.chips``). ``signed``: a gain gets a ``+``. None is ""."""
    if value is None:
        return ""
    sign = "+" if signed and value > 0 else ""
    if currency == "CHIPS":
        grouped = f"{abs(value):,}"
        if (get_language() or "en").startswith("et"):
            grouped = grouped.replace(",", "\u00a0")
        return f"{sign}{'-' if value < 0 else ''}{grouped}"
    return sign + format_money(value)


def moment_text(moment: datetime | None) -> str:
    """A moment on the hand history pages: the page's short date and time, then the time zone (``11/25/2026 2:19
    p.m. UTC``, ``25.11.2026 14:19 UTC``)."""
    if moment is None:
        return ""
    local = timezone.localtime(moment)
    return f"{formats.date_format(local, 'SHORT_DATETIME_FORMAT')} {local.tzname()}"


@login_required
@require_GET
def hand_replay(request: HttpRequest, hand_id: int) -> HttpResponse:
    """One of the player's hands with the step-by-step replayer; another player's hand is "not found"."""
    seat_row = history.hands_of(request.user).filter(hand_id=hand_id).first()
    if seat_row is None:
        raise Http404(gettext("No such hand in your history."))
    replay = history.hand_replay(seat_row.hand, request.user)
    return render(request, "games/hand_replay.html", {"replay": replay, "hand": _written(replay["hand"])})


@login_required
@require_GET
def stake_queue(request: HttpRequest, stake_id: int) -> JsonResponse:
    """Where the player stands in the seating queue of a stake (CASH-04/05), for the lobby to poll while waiting:
    the latest request's ``status`` (waiting, seated, cancelled, failed), the ``table_id`` when seated, the refusal
    ``message`` when failed and the ``position`` in the queue while waiting. Joining and leaving the queue are the
    API's (``/api/games/stakes/<id>/queue/``)."""
    from games.models import SeatingRequest, Stake

    stake = Stake.objects.filter(pk=stake_id).first()
    if stake is None:
        return JsonResponse({"code": "not_found", "message": "There is no such stake."}, status=404)
    mine = SeatingRequest.objects.filter(user=request.user, stake=stake)  # type: ignore[misc]
    return JsonResponse(queue_answer(mine.order_by("-created_at", "-pk").first()))
