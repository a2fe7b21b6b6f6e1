"""Payout templates (a payout structure's entrant ranges, TRN-06) are created, changed and deleted by proposal and a
second staff member's approval (issue 30), as a kind of rule of :mod:`poker_site.core.rule_changes`.

A proposal names a structure (``tournaments.payoutstructure:<pk>``, or ``tournaments.payoutstructure:new`` for a new
one) and either its name and whole set of ranges, each ``{"minimum_entrants", "maximum_entrants", "table_size",
"shares"}`` (basis points per place, 1st first), or ``{"delete": true}``. The ranges must be a valid template set
(:func:`tournaments.services.definition.payout_ranges_check`: shares adding up to 10,000 that never increase, no
overlap, no gap), the name unique; a structure a tournament uses is never deleted. Changing the ranges of a structure
whose tournaments still take registrations with players registered changes those players' provisional payouts: that
needs an administrator's approval.

Holders of ``tournaments.change_payoutstructure`` (support staff, administrators) propose and approve, never their
own; the admin adds, edits and deletes no structure directly.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from poker_site.core.rule_changes import CheckedChange, RuleChangeRefused, RuleKind, target_row
from tournaments.models import PayoutRange, PayoutStructure, Tournament, TournamentStatus
from tournaments.services.definition import DefinitionRefused, PayoutRangeRow, payout_ranges_check

CHANGE_STRUCTURE = "tournaments.change_payoutstructure"
TARGET_PREFIX = "tournaments.payoutstructure:"
NEW = "new"
RANGE_FIELDS = ("minimum_entrants", "maximum_entrants", "table_size", "shares")


def structure_target(structure: PayoutStructure | None) -> str:
    return f"{TARGET_PREFIX}{structure.pk if structure is not None else NEW}"


def _structure(target: str) -> PayoutStructure | None:
    """The structure named by ``target``, or ``None`` for a new one."""
    if target == f"{TARGET_PREFIX}{NEW}":
        return None
    return target_row(target, TARGET_PREFIX, PayoutStructure.objects.all(), "payout structure")


def ranges_of(structure: PayoutStructure) -> list[dict[str, Any]]:
    return [
        {
            "minimum_entrants": row.minimum_entrants,
            "maximum_entrants": row.maximum_entrants,
            "table_size": row.table_size,
            "shares": list(row.shares_basis_points),
        }
        for row in structure.ranges.order_by("table_size", "minimum_entrants", "pk")
    ]


def _whole(value: object, what: str, *, empty: bool) -> int | None:
    if value is None and empty:
        return None
    if type(value) is not int or value < 1:
        raise RuleChangeRefused(f"{what} is a whole number from 1, not {value!r}.")
    return value


def _ranges(value: object) -> list[dict[str, Any]]:
    if not isinstance(value, list):
        raise RuleChangeRefused("A payout structure's ranges are a list of entrant ranges.")
    ranges: list[dict[str, Any]] = []
    for item in value:
        if not isinstance(item, dict) or set(item) - set(RANGE_FIELDS) or "minimum_entrants" not in item:
            raise RuleChangeRefused(f"An entrant range gives {', '.join(RANGE_FIELDS)}, not {item!r}.")
        ranges.append(
            {
                "minimum_entrants": _whole(item["minimum_entrants"], "From entrants", empty=False),
                "maximum_entrants": _whole(item.get("maximum_entrants"), "To entrants", empty=True),
                "table_size": _whole(item.get("table_size"), "The table size", empty=True),
                "shares": item.get("shares"),
            }
        )
    try:
        payout_ranges_check([PayoutRangeRow(**row) for row in ranges])
    except DefinitionRefused as error:
        raise RuleChangeRefused(error.message) from error
    # In the order ranges_of reads them back (PostgreSQL puts an empty table size last).
    return sorted(ranges, key=lambda row: (row["table_size"] is None, row["table_size"] or 0, row["minimum_entrants"]))


def _name(value: object, structure: PayoutStructure | None) -> str:
    name = value.strip() if isinstance(value, str) else ""
    if not name or len(name) > 80:
        raise RuleChangeRefused("A payout structure needs a name of 1 to 80 characters.")
    taken = PayoutStructure.objects.filter(name=name)
    if structure is not None:
        taken = taken.exclude(pk=structure.pk)
    if taken.exists():
        raise RuleChangeRefused(f"There is already a payout structure named {name!r}.")
    return name


def _players_registered(structure: PayoutStructure) -> int:
    """Tournaments using ``structure`` that still take registrations and have players registered: their provisional
    payouts change with it."""
    return (
        Tournament.objects.filter(payout_structure=structure, entrants__gt=0)
        .filter(
            Q(status=TournamentStatus.REGISTERING)
            | Q(status=TournamentStatus.RUNNING, registration_closed_at__isnull=True)
        )
        .count()
    )


def payout_change_check(target: str, changes: dict[str, Any]) -> CheckedChange:
    structure = _structure(target)
    before = {"name": structure.name, "ranges": ranges_of(structure)} if structure is not None else {}
    if changes.get("delete"):
        if set(changes) != {"delete"} or changes["delete"] is not True or structure is None:
            raise RuleChangeRefused("Deleting names an existing payout structure and changes nothing else.")
        used = Tournament.objects.filter(payout_structure=structure).count()
        if used:
            raise RuleChangeRefused(
                f"{structure.name} is the payout structure of {used} tournament(s): it cannot be deleted."
            )
        return CheckedChange(summary=f"delete the payout structure {structure.name}", before=before, changes=changes)
    if set(changes) - {"name", "ranges"} or "ranges" not in changes:
        raise RuleChangeRefused("A payout structure change gives its name and its whole set of ranges.")
    name = _name(changes.get("name", structure.name if structure is not None else ""), structure)
    ranges = _ranges(changes["ranges"])
    registered = _players_registered(structure) if structure is not None else 0
    verb = "new payout structure" if structure is None else "payout structure"
    return CheckedChange(
        summary=f"{verb} {name}: {len(ranges)} entrant range(s)",
        before=before,
        changes={"name": name, "ranges": ranges},
        needs_administrator=registered > 0,
        why_administrator=f"it changes the provisional payouts of {registered} tournament(s) with players registered"
        if registered
        else "",
    )


def payout_change_apply(target: str, changes: dict[str, Any]) -> None:
    structure = _structure(target)
    if changes.get("delete"):
        assert structure is not None  # checked
        structure.ranges.all().delete()
        structure.delete()
        return
    if structure is None:
        structure = PayoutStructure.objects.create(name=changes["name"])
    else:
        structure.name = changes["name"]
        structure.save(update_fields=["name"])
        structure.ranges.all().delete()
    PayoutRange.objects.bulk_create(
        PayoutRange(
            structure=structure,
            minimum_entrants=row["minimum_entrants"],
            maximum_entrants=row["maximum_entrants"],
            table_size=row["table_size"],
            shares_basis_points=list(row["shares"]),
        )
        for row in changes["ranges"]
    )


PAYOUT_STRUCTURE = RuleKind(
    name="payout_structure",
    label="a payout structure (its entrant ranges and prize shares)",
    propose_permission=CHANGE_STRUCTURE,
    approve_permission=CHANGE_STRUCTURE,
    check=payout_change_check,
    apply=payout_change_apply,
)
