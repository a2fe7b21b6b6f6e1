"""Forms of the cashier pages and the admin."""

from __future__ import annotations

import uuid
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from wallet.errors import InvalidAmount
from wallet.models import AdjustmentCategory
from wallet.services import check_idempotency_key, parse_euros_to_cents


class AmountForm(forms.Form):
    """An amount in euros typed by the player, and the idempotency key the page was rendered with."""

    amount = forms.CharField(
        label=_("Amount in euros"),
        max_length=32,
        help_text=_("For example 25 or 12.50."),
        widget=forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off"}),
    )
    idempotency_key = forms.CharField(widget=forms.HiddenInput, max_length=100)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # A fresh key per rendered form: resubmitting the same page never moves money twice.
        kwargs.setdefault("initial", {"idempotency_key": uuid.uuid4().hex})
        super().__init__(*args, **kwargs)

    def clean_amount(self) -> int:
        try:
            return parse_euros_to_cents(self.cleaned_data["amount"])
        except InvalidAmount as error:
            raise forms.ValidationError(str(error)) from error

    def clean_idempotency_key(self) -> str:
        try:
            return check_idempotency_key(self.cleaned_data["idempotency_key"])
        except Exception as error:
            raise forms.ValidationError(_("The form expired; please submit it again.")) from error


class SignedEurosField(forms.CharField):
    """Euros with an optional leading minus: "-12.50" debits, "12.50" credits (staff adjustments)."""

    def clean(self, value: Any) -> int:
        text = super().clean(value).strip()
        negative = text.startswith("-")
        try:
            cents = parse_euros_to_cents(text[1:] if negative else text)
        except InvalidAmount as error:
            raise forms.ValidationError(str(error)) from error
        return -cents if negative else cents


class AdjustmentProposalForm(forms.Form):
    """Propose a manual adjustment (issue 30): a second staff member approves it before anything is booked."""

    account = forms.IntegerField(
        label=_("Player cash account id"),
        min_value=1,
        help_text=_("Only a player's cash account: house, withdrawal, outside-world and game accounts are refused."),
    )
    amount = SignedEurosField(
        label=_("Amount in euros"),
        max_length=33,
        help_text=_(
            "Positive credits the player, negative (e.g. -5.00) debits; the house adjustments account takes the "
            "other side. Every debit and any credit above the support limit needs an administrator's approval."
        ),
    )
    category = forms.ChoiceField(label=_("Category"), choices=AdjustmentCategory.choices)
    reason = forms.CharField(
        label=_("Reason"),
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("Required: why, with the hand, tournament or ticket it concerns. Kept in the audit trail."),
    )
    idempotency_key = forms.CharField(widget=forms.HiddenInput, max_length=100)


class ProposalApprovalForm(forms.Form):
    note = forms.CharField(label=_("Comment (optional)"), required=False, widget=forms.Textarea(attrs={"rows": 2}))


class ProposalRejectionForm(forms.Form):
    note = forms.CharField(label=_("Reason for the rejection"), widget=forms.Textarea(attrs={"rows": 3}))


class HoldDecisionForm(forms.Form):
    decision = forms.ChoiceField(
        label=_("Decision"),
        choices=[("release", _("Release to the player")), ("seize", _("Seize (to the house)"))],
        widget=forms.RadioSelect,
    )
    reason = forms.CharField(label=_("Reason"), widget=forms.Textarea(attrs={"rows": 3}))


class ResolutionProposalForm(forms.Form):
    """Propose whom an unresolved game's funds go to (CASH-25, issue 30): a second staff member approves it."""

    payouts = forms.CharField(
        label=_("Payouts"),
        widget=forms.Textarea(attrs={"rows": 5, "cols": 50}),
        help_text=_(
            'One player a line: the username and the amount in euros, e.g. "alice 6.00"; adding up to the '
            "case's funds."
        ),
    )
    reason = forms.CharField(label=_("Reason"), widget=forms.Textarea(attrs={"rows": 3}))

    def clean_payouts(self) -> list[dict[str, int]]:
        from poker_site.accounts.models import User, username_without_case
        from wallet.errors import InvalidAmount
        from wallet.services import parse_euros_to_cents, player_cash_account

        payouts = []
        for number, line in enumerate(self.cleaned_data["payouts"].splitlines(), start=1):
            if not line.strip():
                continue
            parts = line.split()
            if len(parts) != 2:
                raise forms.ValidationError(
                    _("Line %(number)s: write a username and an amount in euros.") % {"number": number}
                )
            player = User.objects.filter(username_without_case(parts[0])).first()  # "Pat" finds "pat"
            if player is None:
                raise forms.ValidationError(
                    _("Line %(number)s: there is no player %(name)s.") % {"number": number, "name": parts[0]}
                )
            try:
                amount = parse_euros_to_cents(parts[1])
            except InvalidAmount as error:
                raise forms.ValidationError(f"{number}: {error}") from error
            payouts.append({"account": player_cash_account(player).pk, "amount": amount})
        return payouts
