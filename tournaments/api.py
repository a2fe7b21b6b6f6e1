"""REST API of the tournaments, mounted at /api/tournaments/: the Full Tournament Lobby, a Specific Tournament Lobby,
registering and unregistering. Thin views over :mod:`tournaments.readside` and :mod:`tournaments.services`; every
error is answered ``{"code", "message"}`` (:mod:`tournaments.api_errors`, docs/protocol.md)."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle, UserRateThrottle

from games.api import invalid_request_response
from games.serializers import ErrorSerializer
from poker_site.core.strict_input import NoFieldsSerializer, StrictIntegerField, StrictSerializer
from tournaments import readside, services
from tournaments.api_errors import TournamentAPIView, error_body
from tournaments.hexapro.api import MONEY_POST_IDEMPOTENCY_KEY
from tournaments.models import Tournament
from wallet.api import idempotency_key_of
from wallet.errors import WalletError

REFUSAL_STATUS = {"not_found": status.HTTP_404_NOT_FOUND}


def refusal_response(error: services.TournamentError) -> Response:
    """A refusal in the API's error shape: 404 when there is no such tournament, otherwise 409 (understood, but the
    tournament's state or the rules do not allow it)."""
    return Response(
        error_body(error.code, error.message), status=REFUSAL_STATUS.get(error.code, status.HTTP_409_CONFLICT)
    )


def tournament_or_404(tournament_id: int) -> Tournament:
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        raise Http404(gettext("There is no tournament %(number)d.") % {"number": tournament_id})
    return tournament


def viewer_id(request: Request) -> int | None:
    return int(request.user.pk) if request.user.is_authenticated else None


class TournamentListView(TournamentAPIView):
    """The Full Tournament Lobby (LOB-02): every scheduled tournament and Sit & Go that is open or running."""

    permission_classes = [AllowAny]
    throttle_classes = [AnonRateThrottle, UserRateThrottle]

    @extend_schema(operation_id="tournaments_list", responses={200: OpenApiTypes.OBJECT})
    def get(self, request: Request) -> Response:
        return Response(readside.tournament_rows(viewer_id(request)))


class TournamentDetailView(TournamentAPIView):
    """A Specific Tournament Lobby (LOB-03)."""

    permission_classes = [AllowAny]
    throttle_classes = [AnonRateThrottle, UserRateThrottle]

    @extend_schema(operation_id="tournaments_detail", responses={200: OpenApiTypes.OBJECT, 404: ErrorSerializer})
    def get(self, request: Request, tournament_id: int) -> Response:
        return Response(readside.tournament_detail(tournament_or_404(tournament_id), viewer_id(request)))


class TournamentBarView(TournamentAPIView):
    """The tournament bar at a tournament table and the viewer's result (``tournaments.table_bar``)."""

    permission_classes = [AllowAny]
    throttle_classes = [AnonRateThrottle, UserRateThrottle]

    @extend_schema(operation_id="tournaments_bar", responses={200: OpenApiTypes.OBJECT, 404: ErrorSerializer})
    def get(self, request: Request, tournament_id: int) -> Response:
        from tournaments.table_bar import tournament_bar

        return Response(tournament_bar(tournament_or_404(tournament_id), viewer_id(request)))


class TournamentRegistrationSerializer(StrictSerializer):
    """Registering: optionally the number of one of the caller's tickets to pay with (TRN-37, AMB-54), and in a
    multi-buy-in tournament the buy-in chosen, in cents, buy-in + fee (TRN-38)."""

    ticket = StrictIntegerField(required=False, min_value=1, max_value=2**62)
    buy_in = StrictIntegerField(required=False, min_value=1, max_value=10**12)


class TicketListView(TournamentAPIView):
    """The caller's usable tournament tickets, soonest expiry first (TRN-37)."""

    permission_classes = [IsAuthenticated]
    throttle_classes = [UserRateThrottle]

    @extend_schema(operation_id="tournaments_tickets", responses={200: OpenApiTypes.OBJECT})
    def get(self, request: Request) -> Response:
        from tournaments import tickets_readside

        return Response(tickets_readside.ticket_rows(request.user))


