"""Tournament pages: the Full Tournament Lobby (LOB-02), kept live by its script from the tournament lobby socket's
notices (``/ws/tournaments/``) and ``/tournaments/lists/``, and a Specific Tournament Lobby (LOB-03), with registering
and unregistering by form (its script keeps it live from ``/api/tournaments/<id>/``)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from tournaments import readside, services, tickets_readside
from tournaments.models import Tournament
from tournaments.table_bar import purchase_offers


def _viewer(request: HttpRequest) -> int | None:
    return int(request.user.pk) if request.user.is_authenticated else None


def _lobby_lists(request: HttpRequest) -> dict[str, Any]:
    lists = readside.lobby_lists(_viewer(request))
    # TRN-37: the player's tournament tickets
    lists["tickets"] = tickets_readside.ticket_rows(request.user) if request.user.is_authenticated else []
    return lists


@require_GET
def tournament_lobby(request: HttpRequest) -> HttpResponse:
    """The Full Tournament Lobby (LOB-02); its script follows the tournament lobby socket's ``tournament_changed``
    notices (``tournaments/lobby_socket.py``)."""
    return render(request, "tournaments/lobby.html", _lobby_lists(request))


@never_cache
@require_GET
def tournament_lobby_lists(request: HttpRequest) -> HttpResponse:
    """The lobby page's lists alone (``tournaments/lobby_live.html``: the same markup), for the viewer: the page reads
    them again when the tournament lobby socket says a tournament changed, each time the socket opens (its resync
    after a reconnect), and while it is down."""
    return render(request, "tournaments/lobby_live.html", _lobby_lists(request))


@never_cache
@require_GET
def upcoming_tournaments_list(request: HttpRequest) -> HttpResponse:
    """The cash lobby's Tournaments tab list alone (``tournaments/upcoming.html``, the markup the tab shows): the tab
    reads it again when the lobby socket says a tournament changed, after the socket reconnects, and while it is
    down."""
    return render(request, "tournaments/upcoming.html")


@require_GET
def tournament_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        raise Http404(gettext("No such tournament."))
    detail = readside.tournament_detail(tournament, _viewer(request))
    # TRN-39: the re-buy and the add-on are offered only when the viewer may buy them now.
    offers = purchase_offers(tournament, _viewer(request)) if tournament.rebuy_levels else None
    return render(request, "tournaments/detail.html", {"tournament": detail, "purchase_offers": offers})


@login_required
@require_POST
def tournament_registration(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """``action=register`` or ``action=unregister``; the answer is a message on the tournament's page."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        raise Http404(gettext("No such tournament."))
    action = request.POST.get("action")
    service = {"register": services.tournament_register, "unregister": services.tournament_unregister}.get(action or "")
    target = reverse("tournaments:detail", args=[tournament.pk])
    if service is None:
        messages.error(request, gettext("Choose to register or to unregister."))
        return HttpResponseRedirect(target)
    ticket = request.POST.get("ticket", "")
    if action == "register" and ticket:  # TRN-37 / AMB-54: register with a tournament ticket
        if not ticket.isdigit() or len(ticket) > 12:
            messages.error(request, gettext("Choose one of your tickets."))
            return HttpResponseRedirect(target)
        try:
            services.tournament_register(request.user, tournament, ticket=int(ticket))
        except services.TournamentError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, gettext("You are registered with your ticket."))
        return HttpResponseRedirect(target)
    buy_in = request.POST.get("buy_in", "")
    # TRN-38: the buy-in chosen in a multi-buy-in tournament
    if action == "register" and buy_in and (not buy_in.isdigit() or len(buy_in) > 12):
        messages.error(request, gettext("Choose one of the buy-ins offered."))
        return HttpResponseRedirect(target)
    try:
        if action == "register":
            services.tournament_register(request.user, tournament, buy_in=int(buy_in) if buy_in else None)
        else:
            services.tournament_unregister(request.user, tournament)
    except services.TournamentError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request,
            gettext("You are registered.")
            if action == "register"
            else gettext("You are unregistered; buy-in and fee refunded."),
        )
    return HttpResponseRedirect(target)


@login_required
@require_POST
def tournament_purchase(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """``action=rebuy`` or ``action=add_on`` (TRN-39); the answer is a message on the tournament's page, or on the
    table page the form came from (``from_table``)."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        raise Http404(gettext("No such tournament."))
    target = reverse("tournaments:detail", args=[tournament.pk])
    from_table = request.POST.get("from_table", "")
    if from_table.isdigit() and len(from_table) <= 12:
        target = reverse("games:table", args=[int(from_table)])
    action = request.POST.get("action")
    service = {"rebuy": services.entry_rebuy, "add_on": services.entry_add_on}.get(action or "")
    if service is None:
        messages.error(request, gettext("Choose a re-buy or the add-on."))
        return HttpResponseRedirect(target)
    try:
        purchase = service(request.user, tournament)
    except services.TournamentError as error:
        messages.error(request, error.message)
    else:
        if purchase.status == "pending":
            text = gettext("Paid: your %(chips)s chips are added when your current hand ends.")
        else:
            text = gettext("Paid: %(chips)s chips were added to your stack.")
        messages.success(request, text % {"chips": purchase.chips})
    return HttpResponseRedirect(target)
