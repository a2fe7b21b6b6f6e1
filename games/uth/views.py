"""The UTH pages: the list of tables (/uth/), a table (/uth/<id>/) and the player's games (/uth/history/). The table
page is a Django template with plain JavaScript over the table socket (no build step); it renders the first snapshot
on the server so it reads even before the socket connects."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_GET

from games.uth import readside
from games.uth.models import UthTable


def uth_tables(request: HttpRequest) -> HttpResponse:
    tables = UthTable.objects.filter(is_open=True).annotate(
        players=Count("seats", filter=Q(seats__left_at__isnull=True))
    )
    return render(request, "uth/tables.html", {"tables": tables})


def uth_table(request: HttpRequest, table_id: int) -> HttpResponse:
    table = UthTable.objects.filter(pk=table_id).first()
    if table is None:
        raise Http404(gettext("There is no such Ultimate Texas Hold'em table."))
    user = request.user if request.user.is_authenticated else None
    snapshot = readside.snapshot(table, user)
    return render(
        request,
        "uth/table.html",
        {"table": table, "snapshot": snapshot, "socket_path": f"/ws/uth/{table.pk}/"},
    )


GAMES_PER_PAGE = 20
"""Rounds per page of "My UTH games"."""

SUITS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
"""The suit symbols of the table page (uth/table.js)."""

RESULT_ROWS = {
    "dealer_not_qualified_player_wins": gettext_lazy("Dealer does not qualify, you win"),
    "dealer_not_qualified_player_loses": gettext_lazy("Dealer does not qualify, you lose"),
    "dealer_not_qualified_tie": gettext_lazy("Dealer does not qualify, tie"),
    "dealer_qualifies_player_wins": gettext_lazy("Dealer qualifies, you win"),
    "dealer_qualifies_player_loses": gettext_lazy("Dealer qualifies, you lose"),
    "dealer_qualifies_tie": gettext_lazy("Dealer qualifies, tie"),
    "player_folds": gettext_lazy("You folded"),
}
"""The outcome of a settled hand by its result row (games.engine.uth.settlement.ResultRow), as the table says it."""

SPOTS = {
    "ante": gettext_lazy("ANTE"),
    "blind": gettext_lazy("BLIND"),
    "trips": gettext_lazy("TRIPS"),
    "play": gettext_lazy("PLAY"),
}

DECISIONS = {
    "PLAY 4x": gettext_lazy("PLAY 4x"),
    "PLAY 3x": gettext_lazy("PLAY 3x"),
    "PLAY 2x": gettext_lazy("PLAY 2x"),
    "PLAY 1x": gettext_lazy("PLAY 1x"),
    "CHECK": gettext_lazy("CHECK"),
    "FOLD": gettext_lazy("FOLD"),
    "AUTO CHECKED": gettext_lazy("AUTO CHECKED"),
    "AUTO FOLDED": gettext_lazy("AUTO FOLDED"),
}
"""The decisions the server records (hand.decisions), in the page's language."""


def card_faces(cards: list[str]) -> list[dict[str, Any]]:
    """Cards as the table shows them ("10♥"), each with whether it is red."""
    return [
        {"text": ("10" if card[0] == "T" else card[0]) + SUITS.get(card[1], card[1]), "red": card[1] in "hd"}
        for card in cards
    ]


@login_required
@require_GET
def uth_history(request: HttpRequest) -> HttpResponse:
    """My UTH games (UTH-35): every finished round the player played, newest first, twenty per page, with the cards
    labelled, the outcome, each bet's stake and return, and the round's Verify and Download (uth/verify.js)."""
    paginator = Paginator(readside.history_hands(request.user), GAMES_PER_PAGE)  # type: ignore[arg-type]
    page = paginator.get_page(request.GET.get("page"))
    games = []
    for hand in page.object_list:
        row = readside.history_row(hand)
        result = row["result"] or {}
        games.append(
            {
                **row,
                "table": hand.round.table,
                "player_faces": card_faces(row["player_cards"]),
                "dealer_faces": card_faces(row["dealer_cards"]),
                "board_faces": card_faces(row["community"]),
                "decision_names": ", ".join(str(DECISIONS.get(label, label)) for label in row["decisions"]),
                "outcome": RESULT_ROWS.get(str(result.get("row") or ""), result.get("description", "")),
                "bets": [
                    {**bet, "name": SPOTS.get(bet["spot"], bet["spot"].upper())} for bet in result.get("bets", ())
                ],
            }
        )
    return render(
        request,
        "uth/history.html",
        {"page": page, "games": games, "proofs": {game["game_number"]: game["fairness"] for game in games}},
    )
