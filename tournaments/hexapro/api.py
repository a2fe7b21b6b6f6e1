"""REST API of HexaPro, mounted at /api/tournaments/hexapro/: the products offered, registering (one PLAY: product,
buy-in, number of games), the caller's registrations and games, and withdrawing a waiting registration. Thin views
over :mod:`tournaments.hexapro.readside` and :mod:`tournaments.hexapro.registration`."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle, UserRateThrottle

from games.api import invalid_request_response
from games.serializers import ErrorSerializer
from poker_site.core.strict_input import NoFieldsSerializer, StrictIntegerField, StrictSerializer
from tournaments.api_errors import TournamentAPIView, error_body
from tournaments.hexapro.readside import player_hexapro, product_offers
from tournaments.hexapro.registration import hexapro_register, hexapro_withdraw
from tournaments.services.errors import TournamentError
from wallet.api import idempotency_key_of
from wallet.errors import WalletError

MONEY_POST_IDEMPOTENCY_KEY = OpenApiParameter(
    name="Idempotency-Key",
    type=OpenApiTypes.STR,
    location=OpenApiParameter.HEADER,
    required=False,
    description="A fresh key (e.g. a UUID) per PLAY: a retry with the same key is the same PLAY, debited once and "
    "answered as the first; the same key for another PLAY is refused (409 idempotency_conflict).",
)

REFUSAL_STATUS = {
    "not_found": status.HTTP_404_NOT_FOUND,
    "not_registered": status.HTTP_404_NOT_FOUND,
    "invalid_request": status.HTTP_400_BAD_REQUEST,
}


def refusal_response(error: TournamentError) -> Response:
    """A refusal: 400 for a request that is wrong in itself, 404 for a registration that is not the caller's, else
    409 (the balance or the registration's state does not allow it)."""
    return Response(
        error_body(error.code, error.message), status=REFUSAL_STATUS.get(error.code, status.HTTP_409_CONFLICT)
    )


class RegistrationSerializer(StrictSerializer):
    product = serializers.CharField(max_length=40)
    buy_in = StrictIntegerField(min_value=1, max_value=10**12, help_text="The buy-in in cents, one of the product's.")
    games = StrictIntegerField(help_text="How many games (seats) to register, from 1 to the product's maximum.")


class ProductsView(TournamentAPIView):
    """HEX-02, HEX-03, HEX-20: each product with its buy-ins and their prize-pool ranges, multipliers and payouts."""

    permission_classes = [AllowAny]
    throttle_classes = [AnonRateThrottle, UserRateThrottle]

    @extend_schema(operation_id="hexapro_products", responses={200: OpenApiTypes.OBJECT})
    def get(self, request: Request) -> Response:
        return Response(product_offers())


class MineView(TournamentAPIView):
    """The caller's waiting registrations and latest games with places, prizes and tables (HEX-10)."""

    permission_classes = [IsAuthenticated]
    throttle_classes = [UserRateThrottle]

    @extend_schema(operation_id="hexapro_mine", responses={200: OpenApiTypes.OBJECT})
    def get(self, request: Request) -> Response:
        return Response(player_hexapro(request.user))


class RegistrationsView(TournamentAPIView):
    """REGISTER (HEX-03): the total buy-in is debited once; games form at once with other players' registrations."""

    permission_classes = [IsAuthenticated]
    throttle_classes = [UserRateThrottle]

    @extend_schema(
        operation_id="hexapro_register",
        parameters=[MONEY_POST_IDEMPOTENCY_KEY],
        request=RegistrationSerializer,
        responses={200: OpenApiTypes.OBJECT, 400: ErrorSerializer, 409: ErrorSerializer},
    )
    def post(self, request: Request) -> Response:
        serializer = RegistrationSerializer(data=request.data)
        if not serializer.is_valid():
            return invalid_request_response(serializer)
        data = serializer.validated_data
        try:
            key = idempotency_key_of(request)
        except WalletError as error:
            return Response(error_body("invalid_request", str(error)), status=status.HTTP_400_BAD_REQUEST)
        try:
            registered = hexapro_register(
                request.user, data["product"], data["buy_in"], data["games"], idempotency_key=key
            )
        except TournamentError as error:
            return refusal_response(error)
        return Response(
            {
                "request": str(registered.request),
                "registrations": [row.pk for row in registered.registrations],
                "total": registered.total_cents,
                "games_started": [game.pk for game in registered.games],
                **player_hexapro(request.user),
            }
        )


class WithdrawalView(TournamentAPIView):
    """Withdraw a registration still waiting for opponents; its buy-in is refunded."""

    permission_classes = [IsAuthenticated]
    throttle_classes = [UserRateThrottle]

    @extend_schema(
        operation_id="hexapro_withdraw",
        request=NoFieldsSerializer,
        responses={200: OpenApiTypes.OBJECT, 404: ErrorSerializer, 409: ErrorSerializer},
    )
    def delete(self, request: Request, registration_id: int) -> Response:
        serializer = NoFieldsSerializer(data=request.data)
        if not serializer.is_valid():
            return invalid_request_response(serializer)
        try:
            hexapro_withdraw(request.user, registration_id)
        except TournamentError as error:
            return refusal_response(error)
        return Response(player_hexapro(request.user))
