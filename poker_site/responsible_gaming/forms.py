"""Forms of the responsible-gaming page: they validate input; the services decide."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.functional import lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from poker_site.responsible_gaming.models import ExclusionPeriod, LimitPeriod
from poker_site.responsible_gaming.services import REMINDER_CHOICES
from wallet.errors import InvalidAmount
from wallet.services import parse_euros_to_cents


class DepositLimitForm(forms.Form):
    """One period's limit in euros, or its removal."""

    period = forms.ChoiceField(label=_("Period"), choices=LimitPeriod.choices)
    amount = forms.CharField(
        label=_("Limit in euros"),
        max_length=32,
        required=False,
        help_text=_("For example 100 or 250.50. Leave empty and tick “No limit” to remove the limit."),
        widget=forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off"}),
    )
    remove = forms.BooleanField(label=_("No limit"), required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        text = (data.get("amount") or "").strip()
        if data.get("remove"):
            if text:
                raise forms.ValidationError(_("Either give a limit or tick “No limit”, not both."))
            data["cents"] = None
            return data
        if not text:
            raise forms.ValidationError(_("Give a limit in euros, or tick “No limit”."))
        try:
            data["cents"] = parse_euros_to_cents(text)
        except InvalidAmount as error:
            self.add_error("amount", str(error))
        return data


def _minutes_text(minutes: int) -> str:
    return gettext("%(minutes)d minutes") % {"minutes": minutes}


_minutes_label = lazy(_minutes_text, str)


class SessionReminderForm(forms.Form):
    minutes = forms.TypedChoiceField(
        label=_("Remind me every"),
        choices=[(minutes, _minutes_label(minutes)) for minutes in REMINDER_CHOICES],
        coerce=int,
    )


class SelfExclusionForm(forms.Form):
    period = forms.ChoiceField(label=_("Exclude me for"), choices=ExclusionPeriod.choices)
    confirm = forms.BooleanField(
        label=_("I understand that I cannot play or deposit until it ends, and that it cannot be undone."),
        required=True,
        error_messages={"required": _("Tick the box to confirm the self-exclusion.")},
    )
