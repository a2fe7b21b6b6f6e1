"""REST API of the cash tables, mounted at /api/games/: the lobby, the stake queue, leaving tables, own hand histories.

Thin views: they validate input with the serializers in games/serializers.py and call the domain services through
:mod:`games.runtime.commands` (the same error codes as the table socket) or the read models (:mod:`games.cash.lobby`,
:mod:`games.runtime.history`).
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.generics import ListAPIView
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle, UserRateThrottle
from rest_framework.views import APIView

from games import rest_idempotency
from games.cash import commands as cash_commands
from games.cash import lobby
from games.runtime import commands, history, readside
from games.runtime.protocol import ClientMessage
from games.serializers import (
    BuyInLimitsSerializer,
    CommandResultSerializer,
    ErrorSerializer,
    HandReplaySerializer,
    HandSummarySerializer,
    JoinStakeSerializer,
    LobbyTableSerializer,
    SeatingRequestSerializer,
)
from poker_site.core.pagination import IntegerPositionCursorPagination
from poker_site.core.strict_input import NoFieldsSerializer
from wallet.api import idempotency_key_of
from wallet.errors import WalletError

REFUSAL_STATUS = {
    "not_found": status.HTTP_404_NOT_FOUND,
    "not_authenticated": status.HTTP_401_UNAUTHORIZED,
    commands.SEATS_ARE_ASSIGNED: status.HTTP_410_GONE,
}
"""HTTP status of a refused command by its code; any other refusal is a 409 Conflict (the request was understood
but the table's state or the rules do not allow it)."""


def refusal_response(refusal: commands.CommandRefused) -> Response:
    return Response(
        {"code": refusal.code, "message": refusal.message},
        status=REFUSAL_STATUS.get(refusal.code, status.HTTP_409_CONFLICT),
    )


KEPT_STATUSES = ("seated", "waiting")
"""A stake join answered with one of these changed something (a seat, a place in the queue): its answer is kept for
a request sent again with the same ``Idempotency-Key``; any other outcome gives the key back."""


def replay_response(replay: rest_idempotency.Replay, key: str) -> Response:
    """The answer to a request whose ``Idempotency-Key`` was used before (:mod:`games.rest_idempotency`)."""
    if replay.conflict:
        return Response(
            {
                "code": "idempotency_conflict",
                "message": f"The idempotency key {key!r} was already used for another request.",
            },
            status=status.HTTP_409_CONFLICT,
        )
    if replay.in_progress or replay.body is None:
        return Response(
            {
                "code": "duplicate_request",
                "message": f"A request with the idempotency key {key!r} is still being handled; it is not applied "
                "again.",
            },
            status=status.HTTP_409_CONFLICT,
        )
    return Response(replay.body, status=replay.status, headers={"Idempotent-Replayed": "true"})


def invalid_request_response(serializer: Any) -> Response:
    """400 with the serializer's field errors, in the same shape as a refusal."""
    return Response(
        {"code": "invalid", "message": "invalid request", "errors": serializer.errors},
        status=status.HTTP_400_BAD_REQUEST,
    )


class LobbyView(APIView):
    """The cash-game lobby: every open table with its stake, players, average pot and waiting list."""

    permission_classes = [AllowAny]
    throttle_classes = [AnonRateThrottle, UserRateThrottle]

    @extend_schema(
        operation_id="games_lobby",
        parameters=[
            OpenApiParameter("game", OpenApiTypes.STR, description="Game type code, e.g. holdem, omaha, banzai."),
            OpenApiParameter("stake", OpenApiTypes.STR, description="Stake label, e.g. NL10."),
        ],
        responses={200: LobbyTableSerializer(many=True)},
    )
    def get(self, request: Request) -> Response:
        game = request.query_params.get("game") or None
        stake = request.query_params.get("stake") or None
        rows = lobby.lobby_rows(game=game[:30] if game else None, stake=stake[:12] if stake else None)
        return Response(LobbyTableSerializer(rows, many=True).data)


class TableCommandView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [UserRateThrottle]

    def table(self, table_id: int) -> Any:
        table = readside.table_by_id(table_id)
        if table is None:
            raise Http404("no such table")
        return table


class JoinTableView(TableCommandView):
    """Retired: players do not pick a table (CASH-04, LOB-01). Always 410 ``seats_are_assigned``, pointing to the
    stake queue (``POST stakes/<stake id>/queue/``); nothing changes."""

    @extend_schema(
        operation_id="games_table_join",
        request=None,
        responses={410: ErrorSerializer},
        deprecated=True,
        description="Retired: seats are assigned. Use games_stake_join (POST /api/games/stakes/<stake id>/queue/).",
    )
    def post(self, request: Request, table_id: int) -> Response:
        return refusal_response(commands.seats_are_assigned())


class BuyInLimitsView(TableCommandView):
    """What the player may buy in for at this table now, and why (LOB-05): the ratholing limits of a table they left
    (CASH-11..14) or the Banzai Resume/Reset choice (CASH-30/31); otherwise the table's range (CASH-10)."""

    @extend_schema(
        operation_id="games_table_buy_in_limits",
        responses={200: BuyInLimitsSerializer, 404: ErrorSerializer, 409: ErrorSerializer},
    )
    def get(self, request: Request, table_id: int) -> Response:
        table = self.table(table_id)
        try:
            return Response(cash_commands.buy_in_limits(request.user, table))
        except commands.CommandRefused as refusal:
            return refusal_response(refusal)


class StakeBuyInLimitsView(APIView):
    """What the player may buy in for when asking to play this stake now, and why (LOB-05, the lobby's buy-in dialog):
    the ratholing limits of the table of the stake they left (CASH-11..14) or the Banzai Resume/Reset choice
    (CASH-30/31); otherwise the stake's range (CASH-10). The answer of ``tables/<id>/buy-in/``."""

    permission_classes = [IsAuthenticated]
    throttle_classes = [UserRateThrottle]

    @extend_schema(
        operation_id="games_stake_buy_in_limits",
        responses={200: BuyInLimitsSerializer, 404: ErrorSerializer, 409: ErrorSerializer},
    )
    def get(self, request: Request, stake_id: int) -> Response:
        from games.models import Stake

        stake = Stake.objects.select_related("game_type").filter(pk=stake_id).first()
        if stake is None:
            raise Http404("no such stake")
        try:
            return Response(cash_commands.stake_buy_in_limits(request.user, stake))
        except commands.CommandRefused as refusal:
            return refusal_response(refusal)


class LeaveTableView(TableCommandView):
    """Leave the table: at once between hands, otherwise when the current hand ends (CASH-08)."""

    @extend_schema(
        operation_id="games_table_leave",
        request=NoFieldsSerializer,
        responses={200: CommandResultSerializer, 400: ErrorSerializer, 404: ErrorSerializer, 409: ErrorSerializer},
    )
    def post(self, request: Request, table_id: int) -> Response:
        serializer = NoFieldsSerializer(data=request.data)
        if not serializer.is_valid():
            return invalid_request_response(serializer)
        table = self.table(table_id)
        try:
            # Through the table's command path: with table actors on, the table's owner runs it ordered with its hand.
            commands.execute(request.user, table, ClientMessage("leave"))
        except commands.CommandRefused as refusal:
            return refusal_response(refusal)
        return Response({"ok": True, "table_id": table.pk})


class StakeQueueView(APIView):
    """Play a stake without picking a table (CASH-04): seated at an assigned table at once, or queued (CASH-05)."""

    permission_classes = [IsAuthenticated]
    throttle_classes = [UserRateThrottle]

    def stake(self, stake_id: int) -> Any:
        from games.models import Stake

        stake = Stake.objects.select_related("game_type").filter(pk=stake_id).first()
        if stake is None:
            raise Http404("no such stake")
        return stake

    @extend_schema(
        operation_id="games_stake_join",
        request=JoinStakeSerializer,
        parameters=[
            OpenApiParameter(
                "Idempotency-Key",
                OpenApiTypes.STR,
                OpenApiParameter.HEADER,
                required=False,
                description="Optional: a request sent again with the same key (1-100 letters, digits, '.', '_', ':', "
                "'-') gets the first answer instead of being applied again; the same key for another request is a "
                "409 idempotency_conflict.",
            )
        ],
        responses={200: SeatingRequestSerializer, 400: ErrorSerializer, 404: ErrorSerializer, 409: ErrorSerializer},
    )
    def post(self, request: Request, stake_id: int) -> Response:
        """Seated or queued. An optional ``Idempotency-Key`` header (:mod:`games.rest_idempotency`): a request sent
        again with the same key gets the first answer (header ``Idempotent-Replayed: true``) instead of seating the
        player at another table of the stake."""
        serializer = JoinStakeSerializer(data=request.data)
        if not serializer.is_valid():
            return invalid_request_response(serializer)
        stake = self.stake(stake_id)
        data = serializer.validated_data
        try:
            key = idempotency_key_of(request)
        except WalletError as error:
            return Response({"code": "invalid", "message": str(error)}, status=status.HTTP_400_BAD_REQUEST)
        if key is None:
            return self.join(request, stake, data)
        user_id = request.user.pk
        assert user_id is not None  # IsAuthenticated
        claimed = rest_idempotency.redis_key("stake-join", user_id, key)
        asked = {"stake_id": stake.pk, **data}
        replay = rest_idempotency.claim(claimed, asked)
        if replay is not None:
            return replay_response(replay, key)
        answer = None
        try:
            answer = self.join(request, stake, data)
        finally:
            if answer is not None and answer.status_code == 200 and answer.data.get("status") in KEPT_STATUSES:
                rest_idempotency.remember(claimed, asked, answer.data)
            else:
                rest_idempotency.release(claimed)  # refused, failed or an error: nothing changed, a retry is applied
        return answer

    def join(self, request: Request, stake: Any, data: dict[str, Any]) -> Response:
        try:
            seating = cash_commands.join_stake_queue(
                request.user,
                stake,
                data["buy_in"],
                post_big_blind=data["post_big_blind"],
                banzai_choice=data.get("banzai_choice"),
            )
        except commands.CommandRefused as refusal:
            return refusal_response(refusal)
        return Response(SeatingRequestSerializer({"id": seating.pk, **lobby.queue_answer(seating)}).data)

    @extend_schema(
        operation_id="games_stake_leave_queue",
        request=NoFieldsSerializer,
        responses={200: CommandResultSerializer, 400: ErrorSerializer, 404: ErrorSerializer},
    )
    def delete(self, request: Request, stake_id: int) -> Response:
        serializer = NoFieldsSerializer(data=request.data)
        if not serializer.is_valid():
            return invalid_request_response(serializer)
        stake = self.stake(stake_id)
        try:
            ended = cash_commands.leave_stake_queue(request.user, stake)
        except commands.CommandRefused as refusal:
            return refusal_response(refusal)
        return Response({"ok": True, "detail": f"{ended} request(s) left the queue"})


class HandPagination(IntegerPositionCursorPagination):
    ordering = "-hand_id"
    page_size = 50


class HandListView(ListAPIView):
    """The player's own finished and cancelled cash hands, newest first."""

    permission_classes = [IsAuthenticated]
    throttle_classes = [UserRateThrottle]
    pagination_class = HandPagination
    serializer_class = HandSummarySerializer

    def get_queryset(self) -> Any:
        return history.hands_of(self.request.user)

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        assert page is not None
        rows = [history.hand_summary(row) for row in page]
        return self.get_paginated_response(HandSummarySerializer(rows, many=True).data)

    @extend_schema(operation_id="games_hands_list")
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)


