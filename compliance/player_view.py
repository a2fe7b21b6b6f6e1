"""What the back office shows about one player (LOB-08): balances, holds, sanctions, today's ratholing counter and
Banzai resets, the Banzai exclusion and the open cases. Read only; support reads it in the admin's player overview,
reviewers on the desk's player page (with more: connections, client reports, flags)."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from compliance.models import Case, CaseStatus
from compliance.standing import standing_of

RESTRICTED = "restricted, ask compliance"
"""Shown to support instead of a compliance reason (issue 30: a hold's or a sanction's reason, e.g. "Collusion
review", is compliance's; support sees that the hold or the sanction exists, not why)."""


def player_overview(user: Any, *, compliance_reasons: bool = False) -> dict[str, Any]:
    """The figures of the LOB-08 player view for ``user``. ``compliance_reasons``: whether the viewer may read the
    reasons compliance gave (holds, account sanctions); without, each reads :data:`RESTRICTED`."""
    from games.cash.buy_in import RATHOLING_COUNTER_LIMIT, daily_count
    from games.models import DailyCounterKind, PlayerTableSettings
    from tournaments.admin_panels import with_prize_states
    from tournaments.models import EntryStatus, TournamentBar, TournamentEntry
    from wallet.api import player_balance
    from wallet.models import Hold

    now = timezone.now()
    table_settings = PlayerTableSettings.objects.filter(user=user).first()
    return {
        "player": user,
        "balances": player_balance(user),
        "holds": list(Hold.objects.filter(player=user).order_by("-pk")[:50]),
        "standing": standing_of(user.pk),
        "banzai_excluded": bool(table_settings and table_settings.banzai_excluded),
        "banzai_exclusion_reason": table_settings.banzai_exclusion_reason if table_settings else "",
        "ratholing_today": daily_count(user.pk, DailyCounterKind.RATHOLING, now),
        "ratholing_limit": RATHOLING_COUNTER_LIMIT,
        "banzai_resets_today": daily_count(user.pk, DailyCounterKind.BANZAI_RESET, now),
        # A forfeiture awaiting its second person withholds the prize (TRN-28, issue 30): each entry carries the
        # pending proposal's number (``withholding_forfeiture``), read in the same query, for the page to name it.
        "disqualifications": list(
            with_prize_states(TournamentEntry.objects.filter(user=user, status=EntryStatus.DISQUALIFIED))
            .select_related("tournament")
            .order_by("-pk")[:20]
        ),
        # cancel-desk: TRN-28 / TRN-09, a bar from tournaments
        # The latest bar: in force, or lifted (then the overview says when and why).
        "tournament_bar": TournamentBar.objects.filter(user=user).order_by("-barred_at", "-pk").first(),
        "open_cases": list(Case.objects.filter(subjects=user).exclude(status=CaseStatus.CLOSED).order_by("-pk")[:50]),
        "day": now.date(),
        "compliance_reasons": compliance_reasons,
        "restricted": RESTRICTED,
    }
