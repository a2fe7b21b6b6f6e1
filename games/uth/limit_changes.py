"""An Ultimate Texas Hold'em table's bet limits, chips and clocks (UTH-22, LOB-07) change by proposal and a second
staff member's approval (issue 30), as a kind of rule of :mod:`poker_site.core.rule_changes`.

A proposal names a table (``uth.uthtable:<pk>``) and new values of some of :data:`RULE_FIELDS` (amounts in cents).
The table with them must pass the model's own checks (limits in 2-cent steps, the minimum not above the maximum, chip
values, at least 3 s to bet and to decide). A maximum over the highest of that bet at any UTH table (more of the
house's money at risk on one hand than anywhere so far), or less time to bet or to decide than the tables' defaults
(15 s to bet, 10 s to decide; UTH-07 gives no figure) needs an administrator's approval. Approved, the values are
written and recorded as a :class:`games.uth.models.UthLimitChange` in the approver's name; rounds copy the limits when
they open, so a change applies from the next round. Support staff (``uth.change_uthtable``) propose and approve, never
their own.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import Max

from games.engine.uth.money import format_cents
from games.uth.models import UthLimitChange, UthTable
from poker_site.core.models import RuleChangeProposal
from poker_site.core.rule_changes import CheckedChange, RuleChangeRefused, RuleKind, target_row

CHANGE_TABLE = "uth.change_uthtable"
TARGET_PREFIX = "uth.uthtable:"
RULE_FIELDS = (
    "ante_minimum",
    "ante_maximum",
    "trips_minimum",
    "trips_maximum",
    "chip_values",
    "betting_seconds",
    "decision_seconds",
    "result_seconds",
)
"""What a table's players bet and how long they have: staff propose, another approves."""
AMOUNT_FIELDS = ("ante_minimum", "ante_maximum", "trips_minimum", "trips_maximum")
PLAYERS_TIME = {"betting_seconds": 15, "decision_seconds": 10}
"""The clocks below which an administrator approves (the tables' defaults)."""
RECORDED_FIELDS = ("is_open", *RULE_FIELDS, "rules_version")
"""What a :class:`UthLimitChange` records before and after."""


def table_target(table: UthTable | int) -> str:
    return f"{TARGET_PREFIX}{table if isinstance(table, int) else table.pk}"


def _table(target: str) -> UthTable:
    return target_row(target, TARGET_PREFIX, UthTable.objects.all(), "UTH table")


def _whole(name: str, value: object) -> int:
    if type(value) is not int or value < 0:
        raise RuleChangeRefused(f"{name} is a whole number from 0, not {value!r}.")
    return value


def limits_change_check(target: str, changes: dict[str, Any]) -> CheckedChange:
    table = _table(target)
    unknown = set(changes) - set(RULE_FIELDS)
    if unknown:
        raise RuleChangeRefused(f"Not a limit or clock of a UTH table: {', '.join(sorted(unknown))}.")
    normalised = {name: value if name == "chip_values" else _whole(name, value) for name, value in changes.items()}
    before = {name: getattr(table, name) for name in RULE_FIELDS}
    different = {name: value for name, value in normalised.items() if before[name] != value}
    if not different:
        raise RuleChangeRefused(f"These are the limits of {table.name} already: nothing to change.")
    trial = UthTable.objects.get(pk=table.pk)
    for name, value in different.items():
        setattr(trial, name, value)
    try:
        trial.full_clean()
    except ValidationError as error:
        raise RuleChangeRefused(" ".join(error.messages)) from error
    highest = UthTable.objects.aggregate(ante=Max("ante_maximum"), trips=Max("trips_maximum"))
    why = [
        f"a {label} maximum over the highest at any table ({format_cents(value)} > {format_cents(int(top or 0))})"
        for label, value, top in (
            ("Ante", trial.ante_maximum, highest["ante"]),
            ("Trips", trial.trips_maximum, highest["trips"]),
        )
        if value > int(top or 0)
    ] + [
        f"{name.replace('_', ' ')} {getattr(trial, name)} under the tables' default {figure} s"
        for name, figure in PLAYERS_TIME.items()
        if getattr(trial, name) < figure
    ]
    return CheckedChange(
        summary=f"{table.name}: "
        + ", ".join(f"{name.replace('_', ' ')} {before[name]} → {value}" for name, value in different.items()),
        before={name: before[name] for name in different},
        changes=different,
        needs_administrator=bool(why),
        why_administrator="; ".join(why),
    )


def limits_change_apply(proposal: RuleChangeProposal, changes: dict[str, Any]) -> None:
    """Write the approved values under the table's row lock and record the change in the approver's name."""
    table = UthTable.objects.select_for_update().get(pk=_table(proposal.target).pk)
    before = {name: getattr(table, name) for name in RECORDED_FIELDS}
    for name, value in changes.items():
        setattr(table, name, value)
    table.save(update_fields=list(changes))
    UthLimitChange.objects.create(
        table=table,
        changed_by=proposal.decided_by,
        before=before,
        after={name: getattr(table, name) for name in RECORDED_FIELDS},
    )


UTH_TABLE_LIMITS = RuleKind(
    name="uth_table_limits",
    label="a UTH table's bet limits, chips and clocks",
    propose_permission=CHANGE_TABLE,
    approve_permission=CHANGE_TABLE,
    check=limits_change_check,
    apply_decided=limits_change_apply,
)
