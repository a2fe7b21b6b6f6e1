"""Words for people for each kind of transfer (wallet.services.TransferKind), in the page's language: the cashier's
"What" column says what a movement was without the internal description (written once, in English, by the service
that booked it)."""

from __future__ import annotations

from typing import Final

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

TRANSFER_LABELS: Final[dict[str, Promise]] = {
    "deposit": _("Deposit"),
    "withdrawal": _("Withdrawal requested"),
    "withdrawal_payout": _("Withdrawal paid out"),
    "withdrawal_returned": _("Withdrawal returned"),
    "cash_buy_in": _("Buy-in at a cash table"),
    "cash_top_up": _("Top-up at a cash table"),
    "cash_out": _("Chips back from a cash table"),
    "hand_settlement": _("Hand result"),
    "hand_refund": _("Hand cancelled, bets returned"),
    "rake": _("Rake"),
    "tournament_buy_in": _("Tournament buy-in"),
    "tournament_fee": _("Tournament fee"),
    "tournament_refund": _("Tournament refund"),
    "tournament_prize": _("Tournament prize"),
    "tournament_overlay": _("Tournament overlay"),
    "tournament_phase_carry": _("Flight prize money to Phase 2"),
    "bounty": _("Bounty"),
    "uth_bet": _("Ultimate Texas Hold'em bet"),
    "uth_settlement": _("Ultimate Texas Hold'em result"),
    "hold": _("Amount held"),
    "hold_release": _("Held amount released"),
    "hold_seizure": _("Held amount seized"),
    "unresolved_game": _("Unfinished game set aside"),
    "unresolved_game_resolution": _("Unfinished game resolved"),
    "charity_void": _("Voided game donated to charity"),
    "staff_adjustment": _("Adjustment by staff"),
    "reversal": _("Correction"),
}


def transfer_label(kind: str) -> str:
    """The label of ``kind``; an unknown kind is shown as it is stored."""
    label = TRANSFER_LABELS.get(kind)
    return str(label) if label is not None else kind
