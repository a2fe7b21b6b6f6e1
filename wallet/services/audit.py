"""The back office's audit log: who did what, to what, when and why, before and after (GEN-01, FRD-18, LOB-10)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from wallet.models import AuditEntry, Transfer

if TYPE_CHECKING:
    from poker_site.accounts.models import User

# Every action the wallet records (the admin filters on these without scanning the table).
AUDIT_ACTIONS = (
    "deposit",
    "withdrawal_requested",
    "withdrawal_paid",
    "withdrawal_returned",
    "pending_deposit_credited",  # staff settled a pending deposit the provider charged (wallet.deposit_changes)
    "pending_deposit_released",  # staff settled a pending deposit the provider did not charge
    "hold_created",
    "hold_released",
    "hold_seized",
    "staff_adjustment",
    "adjustment_proposed",
    "adjustment_approved",
    "adjustment_rejected",
    "hole_cards_viewed",  # recorded by games.card_views (issue 30)
    "unresolved_game_opened",
    "unresolved_game_resolved",
    "unresolved_game_voided",
    "csv_exported",  # a back-office list or report exported (poker_site.core.admin_exports)
)


def audit_record(
    *,
    action: str,
    actor: User | None,
    player: User | None = None,
    transfer: Transfer | None = None,
    reason: str = "",
    details: dict[str, Any] | None = None,
    target: str = "",
    before: Any = None,
    after: Any = None,
) -> AuditEntry:
    """Write one append-only audit entry. Call it inside the transaction that does the audited thing.

    ``target`` names what was acted on (``"<app_label>.<model>:<pk>"``); ``before`` and ``after`` are JSON values of
    the state that changed (``None``: not applicable)."""
    return AuditEntry.objects.create(
        action=action,
        actor=actor,
        player=player,
        transfer=transfer,
        reason=reason,
        details=details or {},
        target=target,
        before=before,
        after=after,
    )


def audit_target(instance: Any) -> str:
    """``"<app_label>.<model>:<pk>"`` of a saved model instance: the ``target`` of its audit entries."""
    return f"{instance._meta.label_lower}:{instance.pk}"