class HandReplayView(APIView):
    """One of the player's hands, replayable step by step; others' hole cards only if shown at showdown."""

    permission_classes = [IsAuthenticated]
    throttle_classes = [UserRateThrottle]

    @extend_schema(operation_id="games_hand_replay", responses={200: HandReplaySerializer, 404: ErrorSerializer})
    def get(self, request: Request, hand_id: int) -> Response:
        seat_row = history.hands_of(request.user).filter(hand_id=hand_id).first()
        if seat_row is None:
            # Not the player's hand (or still in play): the same answer as a hand that does not exist.
            return Response({"code": "not_found", "message": "no such hand in your history"}, status=404)
        return Response(history.hand_replay(seat_row.hand, request.user))


class HandPhhView(APIView):
    """One of the player's hands as a PHH hand history (text), with the provably fair seeds as user-defined fields
    (issue 29, docs/fairness.md): what ``docs/verify_hand.py`` checks."""

    permission_classes = [IsAuthenticated]
    throttle_classes = [UserRateThrottle]

    @extend_schema(operation_id="games_hand_phh", responses={200: OpenApiTypes.STR, 404: ErrorSerializer})
    def get(self, request: Request, hand_id: int) -> HttpResponse | Response:
        seat_row = history.hands_of(request.user).filter(hand_id=hand_id).first()
        if seat_row is None:
            return Response({"code": "not_found", "message": "no such hand in your history"}, status=404)
        response = HttpResponse(history.hand_phh(seat_row.hand, request.user), content_type="text/plain; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="hand-{hand_id}.phh"'
        return response
