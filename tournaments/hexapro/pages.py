"""HexaPro pages, mounted at /tournaments/hexapro/: the products' buy-ins with PLAY, the confirmation dialogue of
HEX-03 (game type, prize pool range, number of games, total buy-in, REGISTER), the player's games with links to their
tables, withdrawing a waiting registration, and the player's HexaPro history (HEX-10). Forms post here; the page's
script opens the dialogue in place and keeps the player's games fresh from ``/api/tournaments/hexapro/``."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from tournaments.hexapro.readside import player_hexapro, product_offers
from tournaments.hexapro.registration import hexapro_register, hexapro_withdraw
from tournaments.models import TournamentTable
from tournaments.services.errors import TournamentError


def _whole(text: str | None) -> int | str:
    """A form's number as an int when it is one, else the text itself (the service names what is wrong with it)."""
    value = (text or "").strip()
    return int(value) if value.isdigit() else value


def _chosen(offers: list[dict[str, object]], request: HttpRequest) -> dict[str, object] | None:
    """The product and buy-in PLAY chose (``?product=hexapro&buy_in=1000``), when both are offered."""
    code, buy_in = request.GET.get("product"), _whole(request.GET.get("buy_in"))
    for offer in offers:
        if offer["code"] != code:
            continue
        for level in offer["buy_ins"]:  # type: ignore[attr-defined]
            if level["buy_in"] == buy_in:
                return {"product": offer, "level": level}
    return None


@require_GET
def hexapro_page(request: HttpRequest) -> HttpResponse:
    offers = product_offers()
    return render(
        request,
        "tournaments/hexapro.html",
        {"offers": offers, "chosen": _chosen(offers, request), "mine": player_hexapro(request.user, limit=20)},
    )


@login_required
@require_GET
def hexapro_history(request: HttpRequest) -> HttpResponse:
    return render(request, "tournaments/hexapro_history.html", {"mine": player_hexapro(request.user)})


@login_required
@require_POST
def hexapro_registration(request: HttpRequest) -> HttpResponse:
    """REGISTER: ``product``, ``buy_in`` (cents) and ``games``; the answer is a message on the HexaPro page."""
    try:
        registered = hexapro_register(
            request.user,
            request.POST.get("product", ""),
            _whole(request.POST.get("buy_in")),  # type: ignore[arg-type]
            _whole(request.POST.get("games")),  # type: ignore[arg-type]
        )
    except TournamentError as error:
        messages.error(request, error.message)
        return HttpResponseRedirect(reverse("tournaments:hexapro"))
    games = len(registered.registrations)
    started = len(registered.games)  # every game a registration forms has one of the new registrations in it
    messages.success(
        request,
        ngettext(
            "You are registered for %(games)d game; %(started)d started.",
            "You are registered for %(games)d games; %(started)d started.",
            games,
        )
        % {"games": games, "started": started},
    )
    if games == 1 and started == 1:  # the game started at once: to its table, where the prize pool is revealed
        table_id = TournamentTable.objects.filter(tournament_id=registered.games[0].pk).values_list(
            "table_id", flat=True
        )
        return HttpResponseRedirect(reverse("games:table", args=[table_id.first()]))
    return HttpResponseRedirect(reverse("tournaments:hexapro"))


@login_required
@require_POST
def hexapro_withdrawal(request: HttpRequest, registration_id: int) -> HttpResponse:
    try:
        hexapro_withdraw(request.user, registration_id)
    except TournamentError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("The registration is withdrawn and its buy-in refunded."))
    return HttpResponseRedirect(reverse("tournaments:hexapro"))
