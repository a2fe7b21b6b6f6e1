"""REST API of Ultimate Texas Hold'em, mounted at /api/uth/: tables, a table's snapshot, the player's game history
and the recall of one game by its game number (UTH-34, UTH-35). Playing goes through the table socket."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle, UserRateThrottle
from rest_framework.views import APIView

from games.engine.cards import format_cards
from games.uth import readside
from games.uth.models import FINISHED_PHASES, UthHand, UthRound, UthTable

MAXIMUM_HISTORY = 100


class UthTablesView(APIView):
    """Every open UTH table with its limits, chips, timings, paytables and RTP."""

    permission_classes = [AllowAny]
    throttle_classes = [AnonRateThrottle, UserRateThrottle]

    @extend_schema(operation_id="uth_tables", responses={200: OpenApiTypes.OBJECT})
    def get(self, request: Request) -> Response:
        tables = UthTable.objects.filter(is_open=True).order_by("name")
        return Response({"tables": [readside.table_public(table) for table in tables]})


class UthTableSnapshotView(APIView):
    """What the table page shows: the table, the round in play (no hidden card), and the caller's own view."""

    permission_classes = [AllowAny]
    throttle_classes = [AnonRateThrottle, UserRateThrottle]

    @extend_schema(operation_id="uth_table_snapshot", responses={200: OpenApiTypes.OBJECT})
    def get(self, request: Request, table_id: int) -> Response:
        table = UthTable.objects.filter(pk=table_id).first()
        if table is None:
            raise Http404("There is no such Ultimate Texas Hold'em table.")
        user = request.user if request.user.is_authenticated else None
        return Response(readside.snapshot(table, user))


class UthHistoryView(APIView):
    """The caller's own finished rounds, newest first (UTH-35)."""

    @extend_schema(
        operation_id="uth_history",
        parameters=[OpenApiParameter("limit", OpenApiTypes.INT, description=f"At most {MAXIMUM_HISTORY}.")],
        responses={200: OpenApiTypes.OBJECT},
    )
    def get(self, request: Request) -> Response:
        try:
            limit = max(1, min(int(request.query_params.get("limit", "20")), MAXIMUM_HISTORY))
        except ValueError:
            return Response({"code": "bad_limit", "message": "limit must be a whole number."}, status=400)
        return Response({"rounds": readside.history(request.user, None, limit)})  # type: ignore[arg-type]


class UthRoundRecallView(APIView):
    """One game by its game number: the public round and the caller's own bets, decisions and payouts with every
    money movement. Staff with the view permission also see every hand, and the recorded deck once the round is over
    (GEN-07): while it is in play nobody, staff included, sees the dealer's cards or the coming board."""

    @extend_schema(operation_id="uth_round_recall", responses={200: OpenApiTypes.OBJECT})
    def get(self, request: Request, game_number: str) -> Response:
        round_ = UthRound.objects.filter(game_number=game_number).first()
        staff = request.user.has_perm("uth.view_uthround")
        hands = UthHand.objects.filter(round=round_).select_related("player").order_by("pk")
        if not staff:
            hands = hands.filter(player=request.user)  # type: ignore[misc]
        if round_ is None or (not staff and not hands.exists()):
            raise Http404("No game with that number that you took part in.")
        payload: dict[str, Any] = {
            "round": readside.round_public(round_),
            "hands": [_hand(hand) for hand in hands],
            # The commitment published when the round opened; the server seed once the round is over (docs/fairness.md).
            "fairness": readside.round_fairness(round_, with_seed=True),
        }
        if staff and round_.deck and round_.phase in FINISHED_PHASES:
            payload["deck"] = format_cards(round_.deck_cards, symbols=False)
        return Response(payload)


def _round_taken_part_in(request: Request, game_number: str) -> UthRound:
    round_ = UthRound.objects.filter(game_number=game_number).first()
    if round_ is None or not (
        request.user.has_perm("uth.view_uthround")
        or UthHand.objects.filter(round=round_, player_id=request.user.pk).exists()
    ):
        raise Http404("No game with that number that you took part in.")
    return round_


class UthRoundVerificationView(APIView):
    """The proof of a game that is over, as a file for ``docs/verify_hand.py``: game number, algorithm, domain,
    commitment, server seed and the cards dealt at their deck positions (docs/fairness.md). A game still in play has
    none yet (409): its seed is revealed only once it is settled or cancelled."""

    @extend_schema(operation_id="uth_round_verification", responses={200: OpenApiTypes.OBJECT})
    def get(self, request: Request, game_number: str) -> Response:
        round_ = _round_taken_part_in(request, game_number)
        document = readside.round_verification(round_)
        if document is None:
            return Response(
                {"code": "round_in_play", "message": "The server seed is revealed once the game is over."}, status=409
            )
        response = Response(document)
        response["Content-Disposition"] = f'attachment; filename="uth-{round_.game_number}.json"'
        return response


def _hand(hand: UthHand) -> dict[str, Any]:
    return {
        "player": hand.player.table_name,
        "status": hand.status,
        "ante": int(hand.ante),
        "blind": int(hand.ante),
        "trips": int(hand.trips),
        "play": int(hand.play),
        "folded": hand.folded,
        "decisions": hand.decisions,
        "result_row": hand.result_row,
        "returns": {
            "ante": hand.ante_return,
            "blind": hand.blind_return,
            "play": hand.play_return,
            "trips": hand.trips_return,
        },
        "refunded": int(hand.refunded),
        "records": [
            {
                "number": record.number,
                "kind": record.kind,
                "ante_delta": int(record.ante_delta),
                "trips_delta": int(record.trips_delta),
                "play_delta": int(record.play_delta),
                "amount": int(record.amount),
                "decision": record.decision,
                "phase": record.phase,
                "transfer": record.transfer_id,
                "at": record.created_at.isoformat(),
            }
            for record in hand.records.order_by("number")
        ],
    }
