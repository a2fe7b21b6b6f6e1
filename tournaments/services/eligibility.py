"""Freeroll entry requirements on the site (TRN-17, FEE-05): the player's profile the rules are checked against, the
requirements in the player's language for the lobby and the refusal, and the check a definition's requirements pass
before they are stored.

The pure rule language is ``tournaments.rules.eligibility``; a ticket requirement ``{"ticket": "<series name>"}``
is met by a usable ticket (available, not expired) for the tournament series of that name. Meeting it does not spend
the ticket: a freeroll costs nothing, the ticket is the proof of qualification."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from tournaments.models import USABLE_TICKET_STATUSES, TournamentSeries, TournamentTicket
from tournaments.rules.common import RuleError
from tournaments.rules.eligibility import (
    AccountAgeAtLeast,
    AllOf,
    AnyOf,
    DepositedAtLeast,
    HoldsTicket,
    PlayerProfile,
    Requirement,
    VipLevelAtLeast,
    parse_requirement,
)
from wallet.errors import format_cents
from wallet.models import AccountKind, Leg


def player_profile(user: Any, now: datetime | None = None) -> PlayerProfile:
    """What entry requirements are checked against: account age, deposits so far, and the series the player holds a
    usable ticket for."""
    moment = now or timezone.now()
    deposited = (
        Leg.objects.filter(
            account__owner=user, account__kind=AccountKind.PLAYER_CASH, transfer__kind="deposit", amount__gt=0
        ).aggregate(total=Sum("amount"))["total"]
        or 0
    )
    series = TournamentTicket.objects.filter(
        user=user, status__in=USABLE_TICKET_STATUSES, expires_at__gt=moment, series__isnull=False
    ).values_list("series__name", flat=True)
    return PlayerProfile(
        account_created_at=user.date_joined, deposited_cents=int(deposited), ticket_kinds=frozenset(series)
    )


def requirement_words(rule: Requirement) -> str:
    """``rule`` in the active language (the lobby's "Entry requirements" and the refusal's reasons)."""
    if isinstance(rule, HoldsTicket):
        return gettext("holds a ticket for %(series)s") % {"series": rule.kind}
    if isinstance(rule, AccountAgeAtLeast):
        return ngettext(
            "account opened at least %(days)d day ago", "account opened at least %(days)d days ago", rule.days
        ) % {"days": rule.days}
    if isinstance(rule, DepositedAtLeast):
        return gettext("has deposited at least %(amount)s") % {"amount": format_cents(rule.cents)}
    if isinstance(rule, VipLevelAtLeast):
        return gettext("VIP level %(level)d or higher") % {"level": rule.level}
    if isinstance(rule, AllOf):
        if not rule.rules:
            return gettext("open to everyone")
        return gettext(" and ").join(_grouped(part) for part in rule.rules)
    return gettext("either %(choices)s") % {"choices": gettext(" or ").join(_grouped(part) for part in rule.rules)}


def _grouped(rule: Requirement) -> str:
    words = requirement_words(rule)
    return f"({words})" if isinstance(rule, AllOf | AnyOf) and len(rule.rules) > 1 else words


def eligibility_words(data: object) -> str:
    """A definition's stored requirements in words; empty when there are none (or they cannot be read)."""
    if not data:
        return ""
    try:
        return requirement_words(parse_requirement(data))
    except RuleError:
        return ""


def eligibility_validate(data: object) -> None:
    """A definition's requirements as staff typed them: the rule language of ``tournaments.rules.eligibility``, and
    every ticket requirement naming an existing tournament series. :class:`ValidationError` says what is wrong."""
    if not data:
        return
    try:
        requirement = parse_requirement(data)
    except RuleError as error:
        raise ValidationError(f"Not a valid entry requirement: {error}.") from error
    named = sorted(_ticket_kinds(requirement))
    known = set(TournamentSeries.objects.filter(name__in=named).values_list("name", flat=True))
    unknown = [name for name in named if name not in known]
    if unknown:
        raise ValidationError(
            "A ticket requirement names a tournament series; there is no series named " + ", ".join(unknown) + "."
        )


def _ticket_kinds(rule: Requirement) -> set[str]:
    if isinstance(rule, HoldsTicket):
        return {rule.kind}
    if isinstance(rule, AllOf | AnyOf):
        return set().union(*(_ticket_kinds(part) for part in rule.rules)) if rule.rules else set()
    return set()
