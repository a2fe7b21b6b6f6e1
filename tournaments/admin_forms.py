"""Forms of the tournament back office: the definition with its levels, payout ranges, and the staff actions' pages.

The definition form and the level formset ask :mod:`tournaments.services.definition` whether a change is allowed, so a
refusal shows on the field (or above the levels) before anything is written; the service asks again under the row
lock when it writes.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from django import forms
from django.db.models import Q
from django.forms.formsets import DELETION_FIELD_NAME
from django.forms.models import BaseInlineFormSet
from django.utils import timezone

from poker_site.core.money import cents_fields_in_euros
from tournaments.models import HandForHandMode, Tournament
from tournaments.rules.common import RuleError
from tournaments.rules.levels import (
    DEFAULT_MULTI_TABLE_STRUCTURE,
    DEFAULT_SIT_AND_GO_STRUCTURE,
    TURBO_MULTI_TABLE_STRUCTURE,
    TURBO_SIT_AND_GO_STRUCTURE,
    BlindLevel,
    BlindStructure,
)
from tournaments.services.definition import (
    EDITABLE_FIELDS,
    HOUSE_MONEY_FIELDS,
    DefinitionRefused,
    LevelRow,
    fields_change_check,
    levels_change_check,
    levels_check,
    phases_definition_problems,
)

DEFAULT_STRUCTURES: dict[str, BlindStructure] = {
    "multi_table": DEFAULT_MULTI_TABLE_STRUCTURE,
    "sit_and_go": DEFAULT_SIT_AND_GO_STRUCTURE,
    "turbo_multi_table": TURBO_MULTI_TABLE_STRUCTURE,
    "turbo_sit_and_go": TURBO_SIT_AND_GO_STRUCTURE,
}


def _structure_label(structure: BlindStructure) -> str:
    return f"{structure.name}: {len(structure.levels)} levels, {structure.starting_stack:,} chips"


class TournamentForm(forms.ModelForm):
    """A tournament's definition. On a started tournament, a change of a field fixed since the start is refused on
    that field (``fields_change_check``)."""

    default_structure = forms.ChoiceField(
        label="Fill the levels from",
        required=False,
        choices=[("", "the default structure for its kind")]
        + [(key, _structure_label(structure)) for key, structure in DEFAULT_STRUCTURES.items()],
        help_text="Used when you add no levels below. Left at its default, the starting stack becomes the structure's.",
    )
    house_money_reason = forms.CharField(
        label="Why the house's money changes",
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="Required when you change the guarantee, the added prize money or the VIP bounty: they are paid by "
        "the house, so saving proposes them and another staff member approves (issue 30). The rest is saved at once.",
    )

    class Meta:
        model = Tournament
        fields = sorted(EDITABLE_FIELDS)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cents_fields_in_euros(self)  # staff type euros; the tournament keeps cents
        if self.instance.pk is None and "payout_structure" in self.fields:
            self.fields["payout_structure"].required = False
            self.fields["payout_structure"].help_text = "Empty: the standard payouts."
        if "phase_two" in self.fields:  # TRN-45: flights feed a Phase 2 that has not started
            field = self.fields["phase_two"]
            field.queryset = (  # type: ignore[attr-defined]
                Tournament.objects.filter(
                    Q(is_phase_two=True, status__in=["announced", "registering"]) | Q(pk=self.instance.phase_two_id)
                )
                .exclude(pk=self.instance.pk)
                .order_by("starts_at", "pk")
            )

    def clean(self) -> dict[str, Any]:
        cleaned: dict[str, Any] = super().clean() or {}
        kind = cleaned.get("kind")
        if kind == "scheduled" and "starts_at" in self.fields and not cleaned.get("starts_at"):
            self.add_error("starts_at", "A scheduled tournament needs its start time (TRN-01).")
        if kind == "sit_and_go" and "seats_to_start" in self.fields and (cleaned.get("seats_to_start") or 0) < 2:
            self.add_error("seats_to_start", "A Sit & Go starts when this many have registered: at least 2 (TRN-35).")
        self._check_limits(cleaned)
        self._check_satellite_target(cleaned.get("satellite_target"))
        self._check_phases(cleaned)
        if self.instance.pk is not None:
            try:
                fields_change_check(self.instance, list(self.definition_changes(cleaned)))
            except DefinitionRefused as refusal:
                for name, message in refusal.field_errors.items():
                    self.add_error(name if name in self.fields else None, message)
        if self.house_money_changes(cleaned) and not (cleaned.get("house_money_reason") or "").strip():
            self.add_error(
                "house_money_reason",
                "The house pays the guarantee, added prize money and VIP bounty: say why they change (another staff "
                "member reads it before approving).",
            )
        self._check_house_money(cleaned)
        return cleaned

    def _check_house_money(self, cleaned: dict[str, Any]) -> None:
        """On a tournament that exists, whether its house's money may still change (not once started), on the
        fields; the values themselves are checked with the rest of the definition (the model's own checks)."""
        changes = self.house_money_changes(cleaned)
        if self.instance.pk is None or not changes:
            return
        try:
            fields_change_check(self.instance, list(changes), house_money_approved=True)
        except DefinitionRefused as refusal:
            for name, message in refusal.field_errors.items():
                self.add_error(name if name in self.fields else None, message)

    def _check_satellite_target(self, target: Any) -> None:
        """TRN-37: a satellite's target costs something (a seat is worth its buy-in + fee) and no chain of satellites
        leads back to this tournament."""
        if target is None or "satellite_target" not in self.fields:
            return
        if target.is_phase_two:
            self.add_error(
                "satellite_target", "Phase 2 of a phased tournament is reached only through its flights (TRN-45)."
            )
            return
        if target.entry_price == 0:
            self.add_error("satellite_target", "A freeroll cannot be a satellite's target: its seat is worth nothing.")
            return
        seen: set[int] = set()
        step = target
        while step is not None and step.pk not in seen:
            if self.instance.pk is not None and step.pk == self.instance.pk:
                self.add_error("satellite_target", "A satellite cannot lead back to itself.")
                return
            seen.add(step.pk)
            step = step.satellite_target

    def _value(self, cleaned: dict[str, Any], name: str) -> Any:
        """The field's new value, or the definition's own when the form does not show the field."""
        return cleaned.get(name) if name in self.fields else getattr(self.instance, name, None)

    def _check_phases(self, cleaned: dict[str, Any]) -> None:
        """TRN-45: the service's check of a flight and of a Phase 2 (``phases_definition_problems``), on the fields."""
        if not {"is_phase_two", "phase_two", "final_level"} & set(self.fields):
            return
        levels = None
        if self.instance.pk is None and (structure := self.chosen_structure()) is not None:
            levels = len(structure.levels)
        for name, message in phases_definition_problems(
            lambda name: self._value(cleaned, name), self.instance.pk, levels=levels
        ):
            self.add_error(name if name in self.fields else None, message)

    def _check_limits(self, cleaned: dict[str, Any]) -> None:
        """The table's rules in words, on the field (rather than the database constraint's name)."""
        size = cleaned.get("table_size")
        if size is not None and not 2 <= size <= 10:
            self.add_error("table_size", "A table has 2 to 10 seats.")
        first, cap = cleaned.get("timebank_first_hand_seconds"), cleaned.get("timebank_cap_seconds")
        if first is not None and cap is not None and first > cap:
            self.add_error(
                "timebank_first_hand_seconds", f"The timebank at the first hand is at most its cap ({cap} s)."
            )
        if cleaned.get("timebank_replenish_every_hands") == 0:
            self.add_error("timebank_replenish_every_hands", "The timebank is replenished every 1 or more hands.")
        minimum = cleaned.get("minimum_entrants")
        if minimum is not None and minimum < 2:
            self.add_error("minimum_entrants", "A tournament needs at least 2 entrants.")

    def definition_changes(self, cleaned: dict[str, Any] | None = None) -> dict[str, Any]:
        """The definition fields staff changed, with their new values, but the house's money
        (:meth:`house_money_changes`)."""
        cleaned = self.cleaned_data if cleaned is None else cleaned
        return {
            name: cleaned.get(name)
            for name in self.changed_data
            if name in EDITABLE_FIELDS and name not in HOUSE_MONEY_FIELDS
        }

    def house_money_changes(self, cleaned: dict[str, Any] | None = None) -> dict[str, Any]:
        """The house's money staff changed (the VIP by id): saving proposes it (issue 30) instead of writing it."""
        cleaned = self.cleaned_data if cleaned is None else cleaned
        changes: dict[str, Any] = {}
        for name in HOUSE_MONEY_FIELDS:
            if name in self.changed_data and name in cleaned:
                value = cleaned[name]
                changes[name] = getattr(value, "pk", value) if name == "vip_player" else value
        if self.instance.pk is None:  # a new definition starts without it: only what is not nothing is proposed
            changes = {name: value for name, value in changes.items() if value}
        return changes

    def fields_for_create(self) -> dict[str, Any]:
        """What a new definition is created with: the fields staff set, and the kind, name, start and seats always;
        the others get ``tournament_create``'s defaults (a Sit & Go's timebank and minimum entrants, the
        structure's starting stack, the standard payouts)."""
        values = self.definition_changes()
        for name in ("name", "kind", "starts_at", "seats_to_start"):
            values[name] = self.cleaned_data.get(name)
        if not values.get("payout_structure"):
            values.pop("payout_structure", None)
        return values

    def chosen_structure(self) -> BlindStructure | None:
        return DEFAULT_STRUCTURES.get(self.cleaned_data.get("default_structure") or "")


class LevelForm(forms.ModelForm):
    """One level; blinds that are not a level are refused on the small blind, in words."""

    def clean(self) -> dict[str, Any]:
        cleaned: dict[str, Any] = super().clean() or {}
        values = [cleaned.get(name) for name in ("small_blind", "big_blind", "ante", "duration_seconds")]
        if all(value is not None for value in values):
            try:
                BlindLevel(*values)  # type: ignore[arg-type]
            except RuleError as error:
                self.add_error("small_blind", f"{error}.")
        return cleaned


class LevelFormSet(BaseInlineFormSet):
    """The levels of a tournament. A change of a level the clock has reached is refused above the levels
    (``levels_change_check``); so are levels that are not numbered 1, 2, 3 ... or not valid blinds."""

    def level_rows(self) -> list[LevelRow] | None:
        """The levels as the page sets them (deleted rows left out), or ``None`` when the page changed none on an
        existing tournament."""
        if self.instance.pk is not None and not self.has_changed():
            return None
        rows = []
        for form in self.forms:
            data = getattr(form, "cleaned_data", None)
            if not data or (self.can_delete and data.get(DELETION_FIELD_NAME)):
                continue
            rows.append(
                LevelRow(data["number"], data["small_blind"], data["big_blind"], data["ante"], data["duration_seconds"])
            )
        return rows

    def clean(self) -> None:
        super().clean()
        if any(self.errors):
            return
        rows = self.level_rows()
        try:
            if self.instance.pk is None:
                if rows:
                    levels_check(rows)
            elif rows is not None:
                levels_change_check(self.instance, rows, timezone.now())
        except DefinitionRefused as refusal:
            raise forms.ValidationError(refusal.message) from refusal


RANGE_LINE = re.compile(r"^(\d+)\s*-\s*(\d*)\s*(?:@\s*(\d+))?\s*:\s*([\d\s]+)$")


def ranges_as_lines(ranges: list[dict[str, Any]]) -> str:
    """A structure's ranges as the proposal page shows them, one a line (``7-20: 5000 3000 2000``)."""
    lines = []
    for row in ranges:
        upper = "" if row["maximum_entrants"] is None else str(row["maximum_entrants"])
        size = "" if row["table_size"] is None else f" @{row['table_size']}"
        lines.append(f"{row['minimum_entrants']}-{upper}{size}: {' '.join(str(share) for share in row['shares'])}")
    return "\n".join(lines)


def ranges_from_lines(text: str) -> list[dict[str, Any]]:
    """The ranges typed on the proposal page (see :func:`ranges_as_lines`); a line that is not one, refused."""
    ranges = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        match = RANGE_LINE.match(line.strip())
        if match is None:
            raise forms.ValidationError(
                f"Line {number} is not a range: write from-to entrants, optionally @ a table size, then the shares, "
                "e.g. 7-20: 5000 3000 2000."
            )
        low, high, size, shares = match.groups()
        ranges.append(
            {
                "minimum_entrants": int(low),
                "maximum_entrants": int(high) if high else None,
                "table_size": int(size) if size else None,
                "shares": [int(share) for share in shares.split()],
            }
        )
    return ranges


class PayoutStructureProposalForm(forms.Form):
    """A new payout structure, or a change or the deletion of one, with the reason (issue 30): the proposal is
    checked by :mod:`tournaments.payout_changes` (TRN-06: shares adding up to 10,000 that never increase, ranges
    without overlap or gap) and applied when another staff member approves it."""

    name = forms.CharField(label="Name", max_length=80)
    ranges = forms.CharField(
        label="Entrant ranges",
        widget=forms.Textarea(attrs={"rows": 8, "cols": 60}),
        help_text="One a line: from-to entrants [@ table size]: shares in basis points, 1st first.",
    )
    delete = forms.BooleanField(label="Delete this structure instead", required=False)
    reason = forms.CharField(label="Reason", widget=forms.Textarea(attrs={"rows": 3}))

    def __init__(self, data: Any = None, *, structure: Any = None) -> None:
        from tournaments.payout_changes import ranges_of

        initial = {"name": structure.name, "ranges": ranges_as_lines(ranges_of(structure))} if structure else {}
        super().__init__(data, initial=initial)
        if structure is None:
            del self.fields["delete"]
        else:
            self.fields["name"].required = self.fields["ranges"].required = False

    def clean_ranges(self) -> list[dict[str, Any]]:
        return ranges_from_lines(self.cleaned_data.get("ranges") or "")

    def changes(self) -> dict[str, Any]:
        data = self.cleaned_data
        if data.get("delete"):
            return {"delete": True}
        changes: dict[str, Any] = {"ranges": data["ranges"]}
        if data.get("name") or self.fields["name"].required:
            changes["name"] = data.get("name") or ""
        return changes


class StaffActionForm(forms.Form):
    """The reason every staff action on a tournament records (the audit trail keeps it with who and when)."""

    reason = forms.CharField(
        label="Reason",
        max_length=300,
        help_text="Recorded with the action in the audit trail (who, when, before and after). A cancellation's "
        "reason is shown to the players.",
        widget=forms.TextInput(attrs={"size": 80}),
    )


class DelayForm(StaffActionForm):
    new_start = forms.DateTimeField(
        label="New start",
        help_text="Later than now and than the current start (the site's time zone, UTC).",
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )
    field_order = ("new_start", "reason")


class HandForHandForm(StaffActionForm):
    mode = forms.ChoiceField(label="Hand-for-hand", choices=HandForHandMode.choices, widget=forms.RadioSelect)
    field_order = ("mode", "reason")


KEEP_PRIZE, FORFEIT_PRIZE = "keep", "forfeit"
# --- cancel-desk: partial forfeiture and barring (TRN-28, TRN-09) ---
PARTIAL_AMOUNT, PARTIAL_PERCENT = "partial_amount", "partial_percent"


class DisqualifyForm(StaffActionForm):
    prize = forms.ChoiceField(
        label="An unpaid prize",
        choices=[
            (KEEP_PRIZE, "is kept (paid to the player)"),
            (FORFEIT_PRIZE, "is forfeited in full (moved to the house's seized funds)"),
            (PARTIAL_AMOUNT, "is forfeited in part: the amount below; the rest is paid to the player"),
            (PARTIAL_PERCENT, "is forfeited in part: the percentage below; the rest is paid to the player"),
        ],
        widget=forms.RadioSelect,
        help_text="TRN-28. The player is disqualified at once; a player still in play is removed with their chips "
        "and takes no place. A forfeiture is proposed: another staff member approves it (then it is done) or "
        "rejects it (then the prize is paid); the prize is withheld until then (issue 30). A prize already paid is "
        "seized through the compliance desk (a hold), not here.",
    )
    forfeit_amount = forms.DecimalField(
        label="Amount forfeited (€)",
        required=False,
        min_value=Decimal("0.01"),
        max_digits=12,
        decimal_places=2,
        help_text="For a partial forfeiture by amount: more than €0.00 and less than the prize.",
    )
    forfeit_percent = forms.DecimalField(
        label="Percentage forfeited",
        required=False,
        min_value=Decimal("0.01"),
        max_value=Decimal("99.99"),
        max_digits=4,
        decimal_places=2,
        help_text="For a partial forfeiture by percentage of the prize: the forfeited part is rounded down to the "
        "cent (the player keeps the fraction of a cent).",
    )
    bar = forms.BooleanField(
        label="Also bar the player from tournaments",
        required=False,
        help_text="TRN-28, TRN-09: their registrations to every tournament are refused from now on.",
    )
    field_order = ("prize", "forfeit_amount", "forfeit_percent", "bar", "reason")

    def clean(self) -> dict[str, Any]:
        cleaned: dict[str, Any] = super().clean() or {}
        choice = cleaned.get("prize")
        if choice == PARTIAL_AMOUNT and cleaned.get("forfeit_amount") is None:
            self.add_error("forfeit_amount", "Give the amount forfeited.")
        if choice == PARTIAL_PERCENT and cleaned.get("forfeit_percent") is None:
            self.add_error("forfeit_percent", "Give the percentage forfeited.")
        return cleaned

    @property
    def forfeit_prize(self) -> bool:
        return bool(self.cleaned_data.get("prize") == FORFEIT_PRIZE)

    @property
    def bar_player(self) -> bool:
        return bool(self.cleaned_data.get("bar"))

    def forfeit_cents_for(self, prize_cents: int) -> int | None:
        """The cents forfeited in part of a prize of ``prize_cents`` (None: no partial forfeiture)."""
        choice = self.cleaned_data.get("prize")
        if choice == PARTIAL_AMOUNT:
            return int(self.cleaned_data["forfeit_amount"] * 100)
        if choice == PARTIAL_PERCENT:
            return int(prize_cents * self.cleaned_data["forfeit_percent"] // 100)
        return None


class DisqualifyKeepingThePrizeForm(DisqualifyForm):
    """The disqualification for staff without ``tournaments.forfeit_prize`` (support): the prize is kept, as the
    forfeiture service would refuse anything else (issue 30: a forfeiture is the compliance desk's decision)."""

    prize = forms.ChoiceField(
        label="An unpaid prize",
        choices=[(KEEP_PRIZE, "is kept (paid to the player)")],
        initial=KEEP_PRIZE,
        widget=forms.RadioSelect,
        help_text="TRN-28. The player is disqualified at once; a player still in play is removed with their chips "
        "and takes no place. Forfeiting a prize (in full or in part) is the compliance desk's decision "
        "(tournaments.forfeit_prize): a reviewer proposes it with a case's disqualification and another approves it.",
    )
    forfeit_amount = None  # type: ignore[assignment]
    forfeit_percent = None  # type: ignore[assignment]
