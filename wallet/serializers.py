"""DRF serializers of the wallet API. Amounts are integer cents plus a formatted string for display."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from poker_site.core.strict_input import StrictSerializer
from wallet.errors import InvalidAmount, format_cents
from wallet.models import CashierStatus, CashierTransaction, Leg
from wallet.services import MAX_AMOUNT_CENTS, cashier_status_label, check_positive_amount, parse_euros_to_cents


class BalanceSerializer(serializers.Serializer):
    currency = serializers.CharField()
    cash_cents = serializers.IntegerField(help_text="Cash balance: what can be played or withdrawn.")
    cash = serializers.CharField(help_text='Formatted, e.g. "€12.34".')
    at_tables_cents = serializers.IntegerField(help_text="Money at cash tables right now (not withdrawable).")
    at_tables = serializers.CharField()
    withheld_cents = serializers.IntegerField(help_text="Funds withheld pending a game-play review (FRD-04).")
    withheld = serializers.CharField()
    pending_withdrawals_cents = serializers.IntegerField(help_text="Withdrawals awaiting payout.")
    pending_withdrawals = serializers.CharField()
    pending_deposits_cents = serializers.IntegerField(
        help_text="Deposits waiting for the payment provider (reserved, not yet charged and credited)."
    )
    pending_deposits = serializers.CharField()


class LegHistorySerializer(serializers.ModelSerializer):
    kind = serializers.CharField(source="transfer.kind")
    reference = serializers.CharField(source="transfer.reference")
    description = serializers.CharField(source="transfer.description")
    transfer_id = serializers.IntegerField()
    amount_cents = serializers.IntegerField(source="amount", help_text="Positive: money in; negative: money out.")
    amount = serializers.SerializerMethodField()
    balance_after_cents = serializers.IntegerField(source="balance_after")
    created_at = serializers.DateTimeField(source="transfer.created_at")

    class Meta:
        model = Leg
        fields = [
            "id",
            "transfer_id",
            "kind",
            "reference",
            "description",
            "amount_cents",
            "amount",
            "balance_after_cents",
            "created_at",
        ]

    def get_amount(self, leg: Leg) -> str:
        return format_cents(leg.amount, leg.account.currency)


class EurosTextField(serializers.CharField):
    """Euros as JSON text only: a JSON number (``12.5``) is refused rather than converted, floats are not money."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            raise InvalidAmount('Send "amount" as text in euros, e.g. "12.34", or "amount_cents" as an integer.')
        return str(super().to_internal_value(data))


class CentsIntegerField(serializers.IntegerField):
    """Positive cents within the ledger's limit, as a JSON integer only: a boolean, a float (``1000.0`` too) or text
    (``"1000"``, and so any form field) is refused rather than converted, with :class:`InvalidAmount`."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(min_value=1, max_value=MAX_AMOUNT_CENTS, **kwargs)

    def to_internal_value(self, data: Any) -> int:
        if type(data) is not int:
            raise InvalidAmount(
                f'Send "amount_cents" as a JSON integer of cents, e.g. 1234, not {type(data).__name__}; '
                'or "amount" as text in euros, e.g. "12.34".'
            )
        return check_positive_amount(data, what="amount_cents")


class CashierRequestSerializer(StrictSerializer):
    """Exactly one of ``amount`` (euros as text, e.g. "12.34") or ``amount_cents`` (integer)."""

    amount = EurosTextField(
        required=False, trim_whitespace=False, help_text='Euros as text, e.g. "12.34" (at most two decimals).'
    )
    amount_cents = CentsIntegerField(required=False, help_text="Integer cents (a JSON integer), e.g. 1234.")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        has_text, has_cents = "amount" in attrs, "amount_cents" in attrs
        if has_text == has_cents:
            raise InvalidAmount('Give exactly one of "amount" (euros as text, e.g. "12.34") or "amount_cents".')
        if has_text:
            return {"cents": parse_euros_to_cents(attrs["amount"])}
        return {"cents": attrs["amount_cents"]}


class CashierTransactionSerializer(serializers.ModelSerializer):
    """A deposit or withdrawal. ``status`` is the stable code for programs (pending, completed, failed; read with
    ``direction``); ``status_label`` is the same status in words for people, in the request's language, from
    wallet.services.cashier_status_label, the function the cashier page and the back office use too."""

    amount_cents = serializers.IntegerField(source="amount")
    # The codes alone: the model's choice labels name a pending row "pending payout", wrong for a pending deposit, and
    # the schema would list them as the codes' meanings.
    status = serializers.ChoiceField(
        choices=CashierStatus.values,
        read_only=True,
        help_text="The stable code: pending (a deposit waiting for the payment provider, or a withdrawal waiting for "
        "its payout), completed, or failed (a withdrawal the provider refused, its money returned to the cash "
        "balance).",
    )
    amount = serializers.SerializerMethodField()
    status_label = serializers.SerializerMethodField(
        help_text="The status in words, in the request's language (e.g. 'waiting for the payment provider' for a "
        "pending deposit, 'pending payout' for a pending withdrawal): for showing, never for comparing."
    )
    balance_cents = serializers.SerializerMethodField(help_text="The player's cash balance now.")

    class Meta:
        model = CashierTransaction
        fields = [
            "id",
            "direction",
            "status",
            "status_label",
            "amount_cents",
            "amount",
            "currency",
            "provider",
            "provider_reference",
            "failure_reason",
            "created_at",
            "completed_at",
            "balance_cents",
        ]

    def get_amount(self, cashier_transaction: CashierTransaction) -> str:
        return format_cents(cashier_transaction.amount, cashier_transaction.currency)

    def get_status_label(self, cashier_transaction: CashierTransaction) -> str:
        return cashier_status_label(cashier_transaction)

    def get_balance_cents(self, cashier_transaction: CashierTransaction) -> int:
        from wallet.services import balance_of, player_cash_account

        return balance_of(player_cash_account(cashier_transaction.player, cashier_transaction.currency))


class WalletErrorSerializer(serializers.Serializer):
    error = serializers.CharField(help_text='A stable code, e.g. "insufficient_funds".')
    detail = serializers.CharField(help_text="What was refused and why, for the player.")
