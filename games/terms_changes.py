"""Stake terms (blinds, buy-in range, seats, rake) change by proposal and a second staff member's approval (issue 30),
as a kind of rule of :mod:`poker_site.core.rule_changes`.

A proposal names a stake (``games.stake:<pk>``) and the new terms with the time they take effect; approved, they
become a new :class:`games.models.StakeTerms` row (rows in force or past are never rewritten: every hand points at
the row it was played under). The new row must pass the model's own checks and take effect after the approval. A
rake rate over 10 % or a rake cap over the highest cap in force in the catalog needs an administrator's approval.
Support staff (``games.add_staketerms``) propose and approve, never their own.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import Max, OuterRef, Subquery
from django.utils import timezone

from games.event_summaries import euros
from games.models import Stake, StakeTerms
from games.models.catalog import row_in_force_or_none
from poker_site.core.rule_changes import (
    CheckedChange,
    RuleChangeRefused,
    RuleKind,
    effective_from_after_approval,
    target_row,
)

TERMS_FIELDS = (
    "small_blind",
    "big_blind",
    "min_buy_in_big_blinds",
    "max_buy_in_big_blinds",
    "seats",
    "rake_rate_basis_points",
    "rake_cap",
    "rake_small_hand_cap",
    "enabled",
    "note",
)
HIGHEST_RAKE_RATE_WITHOUT_AN_ADMINISTRATOR = 1_000  # basis points: 10 %
ADD_TERMS = "games.add_staketerms"


def _stake(target: str) -> Stake:
    return target_row(target, "games.stake:", Stake.objects.all(), "stake")


def catalog_highest_rake_cap(moment: datetime) -> int:
    """The highest rake cap among the terms in force at ``moment`` of every stake (0 without any)."""
    in_force = StakeTerms.objects.filter(stake=OuterRef("pk"), effective_from__lte=moment).order_by(
        "-effective_from", "-pk"
    )
    highest = Stake.objects.annotate(cap=Subquery(in_force.values("rake_cap")[:1])).aggregate(highest=Max("cap"))
    return int(highest["highest"] or 0)


def _effective_from(value: object) -> datetime:
    return effective_from_after_approval(value, "New terms")


def terms_change_check(target: str, changes: dict[str, Any]) -> CheckedChange:
    stake = _stake(target)
    unknown = set(changes) - {*TERMS_FIELDS, "effective_from"}
    if unknown:
        raise RuleChangeRefused(f"Not a field of stake terms: {', '.join(sorted(unknown))}.")
    moment = _effective_from(changes.get("effective_from"))
    now = timezone.now()
    current = row_in_force_or_none(stake.terms.all(), now)
    before = {field: getattr(current, field) for field in TERMS_FIELDS} if current is not None else {}
    missing = [field for field in TERMS_FIELDS if field not in changes and field not in before]
    if missing:
        raise RuleChangeRefused(f"New terms need: {', '.join(missing)}.")
    values = {field: changes.get(field, before.get(field)) for field in TERMS_FIELDS}
    row = StakeTerms(stake=stake, effective_from=moment, **values)
    try:
        row.full_clean()
    except ValidationError as error:
        raise RuleChangeRefused(" ".join(error.messages)) from error
    why: list[str] = []
    if row.rake_rate_basis_points > HIGHEST_RAKE_RATE_WITHOUT_AN_ADMINISTRATOR:
        why.append(f"a rake rate over 10 % ({row.rake_rate_basis_points / 100:g} %)")
    highest = catalog_highest_rake_cap(now)
    if row.rake_cap > highest:
        why.append(f"a rake cap over the catalog's highest ({euros(row.rake_cap)} > {euros(highest)})")
    return CheckedChange(
        summary=f"{stake}: terms from {moment:%Y-%m-%d %H:%M %Z}, blinds {euros(row.small_blind)}/"
        f"{euros(row.big_blind)}, rake {row.rake_rate_basis_points / 100:g} % capped at {euros(row.rake_cap)}",
        before=before,
        changes={**values, "effective_from": moment.isoformat()},
        needs_administrator=bool(why),
        why_administrator=" and ".join(why),
    )


def terms_change_apply(target: str, changes: dict[str, Any]) -> None:
    stake = _stake(target)
    moment = _effective_from(changes["effective_from"])
    StakeTerms.objects.create(stake=stake, effective_from=moment, **{field: changes[field] for field in TERMS_FIELDS})


STAKE_TERMS = RuleKind(
    name="stake_terms",
    label="a stake's terms (blinds, buy-ins, seats, rake)",
    propose_permission=ADD_TERMS,
    approve_permission=ADD_TERMS,
    check=terms_change_check,
    apply=terms_change_apply,
)
