"""Staff views of players' hole cards are audited (issue 30, LOB-10): who looked at which hand's cards, when, where.

A finished or cancelled hand's hole cards are shown to staff on the admin's hand page (the deck), on a private hand
event's page (a player's hole cards), and on the compliance desk's replayer. Each of those views calls
:func:`hole_cards_view_record`, which writes one ``hole_cards_viewed`` audit entry (target ``games.hand:<id>``). A
hand in play never shows its cards to anyone, so there is nothing to record then.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

HOLE_CARDS_VIEWED = "hole_cards_viewed"


@transaction.atomic
def hole_cards_view_record(viewer: Any, hand_id: int, where: str) -> None:
    """Write the audit entry of ``viewer`` seeing the hole cards of hand ``hand_id`` on ``where`` (a page's name)."""
    from wallet.services.audit import audit_record

    audit_record(
        action=HOLE_CARDS_VIEWED,
        actor=viewer if getattr(viewer, "is_authenticated", False) else None,
        target=f"games.hand:{hand_id}",
        details={"hand": hand_id, "page": where},
    )
