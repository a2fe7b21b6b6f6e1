"""Forms of the compliance desk: each checks its input so a service is called only with what it can take."""

from __future__ import annotations

import re
import uuid
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

from django import forms
from django.http import QueryDict
from django.utils.translation import gettext_lazy as _

from compliance.models import (
    Case,
    CaseOutcome,
    Standing,
    VideoOutcome,
)
from wallet.errors import InvalidAmount
from wallet.models import Hold
from wallet.services import parse_euros_to_cents

TEXT = forms.Textarea(attrs={"rows": 3})
DATE = forms.DateInput(attrs={"type": "date"})


class EurosField(forms.CharField):
    """An amount in euros ("25", "12.50") as cents."""

    def clean(self, value: Any) -> int | None:
        text = super().clean(value)
        if not text:
            return None
        try:
            return parse_euros_to_cents(text)
        except InvalidAmount as error:
            raise forms.ValidationError(str(error)) from error


class NumbersField(forms.CharField):
    """Ids separated by commas or spaces ("12, 13 14") as a list of ints."""

    def clean(self, value: Any) -> list[int]:
        text = super().clean(value) or ""
        parts = [part for part in re.split(r"[\s,]+", text.strip()) if part]
        if any(not part.lstrip("#").isdigit() for part in parts):
            raise forms.ValidationError(_("Give numbers separated by commas, e.g. 12, 13."))
        return [int(part.lstrip("#")) for part in parts]


