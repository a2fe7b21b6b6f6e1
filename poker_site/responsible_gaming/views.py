"""The responsible-gaming page (/responsible-gaming/): deposit limits, the session reminder's interval and
self-exclusion, and the session figures the reminder shows. Thin: the forms validate, the services decide."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from poker_site.accounts.views import login_required_back_to
from poker_site.core.templatetags.money import format_money
from poker_site.responsible_gaming import services
from poker_site.responsible_gaming.forms import DepositLimitForm, SelfExclusionForm, SessionReminderForm
from poker_site.responsible_gaming.models import DepositLimitChange, LimitPeriod


def _render(request: HttpRequest, *, status: int = 200, **forms: Any) -> HttpResponse:
    user: Any = request.user
    now = timezone.now()
    limits = [
        {
            "period": state.period,
            "label": LimitPeriod(state.period).label,
            "in_force": state.in_force,
            "pending": state.pending,
        }
        for state in services.deposit_limits_of(user.pk, now)
    ]
    context = {
        "limits": limits,
        "limit_form": forms.get("limit_form") or DepositLimitForm(prefix="limit"),
        "reminder_form": forms.get("reminder_form")
        or SessionReminderForm(prefix="reminder", initial={"minutes": user.session_reminder_minutes}),
        "exclusion_form": forms.get("exclusion_form") or SelfExclusionForm(prefix="exclusion"),
        "exclusion": services.self_exclusion_active(user.pk, now),
    }
    return render(request, "responsible_gaming/overview.html", context, status=status)


@login_required
@require_GET
def overview(request: HttpRequest) -> HttpResponse:
    return _render(request)


@login_required_back_to("responsible_gaming:overview")
@require_POST
def deposit_limit(request: HttpRequest) -> HttpResponse:
    form = DepositLimitForm(request.POST, prefix="limit")
    if form.is_valid():
        try:
            change = services.deposit_limit_set(
                request.user,  # type: ignore[arg-type]
                form.cleaned_data["period"],
                form.cleaned_data["cents"],
            )
        except services.ResponsibleGamingError as error:
            form.add_error(None, error.message)
        else:
            user: Any = request.user
            messages.success(request, _limit_message(user.pk, form.cleaned_data["period"], change))
            return redirect("responsible_gaming:overview")
    return _render(request, limit_form=form, status=400)


def _limit_message(user_id: int, period: str, change: DepositLimitChange | None) -> str:
    label = LimitPeriod(period).label
    if change is None:
        state = next(state for state in services.deposit_limits_of(user_id) if state.period == period)
        if state.pending is not None:
            return _("Your %(period)s deposit limit already changes to %(amount)s at %(when)s.") % {
                "period": label,
                "amount": _pending_amount(state.pending),
                "when": _when(state.pending.effective_at),
            }
        return _("You have no %(period)s deposit limit.") % {"period": label}
    if change.effective_at <= change.requested_at:
        if change.amount is None:
            return _("You have no %(period)s deposit limit.") % {"period": label}
        return _("Your %(period)s deposit limit is now %(amount)s.") % {
            "period": label,
            "amount": format_money(change.amount),
        }
    if change.amount is None:
        return _("Your %(period)s deposit limit will be removed at %(when)s (24 hours from now).") % {
            "period": label,
            "when": _when(change.effective_at),
        }
    return _("Your %(period)s deposit limit will be %(amount)s from %(when)s (24 hours from now).") % {
        "period": label,
        "amount": format_money(change.amount),
        "when": _when(change.effective_at),
    }


def _when(moment: datetime) -> str:
    return f"{moment.astimezone(UTC):%Y-%m-%d %H:%M} UTC"


def _pending_amount(change: DepositLimitChange) -> str:
    return _("no limit") if change.amount is None else format_money(change.amount)


@login_required_back_to("responsible_gaming:overview")
@require_POST
def deposit_limit_cancel(request: HttpRequest) -> HttpResponse:
    """The player cancels a pending raise or removal: the limit in force stays."""
    period = request.POST.get("period", "")
    try:
        change = services.deposit_limit_cancel_pending(request.user, period)  # type: ignore[arg-type]
    except services.ResponsibleGamingError as error:
        messages.error(request, error.message)
    else:
        label = LimitPeriod(period).label
        if change is None:
            messages.info(request, _("No change of your %(period)s deposit limit was pending.") % {"period": label})
        else:
            messages.success(
                request, _("The pending change of your %(period)s deposit limit is cancelled.") % {"period": label}
            )
    return redirect("responsible_gaming:overview")


@login_required_back_to("responsible_gaming:overview")
@require_POST
def session_reminder(request: HttpRequest) -> HttpResponse:
    form = SessionReminderForm(request.POST, prefix="reminder")
    if form.is_valid():
        try:
            services.session_reminder_set(request.user, form.cleaned_data["minutes"])  # type: ignore[arg-type]
        except services.ResponsibleGamingError as error:
            form.add_error(None, error.message)
        else:
            messages.success(
                request,
                _("You will be reminded every %(minutes)d minutes.") % {"minutes": form.cleaned_data["minutes"]},
            )
            return redirect("responsible_gaming:overview")
    return _render(request, reminder_form=form, status=400)


@login_required_back_to("responsible_gaming:overview")
@require_POST
def self_exclusion(request: HttpRequest) -> HttpResponse:
    form = SelfExclusionForm(request.POST, prefix="exclusion")
    if form.is_valid():
        try:
            result = services.self_exclusion_start(
                request.user,  # type: ignore[arg-type]
                form.cleaned_data["period"],
                confirmed=form.cleaned_data["confirm"],
            )
        except services.ResponsibleGamingError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, _("Your self-exclusion has started."))
            if result.closed:
                messages.info(request, _("Closed: %(places)s.") % {"places": ", ".join(result.closed)})
            if result.not_closed:
                messages.warning(
                    request,
                    _("Could not be closed: %(places)s.") % {"places": "; ".join(result.not_closed)},
                )
            return redirect("responsible_gaming:overview")
    return _render(request, exclusion_form=form, status=400)


def _session_answer(request: HttpRequest) -> JsonResponse:
    now = timezone.now()
    summary = services.session_summary(request, request.user, now=now)  # type: ignore[arg-type]
    return JsonResponse(
        {
            "minutes": summary.minutes,
            "net_result": summary.net_result,
            "net_result_text": format_money(summary.net_result),
            "reminder_in_seconds": max(0, int((summary.reminder_due_at - now).total_seconds())),
        }
    )


@login_required
@require_GET
def session(request: HttpRequest) -> JsonResponse:
    """The session's figures for the reminder: minutes logged in, net result in cents and as text, and the seconds
    until the next reminder is due (0: now)."""
    return _session_answer(request)


@login_required
@require_POST
def session_continue(request: HttpRequest) -> JsonResponse:
    """The player chose to continue: the next reminder is one interval from now."""
    services.session_continue(request)
    return _session_answer(request)
