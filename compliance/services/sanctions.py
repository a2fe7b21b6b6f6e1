"""Sanctions on a case's subjects (FRD-06, FRD-10, FRD-11, FRD-14, FRD-15, FRD-17, FRD-18), each audited:

* :func:`account_standing_set` — under review (plays, cannot withdraw), suspended, terminated, or active again. A
  suspension or termination takes effect at once: the account signs nobody in from the commit on
  (``poker_site.accounts.backends``) and every open game socket of the player closes
  (``poker_site.core.account_sockets``). A terminated account stays terminated.
* :func:`banzai_exclusion_set` — exclude from Banzai tables or readmit (CASH-32, FRD-17).
* :func:`disclosure_record` — information disclosed to a financial institution, authority or partner (FRD-10 (3)).
* :func:`tournament_disqualify` — disqualify the subject from a tournament (TRN-28, FRD-15), through the tournaments'
  own service.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from django.db import transaction

from compliance.errors import InvalidRequest, NotAllowed
from compliance.models import BLOCKED_STANDINGS, AccountStanding, Case, CaseActionKind, Standing
from compliance.services.common import (
    REVIEW_CASES,
    SANCTION_ACCOUNTS,
    action_record,
    case_lock,
    require_not_subject,
    require_player_accounts,
    require_reviewer,
    require_subject,
    standing_change,
    text_of,
)

if TYPE_CHECKING:
    from poker_site.accounts.models import User

SOCKET_CLOSING_MESSAGE = {
    Standing.SUSPENDED: "Your account is suspended: you can no longer play. Contact support.",
    Standing.TERMINATED: "Your account has been closed. Contact support.",
}


@transaction.atomic(durable=True)
def account_standing_set(case: Case | int, actor: User, player: User, state: str, reason: str) -> AccountStanding:
    """Set a subject's standing. Under review and active need ``compliance.review_cases``; suspended and terminated
    ``compliance.sanction_accounts``. ``reason`` is shown to the player (a refused log-in or withdrawal says it)."""
    if state not in Standing.values:
        raise InvalidRequest(f"The standing is one of {', '.join(Standing.values)}, not {state!r}.")
    require_reviewer(
        actor, f"set an account {state}", SANCTION_ACCOUNTS if state in BLOCKED_STANDINGS else REVIEW_CASES
    )
    text = text_of(reason, "change an account's standing")
    require_player_accounts([player], f"set an account {state.replace('_', ' ')}")
    locked = case_lock(case)
    require_not_subject(locked, actor, "change a standing in it")
    require_subject(locked, player)
    standing, _ = AccountStanding.objects.select_for_update().get_or_create(user=player)
    if standing.state == Standing.TERMINATED:
        raise NotAllowed(f"{player.username}'s account was terminated; a terminated account stays terminated.")
    if standing.state == state:
        raise NotAllowed(f"{player.username}'s account is already {standing.get_state_display()}.")
    before = {"state": standing.state, "reason": standing.reason}
    standing_change(standing, state, text if state != Standing.ACTIVE else "", locked, actor)
    action_record(
        locked,
        CaseActionKind.STANDING,
        actor=actor,
        audit_action=f"account_{state}",
        subject=player,
        text=text,
        target=standing,
        before=before,
        after={"state": state, "reason": standing.reason},
    )
    if state in BLOCKED_STANDINGS:
        transaction.on_commit(partial(_close_sockets, player.pk, SOCKET_CLOSING_MESSAGE[Standing(state)]))
    return standing


def _close_sockets(user_id: int, message: str) -> None:
    from poker_site.core.account_sockets import account_sockets_close

    account_sockets_close(user_id, message)


@transaction.atomic(durable=True)
def banzai_exclusion_set(case: Case | int, actor: User, player: User, *, excluded: bool, reason: str) -> Any:
    """Exclude a subject from Banzai tables (CASH-32: seating refused from now on) or readmit them."""
    from games.models import PlayerTableSettings

    require_reviewer(actor, "exclude a player from Banzai", SANCTION_ACCOUNTS)
    text = text_of(reason, "change a Banzai exclusion")
    require_player_accounts([player], "change a Banzai exclusion")
    locked = case_lock(case)
    require_not_subject(locked, actor, "change a Banzai exclusion in it")
    require_subject(locked, player)
    settings, _ = PlayerTableSettings.objects.select_for_update().get_or_create(user=player)
    if settings.banzai_excluded == excluded:
        state = "already excluded from" if excluded else "not excluded from"
        raise NotAllowed(f"{player.username} is {state} Banzai.")
    before = {"banzai_excluded": settings.banzai_excluded, "banzai_exclusion_reason": settings.banzai_exclusion_reason}
    settings.banzai_excluded = excluded
    settings.banzai_exclusion_reason = text if excluded else ""
    settings.save(update_fields=["banzai_excluded", "banzai_exclusion_reason"])
    action_record(
        locked,
        CaseActionKind.BANZAI_EXCLUDED if excluded else CaseActionKind.BANZAI_READMITTED,
        actor=actor,
        audit_action="banzai_excluded" if excluded else "banzai_readmitted",
        subject=player,
        text=text,
        target=settings,
        before=before,
        after={"banzai_excluded": excluded, "banzai_exclusion_reason": settings.banzai_exclusion_reason},
    )
    return settings


@transaction.atomic(durable=True)
def disclosure_record(
    case: Case | int, actor: User, player: User, *, recipient: str, information: str, reason: str
) -> Case:
    """Record that information about a subject was disclosed (FRD-10 (3)): to whom, what, and on what grounds."""
    require_reviewer(actor, "record a disclosure", SANCTION_ACCOUNTS)
    to_whom = text_of(recipient, "record a disclosure without its recipient")
    what = text_of(information, "record a disclosure without what was disclosed")
    text = text_of(reason, "record a disclosure without its grounds")
    require_player_accounts([player], "record a disclosure")
    locked = case_lock(case)
    require_not_subject(locked, actor, "record a disclosure in it")
    require_subject(locked, player)
    action_record(
        locked,
        CaseActionKind.DISCLOSED,
        actor=actor,
        audit_action="information_disclosed",
        subject=player,
        text=text,
        details={"recipient": to_whom, "information": what},
        after={"recipient": to_whom, "information": what},
    )
    return locked


def tournament_disqualify(
    case: Case | int,
    actor: User,
    entry_id: int,
    *,
    reason: str,
    forfeit_prize: bool,
    forfeit_cents: int | None = None,
    bar: bool = False,
) -> Any:
    """Disqualify a subject's tournament entry (TRN-28, FRD-15) with the tournaments' ``entry_disqualify`` (its own
    transaction and audit entry: refusals such as "in a hand", "prize already paid", a bad partial amount or a player
    already barred come from it) — forfeiting the unpaid prize in full (``forfeit_prize``) or ``forfeit_cents`` of it,
    and barring the player from tournaments when ``bar`` —, then record the decision on the case and link the
    tournament. The case is checked before and again after."""
    from tournaments.models import TournamentEntry
    from tournaments.services.staff import entry_disqualify

    require_reviewer(actor, "disqualify a player from a tournament", SANCTION_ACCOUNTS)
    text = text_of(reason, "disqualify a player")
    entry = TournamentEntry.objects.select_related("user", "tournament").filter(pk=entry_id).first()
    if entry is None:
        raise InvalidRequest(f"There is no tournament entry #{entry_id}.")
    require_player_accounts([entry.user], "disqualify a player from a tournament")
    with transaction.atomic():
        checked = case_lock(case)
        require_not_subject(checked, actor, "disqualify a player for it")
        require_subject(checked, entry.user)
    disqualified = entry_disqualify(
        entry.pk, actor=actor, reason=text, forfeit_prize=forfeit_prize, forfeit_cents=forfeit_cents, bar=bar
    )
    _disqualification_record(checked.pk, actor, disqualified, text, forfeit_prize, bar)
    return disqualified


@transaction.atomic(durable=True)
def _disqualification_record(
    case_id: int, actor: User, entry: Any, text: str, forfeit_prize: bool, barred: bool = False
) -> None:
    locked = case_lock(case_id)
    locked.tournaments.add(entry.tournament_id)
    action_record(
        locked,
        CaseActionKind.DISQUALIFIED,
        actor=actor,
        audit_action="case_disqualification",
        subject=entry.user,
        text=text,
        target=entry,
        details={
            "tournament": entry.tournament_id,
            "entry": entry.pk,
            "forfeit_prize": forfeit_prize,
            "forfeited_cents": entry.prize_forfeited_cents,
            "barred": barred,
        },
        after={"status": entry.status, "prize_forfeited": entry.prize_forfeited},
    )
