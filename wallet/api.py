"""The wallet REST API (mounted at /api/wallet/). Thin: validate, call a service, answer JSON.

Every error is ``{"error": <code>, "detail": <message>}``; nothing changes when one is returned.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet, Sum
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.exceptions import ValidationError
from rest_framework.generics import ListAPIView
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from poker_site.core.pagination import IntegerPositionCursorPagination
from poker_site.core.strict_input import errors_in_words
from poker_site.core.templatetags.money import format_money
from wallet.errors import IdempotencyConflict, PaymentProviderError, WalletError
from wallet.models import DEFAULT_CURRENCY, CashierDirection, CashierStatus, CashierTransaction, Leg
from wallet.serializers import (
    BalanceSerializer,
    CashierRequestSerializer,
    CashierTransactionSerializer,
    LegHistorySerializer,
    WalletErrorSerializer,
)
from wallet.services import (
    balance_of,
    check_idempotency_key,
    deposit_through_provider,
    money_at_tables,
    player_cash_account,
    withdrawal_create,
    withheld_total,
)

IDEMPOTENCY_KEY_HEADER = OpenApiParameter(
    name="Idempotency-Key",
    type=OpenApiTypes.STR,
    location=OpenApiParameter.HEADER,
    required=True,
    description="A fresh key (e.g. a UUID) per deposit/withdrawal; resending the same key never moves money twice.",
)


IDEMPOTENCY_KEY_MISSING = "idempotency_key_required"


def idempotency_key_of(request: Request) -> str | None:
    """The request's ``Idempotency-Key`` header, checked as the cashier's services check it (``InvalidTransfer``
    when malformed), or None when the request has none. Every money POST reads it through here."""
    key = request.headers.get("Idempotency-Key")
    return None if key is None or key == "" else check_idempotency_key(key)


def error_response(error: WalletError) -> Response:
    code: int
    if isinstance(error, IdempotencyConflict):
        code = status.HTTP_409_CONFLICT
    elif isinstance(error, PaymentProviderError):
        code = status.HTTP_502_BAD_GATEWAY
    else:
        code = status.HTTP_400_BAD_REQUEST
    return Response({"error": error.code, "detail": str(error)}, status=code)


def player_balance(user: Any, currency: str = DEFAULT_CURRENCY) -> dict[str, Any]:
    """The figures the cashier shows a player, in cents and formatted."""
    pending = CashierTransaction.objects.filter(player=user, status=CashierStatus.PENDING, currency=currency).aggregate(
        withdrawals=Sum("amount", filter=Q(direction=CashierDirection.WITHDRAWAL)),
        deposits=Sum("amount", filter=Q(direction=CashierDirection.DEPOSIT)),
    )
    figures = {
        "cash": balance_of(player_cash_account(user, currency)),
        "at_tables": money_at_tables(user, currency),
        "withheld": withheld_total(user, currency),
        "pending_withdrawals": int(pending["withdrawals"] or 0),
        "pending_deposits": int(pending["deposits"] or 0),
    }
    answer: dict[str, Any] = {"currency": currency}
    for name, cents in figures.items():
        answer[f"{name}_cents"] = cents
        answer[name] = format_money(cents, currency)  # in the request's language, as the pages write it
    return answer


class BalanceView(APIView):
    @extend_schema(summary="The player's cash balance and money at tables", responses=BalanceSerializer)
    def get(self, request: Request) -> Response:
        return Response(player_balance(request.user))


class HistoryPagination(IntegerPositionCursorPagination):
    ordering = "-id"
    page_size = 50


class TransactionsView(ListAPIView[Leg]):
    """The player's cash account history, newest first: one row per movement, with the balance after it."""

    serializer_class = LegHistorySerializer
    pagination_class = HistoryPagination

    def get_queryset(self) -> QuerySet[Leg]:
        account = player_cash_account(self.request.user)  # type: ignore[arg-type]
        return Leg.objects.filter(account=account).select_related("transfer", "account")


class CashierTransactionsView(ListAPIView[CashierTransaction]):
    """The player's deposits and withdrawals, newest first, each with its ``status`` and ``status_label``: a deposit
    waiting for the payment provider is listed here (it is in no balance and no ledger row until it is charged), and a
    withdrawal reads its final status once paid out or returned."""

    serializer_class = CashierTransactionSerializer
    pagination_class = HistoryPagination

    def get_queryset(self) -> QuerySet[CashierTransaction]:
        return CashierTransaction.objects.filter(player_id=self.request.user.pk)


class _CashierView(APIView):
    direction: str

    def perform(self, user: Any, cents: int, key: str) -> CashierTransaction:
        raise NotImplementedError

    def handle_cashier(self, request: Request) -> Response:
        try:
            key = idempotency_key_of(request)
        except WalletError as error:
            return error_response(error)
        if key is None:
            return Response(
                {
                    "error": IDEMPOTENCY_KEY_MISSING,
                    "detail": "Send an Idempotency-Key header with a fresh key (e.g. a UUID) for each "
                    f"{self.direction}; resend the same key to retry safely.",
                },
                status=status.HTTP_400_BAD_REQUEST,
            )
        serializer = CashierRequestSerializer(data=request.data)
        try:
            serializer.is_valid(raise_exception=True)
            cashier_transaction = self.perform(request.user, serializer.validated_data["cents"], key)
        except WalletError as error:
            return error_response(error)
        except ValidationError as error:
            return Response(
                {"error": "invalid_request", "detail": errors_in_words(error.detail)},
                status=status.HTTP_400_BAD_REQUEST,
            )
        return Response(CashierTransactionSerializer(cashier_transaction).data, status=status.HTTP_201_CREATED)


class DepositsView(_CashierView):
    direction = "deposit"

    def perform(self, user: Any, cents: int, key: str) -> CashierTransaction:
        return deposit_through_provider(user, cents, key)

    @extend_schema(
        summary="Deposit through the sandbox payment provider",
        parameters=[IDEMPOTENCY_KEY_HEADER],
        request=CashierRequestSerializer,
        responses={
            201: CashierTransactionSerializer,
            400: WalletErrorSerializer,
            409: WalletErrorSerializer,
            502: WalletErrorSerializer,
        },
    )
    def post(self, request: Request) -> Response:
        return self.handle_cashier(request)


class WithdrawalsView(_CashierView):
    direction = "withdrawal"

    def perform(self, user: Any, cents: int, key: str) -> CashierTransaction:
        return withdrawal_create(user, cents, key)

    @extend_schema(
        summary="Withdraw from the cash balance through the sandbox payment provider",
        parameters=[IDEMPOTENCY_KEY_HEADER],
        request=CashierRequestSerializer,
        responses={
            201: CashierTransactionSerializer,
            400: WalletErrorSerializer,
            409: WalletErrorSerializer,
            502: WalletErrorSerializer,
        },
    )
    def post(self, request: Request) -> Response:
        return self.handle_cashier(request)
