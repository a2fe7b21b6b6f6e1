"""Reading a player's account standing (FRD-18) where the rest of the site needs it: signing in (a suspended or
terminated account signs nobody in) and withdrawing (an account under review can play but cannot withdraw, FRD-04).

Changes go through :mod:`compliance.services.standing`; these functions only read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db.models import Exists, OuterRef, QuerySet
from django.utils.translation import gettext as _

from compliance.models import BLOCKED_STANDINGS, NO_WITHDRAWAL_STANDINGS, AccountStanding, Standing

if TYPE_CHECKING:
    from poker_site.accounts.models import User


def _blocked(user_id: Any) -> Exists:
    return Exists(AccountStanding.objects.filter(user_id=user_id, state__in=BLOCKED_STANDINGS))


def with_sign_in_blocked(users: QuerySet[Any]) -> QuerySet[Any]:
    """``users`` annotated with ``sign_in_blocked`` (suspended or terminated), read in the same query."""
    return users.annotate(sign_in_blocked=_blocked(OuterRef("pk")))


def sign_in_blocked(user_id: int) -> bool:
    return AccountStanding.objects.filter(user_id=user_id, state__in=BLOCKED_STANDINGS).exists()


def sign_in_refusal(user_id: int) -> str:
    """What a suspended or terminated player is told at log-in ("" for any other account)."""
    standing = AccountStanding.objects.filter(user_id=user_id, state__in=BLOCKED_STANDINGS).first()
    if standing is None:
        return ""
    if standing.state == Standing.TERMINATED:
        return _("This account has been closed. Contact support if you have questions.")
    return _("This account is suspended: %(reason)s Contact support if you have questions.") % {
        "reason": standing.reason.rstrip(".") + "."
    }


def withdrawal_refusal(user: User) -> str | None:
    """The wallet's withdrawal check (registered in ``ComplianceConfig.ready``): why this player may not withdraw
    now, or ``None``."""
    standing = AccountStanding.objects.filter(user_id=user.pk, state__in=NO_WITHDRAWAL_STANDINGS).first()
    if standing is None:
        return None
    return _("Withdrawals are on hold while your account is under review: %(reason)s") % {"reason": standing.reason}


def standing_of(user_id: int) -> AccountStanding:
    """The player's standing (an unsaved active one when there is no row)."""
    return AccountStanding.objects.filter(user_id=user_id).first() or AccountStanding(user_id=user_id)
