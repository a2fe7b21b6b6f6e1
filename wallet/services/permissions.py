"""Checks the staff-facing wallet services make themselves, whatever view, admin page or task calls them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from wallet.errors import NotPermitted, ReasonRequired

if TYPE_CHECKING:
    from poker_site.accounts.models import User

ADJUST_BALANCE = "wallet.adjust_balance"
PROPOSE_ADJUSTMENT = "wallet.propose_adjustment"
APPROVE_ADJUSTMENT = "wallet.approve_adjustment"
APPROVE_ANY_ADJUSTMENT = "wallet.approve_any_adjustment"
WITHHOLD_WINNINGS = "wallet.withhold_winnings"
RELEASE_HOLD = "wallet.release_hold"
SEIZE_HOLD = "wallet.seize_hold"


def require_permission(user: User | None, permission: str, action: str) -> None:
    """Raise ``NotPermitted`` unless ``user`` is active and holds ``permission``."""
    if user is None or not user.is_active or not user.has_perm(permission):
        who = user.get_username() if user is not None else "nobody"
        raise NotPermitted(f"{who} may not {action} (needs the {permission} permission).")


def require_reason(reason: object, action: str) -> str:
    """The reason, stripped; ``ReasonRequired`` when it is missing or blank."""
    if not isinstance(reason, str) or not reason.strip():
        raise ReasonRequired(f"A written reason is required to {action}.")
    return reason.strip()
