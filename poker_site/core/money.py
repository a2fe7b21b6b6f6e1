"""Money as staff read and type it: euros on the page, integer cents in the database (issue 30).

* :func:`euros` is the one display helper: ``1234`` → ``"€12.34"``, ``-5`` → ``"-€0.05"``, with ``signed=True``
  ``"+€12.34"`` for a credit. Every back-office figure goes through it (``wallet.errors.format_cents`` is it too).
* :class:`EurosField` is the one form field for an amount typed in euros: ``"12.50"``, ``"12,50"`` and ``"12"`` are
  1,250 and 1,200 cents; more than two decimals, signs where none is allowed, letters, exponents and thousands
  separators are refused with the reason on the field. The form's value is cents; a bound form shows the cents it was
  given as euros (``1250`` → ``"12.50"``).
* :func:`cents_fields_in_euros` turns a model form's cents fields (those whose verbose name says "cents") into
  :class:`EurosField` s, so the tournament and stake forms ask for euros while the models keep cents.
"""

from __future__ import annotations

import re
from typing import Any

from django import forms

MAXIMUM_CENTS = 10**15
"""Far above any real amount (the ledger's own limit is lower); keeps the digits typed bounded."""
SYMBOLS = {"EUR": "€"}
_EUROS = re.compile(r"(0|[1-9][0-9]{0,12})(?:[.,]([0-9]{1,2}))?")


def euros(cents: object, currency: str = "EUR", *, signed: bool = False, empty: str = "") -> str:
    """Integer cents as money: ``"€12.34"``, ``"-€0.05"`` (``"+€12.34"`` when ``signed``). ``empty`` for None or "";
    a value that is not a whole number is shown as it is, never as a wrong amount."""
    if cents is None or cents == "":
        return empty
    if isinstance(cents, bool) or not isinstance(cents, int):
        try:
            cents = int(str(cents))
        except ValueError:
            return str(cents)
    sign = "-" if cents < 0 else ("+" if signed and cents > 0 else "")
    whole, fraction = divmod(abs(cents), 100)
    symbol = SYMBOLS.get(currency, f"{currency} ")
    return f"{sign}{symbol}{whole:,}.{fraction:02d}"


def euros_to_cents(text: str, *, allow_negative: bool = False) -> int:
    """``"12.50"`` / ``"12,50"`` / ``"12"`` → cents; ValueError with a message for the person who typed it."""
    stripped = text.strip().replace("€", "").strip()
    negative = stripped.startswith("-")
    if negative:
        if not allow_negative:
            raise ValueError("The amount cannot be negative here.")
        stripped = stripped[1:].strip()
    match = _EUROS.fullmatch(stripped)
    if match is None:
        if re.fullmatch(r"[0-9]+[.,][0-9]{3,}", stripped):
            raise ValueError("Use at most two decimals (whole cents), for example 12.50.")
        raise ValueError(f"{text.strip()!r} is not an amount in euros; write it like 12.50 or 12,50.")
    whole, fraction = match.group(1), match.group(2) or ""
    cents = int(whole) * 100 + int(fraction.ljust(2, "0"))
    return -cents if negative else cents


class EurosField(forms.CharField):
    """An amount typed in euros; cleans to integer cents (None when empty and not required).

    ``allow_negative``: a leading minus is accepted (e.g. an adjustment's debit). ``min_cents`` / ``max_cents``: the
    bounds, refused with the amount in euros."""

    def __init__(
        self,
        *,
        allow_negative: bool = False,
        min_cents: int | None = None,
        max_cents: int | None = MAXIMUM_CENTS,
        **kwargs: Any,
    ) -> None:
        self.allow_negative = allow_negative
        self.min_cents = min_cents
        self.max_cents = max_cents
        kwargs.setdefault("max_length", 24)
        kwargs.setdefault("widget", forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off"}))
        super().__init__(**kwargs)

    def prepare_value(self, value: Any) -> Any:
        """Cents from the model (an int) are shown as euros without the symbol; typed text is shown as typed."""
        if isinstance(value, int) and not isinstance(value, bool):
            sign = "-" if value < 0 else ""
            return f"{sign}{abs(value) // 100}.{abs(value) % 100:02d}"
        return value

    def to_python(self, value: Any) -> int | None:  # type: ignore[override]
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        text = super().to_python(value)
        if text is None or text in self.empty_values:
            return None
        try:
            cents = euros_to_cents(text, allow_negative=self.allow_negative)
        except ValueError as error:
            raise forms.ValidationError(str(error), code="invalid") from error
        if self.min_cents is not None and cents < self.min_cents:
            raise forms.ValidationError(f"The amount must be at least {euros(self.min_cents)}.", code="min_value")
        if self.max_cents is not None and cents > self.max_cents:
            raise forms.ValidationError(f"The amount must be at most {euros(self.max_cents)}.", code="max_value")
        return cents

    def validate(self, value: Any) -> None:
        if value is None and self.required:
            raise forms.ValidationError(self.error_messages["required"], code="required")

    def run_validators(self, value: Any) -> None:
        """The CharField's length validators apply to the text typed, checked in ``to_python``; cents need none."""


def cents_fields_in_euros(form: forms.ModelForm[Any]) -> None:
    """Replace each of ``form``'s fields stored in cents (the model field's verbose name says "cents") by an
    :class:`EurosField` with the same label ("cents" in it becomes "€"), help text, requirement and initial value;
    negatives are refused unless the model field allows them (a ``PositiveBigIntegerField`` does not)."""
    from django.db import models

    model = form._meta.model
    for name, field in list(form.fields.items()):
        try:
            model_field = model._meta.get_field(name)
        except Exception:  # a form-only field
            continue
        if "cents" not in str(getattr(model_field, "verbose_name", "")):
            continue
        label = re.sub(r"\bcents\b", "€", str(field.label or name))
        positive = isinstance(model_field, models.PositiveBigIntegerField | models.PositiveIntegerField)
        replacement = EurosField(
            label=label,
            required=field.required,
            help_text=field.help_text,
            initial=field.initial,
            disabled=field.disabled,
            allow_negative=not positive,
            min_cents=0 if positive else None,
        )
        form.fields[name] = replacement


MONEY_KEYS = frozenset({"amount", "balance", "buy_in", "fee", "prize", "bounty", "guarantee", "rake", "pot_total"})
"""Keys of audit details that hold cents wherever they appear (besides any ``…_cents`` key)."""


def cents_field_names(target: str) -> frozenset[str]:
    """The cents fields (verbose name says "cents") of the model an audit target names (``"app.model:pk"``)."""
    from django.apps import apps

    label = target.split(":", 1)[0]
    try:
        model = apps.get_model(label)
    except (LookupError, ValueError):
        return frozenset()
    return frozenset(
        field.name for field in model._meta.get_fields() if "cents" in str(getattr(field, "verbose_name", ""))
    )


def amounts_in_euros(value: Any, money_keys: frozenset[str] = frozenset()) -> Any:
    """A JSON value (audit details, before, after) with each amount of cents shown in euros: the values of keys in
    :data:`MONEY_KEYS` or ``money_keys`` or ending in ``_cents`` that are whole numbers, at any depth."""
    if isinstance(value, dict):
        return {
            key: euros(item)
            if isinstance(item, int)
            and not isinstance(item, bool)
            and (key in MONEY_KEYS or key in money_keys or key.endswith("_cents"))
            else amounts_in_euros(item, money_keys)
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [amounts_in_euros(item, money_keys) for item in value]
    return value
