"""Creating tournament definitions (the back office, the demo data, tests): a tournament with its levels copied from
a blind structure and a payout structure, seeded with the defaults of ``tournaments.rules`` when none is given."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction

from tournaments.models import PayoutRange, PayoutStructure, Tournament, TournamentKind, TournamentLevel
from tournaments.rules.levels import DEFAULT_MULTI_TABLE_STRUCTURE, DEFAULT_SIT_AND_GO_STRUCTURE, BlindStructure
from tournaments.rules.payouts import DEFAULT_PAYOUT_TEMPLATES, PayoutTemplate, check_template_set
from tournaments.rules.timebank import SIT_AND_GO_TIMEBANK

STANDARD_PAYOUTS = "Standard payouts"


def payout_structure_create(name: str, templates: tuple[PayoutTemplate, ...]) -> PayoutStructure:
    """A payout structure with one range per template (checked: ranges cover the entrants without overlap)."""
    check_template_set(templates)
    structure, created = PayoutStructure.objects.get_or_create(name=name)
    if created:
        PayoutRange.objects.bulk_create(
            PayoutRange(
                structure=structure,
                minimum_entrants=template.minimum_entrants,
                maximum_entrants=template.maximum_entrants,
                table_size=template.seats_per_table,
                shares_basis_points=list(template.basis_points),
            )
            for template in templates
        )
    return structure


def payout_structure_standard() -> PayoutStructure:
    return payout_structure_create(STANDARD_PAYOUTS, DEFAULT_PAYOUT_TEMPLATES)


def levels_replace(tournament: Tournament, structure: BlindStructure) -> None:
    """Give a tournament that has not started the levels of ``structure``."""
    TournamentLevel.objects.filter(tournament=tournament).delete()
    TournamentLevel.objects.bulk_create(
        TournamentLevel(
            tournament=tournament,
            number=number,
            small_blind=level.small_blind,
            big_blind=level.big_blind,
            ante=level.ante,
            duration_seconds=level.duration_seconds,
        )
        for number, level in enumerate(structure.levels, start=1)
    )


@transaction.atomic
def tournament_create(
    *,
    name: str,
    kind: str = TournamentKind.SCHEDULED,
    starts_at: datetime | None = None,
    seats_to_start: int | None = None,
    structure: BlindStructure | None = None,
    payout_structure: PayoutStructure | None = None,
    **fields: Any,
) -> Tournament:
    """A new tournament definition, registering. Sit & Gos get the SNG timebank row (TB-02, AMB-67) unless given."""
    if structure is None:
        structure = DEFAULT_SIT_AND_GO_STRUCTURE if kind == TournamentKind.SIT_AND_GO else DEFAULT_MULTI_TABLE_STRUCTURE
    if kind == TournamentKind.SIT_AND_GO:
        fields.setdefault("timebank_first_hand_seconds", SIT_AND_GO_TIMEBANK.first_hand_seconds)
        fields.setdefault("timebank_cap_seconds", SIT_AND_GO_TIMEBANK.cap_seconds)
        fields.setdefault("timebank_replenish_every_hands", SIT_AND_GO_TIMEBANK.replenish_every_hands)
        fields.setdefault("timebank_replenish_seconds", SIT_AND_GO_TIMEBANK.replenish_seconds)
        fields.setdefault("minimum_entrants", seats_to_start or 2)
    fields.setdefault("starting_stack", structure.starting_stack)
    tournament = Tournament.objects.create(
        name=name,
        kind=kind,
        starts_at=starts_at,
        seats_to_start=seats_to_start,
        payout_structure=payout_structure or payout_structure_standard(),
        **fields,
    )
    levels_replace(tournament, structure)
    return tournament


PHASE_FIELDS = ("is_phase_two", "phase_two", "final_level")
"""A phased tournament's definition (TRN-45)."""
BOUNTY_FIELDS = ("bounty_kind", "bounty", "bounty_credited_percent", "bounty_added_percent", "vip_player", "vip_bounty")
"""A bounty tournament's definition (TRN-41..TRN-43)."""
PURCHASE_FIELDS = (
    "buy_in_minimum",
    "buy_in_maximum",
    "buy_in_step",
    "rebuy_levels",
    "rebuy_maximum",
    "rebuy_stack_threshold",
    "rebuy_buy_in",
    "rebuy_fee",
    "rebuy_chips",
    "add_on_allowed",
    "add_on_buy_in",
    "add_on_fee",
    "add_on_chips",
    "add_on_timing",
    "re_entries_maximum",
)
"""Multi-buy-in, re-buys, the add-on and re-entry (TRN-38..TRN-40)."""

DEFINITION_FIELDS = (
    "name",
    "kind",
    "variant",
    "seats_to_start",
    "table_size",
    "buy_in",
    "fee",
    "added_prize_money",
    "guarantee",
    "starting_stack",
    "late_registration_levels",
    "unregistration_allowed",
    "unregistration_closes_minutes",
    "minimum_entrants",
    "maximum_entrants",
    "synchronized_breaks",
    "break_every_levels",
    "break_seconds",
    "payout_structure",
    "end_when_prizes_identical",
    "hand_for_hand_mode",
    "decision_seconds",
    "timebank_first_hand_seconds",
    "timebank_cap_seconds",
    "timebank_replenish_seconds",
    "timebank_replenish_every_hands",
    "reconnect_grace_seconds",
    "final_stage_reconnect_seconds",
    "final_stage_from",
    "pause_between_hands_milliseconds",
    *PHASE_FIELDS,
    "reopens",
    "eligibility",
    "series",
    "satellite_target",
    *BOUNTY_FIELDS,
    *PURCHASE_FIELDS,
)
"""The fields of a definition (TRN-02), as opposed to the state of a run."""


COPY_WITHOUT_HOUSE_MONEY: dict[str, Any] = {"guarantee": 0, "added_prize_money": 0, "vip_player": None, "vip_bounty": 0}


def tournament_copy(tournament: Tournament, **changes: Any) -> Tournament:
    """A new tournament with ``tournament``'s definition and levels (``changes`` override fields, e.g. the start),
    but without the house's money: the guarantee, added prize money and VIP bounty a second staff member approved were
    approved for ``tournament`` alone (issue 30), so a copy (the next Sit & Go that opens when one starts) has none
    unless ``changes`` give it."""
    fields = {name: getattr(tournament, name) for name in DEFINITION_FIELDS}
    fields.update(COPY_WITHOUT_HOUSE_MONEY)
    fields.update(changes)
    copy = Tournament.objects.create(**fields)
    TournamentLevel.objects.bulk_create(
        TournamentLevel(
            tournament=copy,
            number=level.number,
            small_blind=level.small_blind,
            big_blind=level.big_blind,
            ante=level.ante,
            duration_seconds=level.duration_seconds,
        )
        for level in tournament.levels.order_by("number")
    )
    return copy
