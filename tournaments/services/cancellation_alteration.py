"""Management's alteration of a proposed cancellation's payouts (CXL-12: "the operator may alter cancellation
payouts"; in disputes the management decision is final, GEN-05).

While a cancellation waits for its approval, a staff member who may run tournaments sets, with a reason, a signed
change in cents for any of the players the policy compensates: money moves between players, or the house adds some
of its own (a goodwill payment). The policy's calculation is never rewritten: the record keeps it as computed, and the
alterations beside it, with who set them, when and why; the approval posts the policy's compensation plus each
player's change, the house funding the net (its guarantee account, like an overlay). An alteration never keeps
players' money for the house (the net is never negative: a disqualification with forfeiture does that) and never
leaves a player less than nothing. The approval needs a staff member other than the proposer and other than whoever
last altered the payouts, and is refused unless the figures and alterations are those the approver saw."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from tournaments.models import TournamentCancellation
from tournaments.services.errors import NotAllowedNow
from tournaments.services.staff import staff_reason
from wallet.errors import format_cents
from wallet.services.audit import audit_record

MAXIMUM_ALTERATION_CENTS = 100_000_000
"""The largest change for one player (€1,000,000): anything larger is a typing mistake, not a decision."""

ALTERATIONS_CHANGED = "The alterations changed since the page you saw: nothing was changed; review them again."


def alterations_net(alterations: Mapping[str, int]) -> int:
    """What the house adds (cents) to the policy's payouts."""
    return sum(alterations.values())


def alterations_check(figures: Mapping[str, Any], alterations: Mapping[str, int]) -> None:
    """Raise :class:`NotAllowedNow` unless ``alterations`` (player id text to a non-zero whole number of cents) fit
    the calculation ``figures`` (``CancellationCalculation.to_json()``): each player is compensated by it, no player
    ends below nothing, and the net is not negative."""
    compensated = {str(row["player"]): row for row in figures.get("compensations", [])}
    for player, cents in alterations.items():
        if player not in compensated:
            raise NotAllowedNow(f"Player {player} is not among the players this cancellation compensates.")
        if type(cents) is not int or cents == 0 or abs(cents) > MAXIMUM_ALTERATION_CENTS:
            raise NotAllowedNow(
                f"A change is a whole number of cents, not zero, at most {format_cents(MAXIMUM_ALTERATION_CENTS)} "
                f"either way; player {player}'s is {cents!r}."
            )
        if int(compensated[player].get("money_cents", 0)) + cents < 0:
            raise NotAllowedNow(
                f"Player {player} would receive less than nothing: the policy pays them "
                f"{format_cents(int(compensated[player].get('money_cents', 0)))}."
            )
    if alterations_net(alterations) < 0:
        raise NotAllowedNow(
            "The changes take more from players than they give: an alteration moves money between players or adds "
            "the house's money, it never keeps players' money for the house (a disqualification with forfeiture "
            "does that)."
        )


def proposal_digest(figures: Mapping[str, Any], alterations: Mapping[str, int]) -> str:
    """The fingerprint of what an approver sees: the figures, and the alterations when there are any (without them
    it is the figures' own :func:`~tournaments.services.cancellation.calculation_digest`)."""
    from tournaments.services.cancellation import calculation_digest

    if not alterations:
        return calculation_digest(dict(figures))
    return calculation_digest({"calculation": dict(figures), "alterations": dict(alterations)})


def _cleaned(alterations: Mapping[Any, Any]) -> dict[str, int]:
    cleaned: dict[str, int] = {}
    for player, cents in alterations.items():
        if type(cents) is not int:
            raise NotAllowedNow(f"A change is a whole number of cents; player {player}'s is {cents!r}.")
        if cents:
            cleaned[str(player)] = cents
    return cleaned


@transaction.atomic(durable=True)
def tournament_cancellation_alter(
    proposal: TournamentCancellation | int,
    *,
    alterations: Mapping[Any, Any],
    actor: Any,
    reason: str,
    previewed: str | None = None,
    now: datetime | None = None,
) -> TournamentCancellation:
    """Set the alterations of a waiting cancellation (CXL-12): ``alterations`` maps player ids to signed cents
    (zero: no change; the mapping replaces earlier alterations, an empty one removes them). Given ``previewed`` (the
    :func:`proposal_digest` of the page staff saw), refused when the figures or alterations changed since. Refused,
    nothing changed, as :func:`alterations_check` says, without a reason or a staff member, or when the cancellation
    is no longer waiting. Audited with the alterations before and after."""
    from tournaments.services.cancellation import proposal_lock

    text = staff_reason(reason)
    if actor is None or getattr(actor, "pk", None) is None:
        raise NotAllowedNow("An alteration is recorded with the staff member who decided it.")
    cleaned = _cleaned(alterations)
    tournament, row = proposal_lock(proposal)
    if previewed is not None and proposal_digest(row.calculation, row.alterations) != previewed:
        raise NotAllowedNow(ALTERATIONS_CHANGED)
    alterations_check(row.calculation, cleaned)
    before = dict(row.alterations)
    totals = row.calculation.get("totals", {})
    row.alterations = cleaned
    row.alteration_reason = text
    row.altered_by = actor
    row.altered_at = now or timezone.now()
    row.paid_in_money = int(totals.get("paid_in_money_cents", 0)) + alterations_net(cleaned)
    row.kept_by_house = int(totals.get("kept_by_house_cents", 0)) - alterations_net(cleaned)
    row.save(
        update_fields=["alterations", "alteration_reason", "altered_by", "altered_at", "paid_in_money", "kept_by_house"]
    )
    audit_record(
        target=f"tournaments.tournament:{tournament.pk}",
        action="tournament_cancellation_altered",
        actor=actor,
        reason=text,
        details={
            "tournament": tournament.pk,
            "cancellation": row.pk,
            "net_from_house_cents": alterations_net(cleaned),
        },
        before={"alterations": before},
        after={"alterations": cleaned},
    )
    return row
