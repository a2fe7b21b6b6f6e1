"""The period of a back-office report (LOB-09): whole days in the site's time zone, at most a year, chosen on a form.

A report page without a period shows the last :data:`DEFAULT_DAYS` days; a bad period is refused on the form with the
reason, never a 500.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta, tzinfo
from typing import Any

from django import forms
from django.http import HttpRequest
from django.utils import timezone

LONGEST_PERIOD = timedelta(days=366)
"""A report covers at most this many days (a year, leap day included)."""
DEFAULT_DAYS = 30


def period_check(first_day: date, last_day: date) -> None:
    """Raise ValueError for a period that ends before it starts or is longer than :data:`LONGEST_PERIOD`."""
    if last_day < first_day:
        raise ValueError("The period ends before it starts.")
    if last_day - first_day >= LONGEST_PERIOD:
        raise ValueError(f"A report covers at most {LONGEST_PERIOD.days} days.")


def period_bounds(first_day: date, last_day: date, zone: tzinfo) -> tuple[datetime, datetime]:
    """The first instant of ``first_day`` and the first instant after ``last_day`` in ``zone``."""
    start = datetime.combine(first_day, time.min, tzinfo=zone)
    return start, datetime.combine(last_day + timedelta(days=1), time.min, tzinfo=zone)


class ReportPeriodForm(forms.Form):
    first_day = forms.DateField(label="From", widget=forms.DateInput(attrs={"type": "date"}))
    last_day = forms.DateField(label="To (included)", widget=forms.DateInput(attrs={"type": "date"}))

    def clean(self) -> dict[str, Any]:
        cleaned: dict[str, Any] = super().clean() or {}
        first, last = cleaned.get("first_day"), cleaned.get("last_day")
        if first and last and last < first:
            raise forms.ValidationError("The period ends before it starts.")
        if first and last and last - first >= LONGEST_PERIOD:
            raise forms.ValidationError("A report covers at most 366 days: choose a shorter period.")
        return cleaned


def requested_period(request: HttpRequest) -> tuple[ReportPeriodForm, tuple[date, date] | None]:
    """The period form bound to the query string, and the period it chose: the last :data:`DEFAULT_DAYS` days when
    the query names none, None while what it names is not valid."""
    today = timezone.localdate()
    default = (today - timedelta(days=DEFAULT_DAYS - 1), today)
    chosen = {name: request.GET[name] for name in ("first_day", "last_day") if name in request.GET}
    form = ReportPeriodForm(chosen or None, initial={"first_day": default[0], "last_day": default[1]})
    if not chosen:
        return form, default
    if form.is_valid():
        return form, (form.cleaned_data["first_day"], form.cleaned_data["last_day"])
    return form, None