class TournamentRegistrationView(TournamentAPIView):
    """Register (POST, optionally ``{"ticket": <number>}`` to pay with a ticket) or unregister (DELETE) the caller
    (TRN-09, TRN-10, TRN-14, TRN-17, FEE-04, TRN-37)."""

    permission_classes = [IsAuthenticated]
    throttle_classes = [UserRateThrottle]

    def _run(self, request: Request, tournament_id: int, service: Any) -> Response:
        serializer: StrictSerializer = (
            TournamentRegistrationSerializer(data=request.data)
            if service is services.tournament_register
            else NoFieldsSerializer(data=request.data)
        )
        if not serializer.is_valid():
            return invalid_request_response(serializer)
        tournament = tournament_or_404(tournament_id)
        options = {
            name: serializer.validated_data[name]
            for name in ("ticket", "buy_in")
            if serializer.validated_data.get(name) is not None
        }
        if service is services.tournament_register:
            try:
                options["idempotency_key"] = idempotency_key_of(request)
            except WalletError as error:
                return Response(error_body("invalid_request", str(error)), status=status.HTTP_400_BAD_REQUEST)
        try:
            service(request.user, tournament, **options)
        except services.TournamentError as error:
            return refusal_response(error)
        return Response(readside.tournament_row(Tournament.objects.get(pk=tournament.pk), viewer_id(request)))

    @extend_schema(
        operation_id="tournaments_register",
        parameters=[MONEY_POST_IDEMPOTENCY_KEY],
        request=TournamentRegistrationSerializer,
        responses={200: OpenApiTypes.OBJECT, 400: ErrorSerializer, 404: ErrorSerializer, 409: ErrorSerializer},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        return self._run(request, tournament_id, services.tournament_register)

    @extend_schema(
        operation_id="tournaments_unregister",
        request=NoFieldsSerializer,
        responses={200: OpenApiTypes.OBJECT, 400: ErrorSerializer, 404: ErrorSerializer, 409: ErrorSerializer},
    )
    def delete(self, request: Request, tournament_id: int) -> Response:
        return self._run(request, tournament_id, services.tournament_unregister)


class TournamentPurchaseView(TournamentAPIView):
    """Buy the tournament's re-buy (``/rebuy/``) or add-on (``/add-on/``) for the caller's entry (TRN-39, FEE-04).
    The chips are added between hands: at once, or when the caller's hand in progress ends (``status``: ``pending``
    until then). A refusal (409) says why and changes nothing."""

    permission_classes = [IsAuthenticated]
    throttle_classes = [UserRateThrottle]
    kind = "rebuy"

    @extend_schema(
        parameters=[MONEY_POST_IDEMPOTENCY_KEY],
        request=NoFieldsSerializer,
        responses={200: OpenApiTypes.OBJECT, 400: ErrorSerializer, 404: ErrorSerializer, 409: ErrorSerializer},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        serializer = NoFieldsSerializer(data=request.data)
        if not serializer.is_valid():
            return invalid_request_response(serializer)
        tournament = tournament_or_404(tournament_id)
        service = services.entry_rebuy if self.kind == "rebuy" else services.entry_add_on
        try:
            key = idempotency_key_of(request)
        except WalletError as error:
            return Response(error_body("invalid_request", str(error)), status=status.HTTP_400_BAD_REQUEST)
        try:
            purchase = service(request.user, tournament, idempotency_key=key)
        except services.TournamentError as error:
            return refusal_response(error)
        return Response(
            {
                "kind": purchase.kind,
                "number": purchase.number,
                "prize_contribution": purchase.prize_contribution,
                "fee": purchase.fee,
                "chips": purchase.chips,
                "status": purchase.status,
                "tournament": readside.tournament_detail(Tournament.objects.get(pk=tournament.pk), viewer_id(request)),
            }
        )


class TournamentRebuyView(TournamentPurchaseView):
    kind = "rebuy"


class TournamentAddOnView(TournamentPurchaseView):
    kind = "add_on"


class UnknownAddressView(TournamentAPIView):
    """Every address under ``/api/tournaments/`` that no endpoint above answers (``/api/tournaments/abc/``, a word
    where a tournament's number goes): 404 ``not_found`` in the API's error shape, whatever the method, as an unknown
    tournament's number is answered, not Django's HTML page."""

    # Nothing is read or done here, so there is no one to authenticate and no CSRF token to check: every method of
    # every client gets the same 404.
    authentication_classes: list[Any] = []
    permission_classes = [AllowAny]
    throttle_classes = [AnonRateThrottle]
    schema = None  # not an endpoint: left out of the OpenAPI schema

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        raise NotFound(gettext("The tournament API has no such address."))