class SubjectForm(forms.Form):
    """A form about one of the case's subject accounts."""

    player: forms.ModelChoiceField[Any] = forms.ModelChoiceField(queryset=None, label=_("Player"))

    def __init__(self, *args: Any, case: Case, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = case.subjects.order_by("username")  # type: ignore[attr-defined]
        self.fields["player"].label_from_instance = lambda user: user.username  # type: ignore[attr-defined]


class NoteForm(forms.Form):
    text = forms.CharField(label=_("Note"), widget=TEXT, max_length=4000)


class LinkForm(forms.Form):
    usernames = forms.CharField(label=_("Players (usernames)"), required=False, max_length=500)
    hands = NumbersField(label=_("Hand ids"), required=False, max_length=500)
    tournaments = NumbersField(label=_("Tournament ids"), required=False, max_length=500)

    def clean_usernames(self) -> list[str]:
        return [name for name in re.split(r"[\s,]+", self.cleaned_data["usernames"].strip()) if name]


class OpenCaseForm(LinkForm):
    title = forms.CharField(label=_("Title"), max_length=200)
    note = forms.CharField(label=_("Why"), widget=TEXT, required=False, max_length=4000)


class HoldForm(SubjectForm):
    amount = EurosField(label=_("Amount in euros"), max_length=32)
    reason = forms.CharField(
        label=_("Reason (the player reads it)"),
        widget=TEXT,
        max_length=4000,
        help_text=_("Shown to the player when a withdrawal is refused while the account is under review."),
    )
    idempotency_key = forms.CharField(widget=forms.HiddenInput, max_length=64)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("initial", {}).setdefault("idempotency_key", uuid.uuid4().hex)
        super().__init__(*args, **kwargs)

    def clean_amount(self) -> int:
        amount = self.cleaned_data["amount"]
        if amount is None:
            raise forms.ValidationError(_("Give the amount to withhold."))
        return int(amount)


class HoldDecisionForm(forms.Form):
    hold = forms.ModelChoiceField(queryset=Hold.objects.none(), label=_("Hold"))
    reason = forms.CharField(label=_("Reason"), widget=TEXT, max_length=4000)

    def __init__(self, *args: Any, case: Case, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Every hold of the case is offered (a decided one is refused by the wallet, with when it was decided).
        self.fields["hold"].queryset = Hold.objects.filter(  # type: ignore[attr-defined]
            review_reference=case.reference
        ).order_by("pk")


class SeizeForm(HoldDecisionForm):
    """Proposes a seizure (issue 30): another reviewer approves it in the rule change proposals; the money moves
    only then."""

    amount = EurosField(
        label=_("Amount to seize in euros"),
        required=False,
        max_length=32,
        help_text=_("Empty: the whole hold. Less than the hold: the rest goes back to the player."),
    )


class StandingForm(SubjectForm):
    state = forms.ChoiceField(label=_("Account state"), choices=Standing.choices)
    reason = forms.CharField(label=_("Reason (the player reads it)"), widget=TEXT, max_length=4000)


class BanzaiForm(SubjectForm):
    excluded = forms.TypedChoiceField(
        label=_("Banzai"),
        choices=[("yes", _("Exclude from Banzai")), ("no", _("Readmit to Banzai"))],
        coerce=lambda value: value == "yes",
    )
    reason = forms.CharField(label=_("Reason"), widget=TEXT, max_length=4000)


class DisclosureForm(SubjectForm):
    recipient = forms.CharField(label=_("Disclosed to"), max_length=300)
    information = forms.CharField(label=_("Information disclosed"), widget=TEXT, max_length=4000)
    reason = forms.CharField(label=_("Grounds"), widget=TEXT, max_length=4000)


class DisqualifyForm(forms.Form):
    entry = forms.IntegerField(label=_("Tournament entry id"), min_value=1)
    forfeit_prize = forms.BooleanField(label=_("Forfeit an unpaid prize"), required=False)
    # --- cancel-desk: partial forfeiture and the bar (TRN-28, TRN-09 / FRD-15) ---
    forfeit_amount = forms.DecimalField(
        label=_("Or forfeit only this part of the unpaid prize (€)"),
        required=False,
        min_value=Decimal("0.01"),
        max_digits=12,
        decimal_places=2,
        help_text=_("The rest is paid to the player at once."),
    )
    bar = forms.BooleanField(label=_("Also bar the player from tournaments"), required=False)
    reason = forms.CharField(label=_("Reason"), widget=TEXT, max_length=300)

    def clean(self) -> dict[str, Any]:
        cleaned: dict[str, Any] = super().clean() or {}
        if cleaned.get("forfeit_prize") and cleaned.get("forfeit_amount") is not None:
            raise forms.ValidationError(_("Forfeit the whole prize or a part of it, not both."))
        return cleaned

    @property
    def forfeit_cents(self) -> int | None:
        amount = self.cleaned_data.get("forfeit_amount")
        return None if amount is None else int(amount * 100)


class VideoRequestForm(SubjectForm):
    deadline = forms.DateTimeField(
        label=_("Deadline (UTC)"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )
    instructions = forms.CharField(label=_("What is requested"), widget=TEXT, max_length=4000)

    def clean_deadline(self) -> datetime:
        deadline: datetime = self.cleaned_data["deadline"]
        return deadline.replace(tzinfo=UTC) if deadline.tzinfo is None else deadline


class VideoOutcomeForm(forms.Form):
    request = forms.IntegerField(label=_("Request"), min_value=1)
    outcome = forms.ChoiceField(
        label=_("Outcome"), choices=[choice for choice in VideoOutcome.choices if choice[0] != VideoOutcome.PENDING]
    )
    file_reference = forms.CharField(label=_("Received file reference"), required=False, max_length=300)
    note = forms.CharField(label=_("Note"), widget=TEXT, required=False, max_length=4000)


class CloseForm(forms.Form):
    outcome = forms.ChoiceField(label=_("Outcome"), choices=CaseOutcome.choices)
    decision = forms.CharField(label=_("Decision"), widget=TEXT, max_length=4000)


class QueueFilterForm(forms.Form):
    """The flag queue's filters; each is optional. ``player`` takes a bare name or ``player:name``, as every list."""

    STATUSES = (
        ("open", _("open: awaiting review")),
        ("in_case", _("taken into a case")),
        ("dismissed", _("dismissed")),
        ("retracted", _("retracted")),
        ("all", _("any status")),
    )

    indicator = forms.ChoiceField(label=_("Indicator"), required=False)
    status = forms.ChoiceField(label=_("Status"), choices=STATUSES, required=False)
    player = forms.CharField(label=_("Player"), required=False, max_length=160)
    raised_from = forms.DateField(
        label=_("Raised from"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    raised_to = forms.DateField(label=_("Raised to"), required=False, widget=forms.DateInput(attrs={"type": "date"}))

    def __init__(self, *args: Any, indicators: dict[str, str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["indicator"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [("", _("every indicator")), *sorted(indicators.items(), key=lambda item: item[1])]

    def clean_player(self) -> str:
        text = str(self.cleaned_data.get("player") or "").strip()
        return text.removeprefix("player:").strip()


class BulkDismissForm(forms.Form):
    flags = forms.TypedMultipleChoiceField(label=_("Flags"), coerce=int, choices=())
    reason = forms.CharField(label=_("Why they are dismissed"), widget=TEXT, max_length=4000)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Any positive number is offered: the service refuses a number that is no open flag, naming it.
        field = self.fields["flags"]
        assert isinstance(field, forms.TypedMultipleChoiceField)
        offered = self.data.getlist("flags") if isinstance(self.data, QueryDict) else []
        field.choices = [(value, value) for value in offered if str(value).isdigit()]


class DismissForm(forms.Form):
    reason = forms.CharField(label=_("Why it is dismissed"), widget=TEXT, max_length=4000)


class AddToCaseForm(forms.Form):
    case = forms.IntegerField(label=_("Case number"), min_value=1)


class ReportForm(forms.Form):
    """A player's report on one of their hands (FRD-12)."""

    reported = forms.MultipleChoiceField(label=_("Players you report"), widget=forms.CheckboxSelectMultiple)
    text = forms.CharField(
        label=_("What happened"),
        widget=forms.Textarea(attrs={"rows": 5}),
        max_length=2000,
        help_text=_("Describe what made you suspect collusion or cheating (at most 2,000 characters)."),
    )

    def __init__(self, *args: Any, others: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["reported"].choices = [(str(user_id), name) for user_id, name in others]  # type: ignore[attr-defined]
