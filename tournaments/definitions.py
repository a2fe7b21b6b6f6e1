"""A tournament's stored rows read as the pure rule values of ``tournaments.rules`` (levels, clock, breaks,
payouts, timebank, final stage), so every decision is made by the plain functions there."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Q
from django.utils.translation import gettext as _

from poker_site.core.compiled_sql import CompiledSelect
from tournaments.models import FinalStageStart as StoredFinalStageStart
from tournaments.models import Tournament, TournamentBreak, TournamentKind, TournamentLevel
from tournaments.rules.breaks import BreakPolicy
from tournaments.rules.common import RuleError
from tournaments.rules.fees import EntryPrice
from tournaments.rules.levels import BlindLevel, BlindStructure, LevelClock, Pause
from tournaments.rules.multi_buy_in import BuyInRange
from tournaments.rules.payouts import PayoutTemplate, PrizePool, payout_table, select_template
from tournaments.rules.rebuys import AddOnPolicy, AddOnTiming, RebuyPolicy
from tournaments.rules.satellites import SatellitePrizes, satellite_prizes
from tournaments.rules.timebank import FinalStageReconnect, FinalStageStart

# A tournament table's snapshot, hand start and clock read the levels and breaks: compiled once per process.
_LEVELS = CompiledSelect(
    lambda tournament_id: TournamentLevel.objects.filter(tournament_id=tournament_id).order_by("number")
)
_BREAKS = CompiledSelect(
    lambda tournament_id: TournamentBreak.objects.filter(tournament_id=tournament_id).order_by("started_at")
)


def blind_structure(tournament: Tournament, rows: Iterable[TournamentLevel] | None = None) -> BlindStructure:
    """The tournament's levels as a :class:`BlindStructure`: from ``rows`` when the caller read them already (in level
    order), else with one query."""
    levels = tuple(
        BlindLevel(level.small_blind, level.big_blind, level.ante, level.duration_seconds)
        for level in (_LEVELS.all(tournament.pk) if rows is None else rows)
    )
    return BlindStructure(tournament.name, tournament.starting_stack, levels)


def level_clock(tournament: Tournament, structure: BlindStructure | None = None) -> LevelClock:
    """The level clock of a started tournament: its start and the breaks recorded so far (TRN-02, TRN-30)."""
    assert tournament.started_at is not None, "only a started tournament has a level clock"
    pauses = tuple(Pause(row.started_at, row.ends_at) for row in _BREAKS.all(tournament.pk))
    if tournament.paused_at is not None:  # staff paused it: the clock stands still until it resumes (open pause)
        start = max([tournament.paused_at, tournament.started_at, *(pause.end for pause in pauses if pause.end)])
        pauses = (*pauses, Pause(start, None))
    return LevelClock(tournament.started_at, structure or blind_structure(tournament), pauses)


def break_policy(tournament: Tournament) -> BreakPolicy:
    every = None if tournament.synchronized_breaks else tournament.break_every_levels
    return BreakPolicy(
        synchronized=tournament.synchronized_breaks, every_levels=every, length_seconds=tournament.break_seconds
    )


def payout_templates(tournament: Tournament) -> list[PayoutTemplate]:
    return [
        PayoutTemplate(row.minimum_entrants, row.maximum_entrants, tuple(row.shares_basis_points), row.table_size)
        for row in tournament.payout_structure.ranges.all()
    ]


@dataclass(frozen=True)
class Payouts:
    """The prize per place (cents, 1st first), the pool and whether they may still change (TRN-06, TRN-07)."""

    prizes: tuple[int, ...]
    pool: int
    overlay: int
    provisional: bool

    @property
    def paid_places(self) -> int:
        return len(self.prizes)


def payouts_now(tournament: Tournament) -> Payouts:
    """Final payouts once registration closed (stored then); before that, what they would be with the entries so far
    (provisional, LOB-03)."""
    if tournament.registration_closed_at is not None and tournament.prize_pool is not None:
        return Payouts(tuple(tournament.prizes), tournament.prize_pool, 0, False)
    if tournament.phase_two_id is not None:  # TRN-45: a flight pays no prizes; its pool goes to Phase 2
        return Payouts((), tournament.entrants * tournament.buy_in, 0, True)
    if tournament.is_phase_two:  # TRN-45: the flights' prize pools carried so far
        return payouts_for(tournament, tournament.entrants, tournament.carried_prize_money, provisional=True)
    return payouts_for(tournament, tournament.entrants, contributions_so_far(tournament), provisional=True)


def contributions_so_far(tournament: Tournament) -> int:
    """The prize contributions paid so far: every entry's (entries and re-entries) and, where the tournament has
    them, every re-buy's and add-on's (TRN-38, TRN-39). One fixed buy-in without re-buys needs no query."""
    if not tournament.is_multi_buy_in and not tournament.offers_purchases:
        return tournament.entrants * tournament.buy_in
    return paid_contributions(tournament)


def out_of_the_field() -> Q:
    """The entries that are not in a tournament's field and whose money is not in its prize pool: unregistered and
    refunded ones (TRN-10, TRN-15, CXL-02), and a registrant disqualified before the start (TRN-28), who was refunded
    like an unregistration and never played — the only disqualified entry with no ``eliminated_at``."""
    from tournaments.models import EntryStatus

    return Q(status__in=[EntryStatus.UNREGISTERED, EntryStatus.REFUNDED]) | Q(
        status=EntryStatus.DISQUALIFIED, eliminated_at__isnull=True
    )


def paid_contributions(tournament: Tournament) -> int:
    """Prize contributions of every paid entry, re-entry, re-buy and add-on (two queries)."""
    from django.db.models import Sum

    from tournaments.models import TournamentEntry, TournamentPurchase

    paid = TournamentEntry.objects.filter(tournament=tournament).exclude(out_of_the_field())
    entries = paid.aggregate(total=Sum("prize_contribution"))["total"] or 0
    bought = TournamentPurchase.objects.filter(entry__in=paid).aggregate(total=Sum("prize_contribution"))["total"] or 0
    return int(entries) + int(bought)


def payouts_for(tournament: Tournament, entrants: int, contributions: int, *, provisional: bool) -> Payouts:
    """The payouts for ``entrants`` who contributed ``contributions`` cents: the guarantee is topped up by the house
    (overlay, TRN-07) and operator-added money joins the pool (TRN-17)."""
    pool = PrizePool(contributions + tournament.added_prize_money, tournament.guarantee)
    if tournament.satellite_target_id is not None:  # TRN-37: seats in the target, the rest in cash
        plan = satellite_plan(tournament, entrants, pool.total_cents)
        return Payouts(plan.prizes, pool.total_cents, pool.overlay_cents, provisional)
    counted = max(entrants, 2)
    templates = payout_templates(tournament)
    template = select_template(templates, counted, tournament.table_size)
    table = payout_table(
        [template],
        entrants=counted,
        seats_per_table=tournament.table_size,
        pool=pool,
        registration_closed=not provisional,
    )
    places = min(len(table.prizes_cents), max(entrants, 1))
    prizes = table.prizes_cents[:places]
    if places < len(table.prizes_cents):  # fewer entrants than places: the unpaid places' money goes to the winner
        prizes = (prizes[0] + sum(table.prizes_cents[places:]), *prizes[1:])
    return Payouts(prizes, pool.total_cents, pool.overlay_cents, provisional)


def payouts_for_pool(tournament: Tournament, entrants: int, pool_cents: int) -> tuple[int, ...]:
    """The prizes per place for ``entrants`` sharing a pool of exactly ``pool_cents`` (no guarantee is added)."""
    if tournament.satellite_target_id is not None:
        return satellite_plan(tournament, entrants, pool_cents).prizes
    counted = max(entrants, 2)
    template = select_template(payout_templates(tournament), counted, tournament.table_size)
    table = payout_table(
        [template],
        entrants=counted,
        seats_per_table=tournament.table_size,
        pool=PrizePool(pool_cents, 0),
        registration_closed=True,
    )
    places = min(len(table.prizes_cents), max(entrants, 1))
    prizes = table.prizes_cents[:places]
    if places < len(table.prizes_cents):
        prizes = (prizes[0] + sum(table.prizes_cents[places:]), *prizes[1:])
    return tuple(prizes)


def satellite_plan(tournament: Tournament, entrants: int, pool_cents: int) -> SatellitePrizes:
    """A satellite's seats and cash (TRN-37) for ``entrants`` and a pool of ``pool_cents``, a seat at the target's
    buy-in + fee (one query for the target)."""
    assert tournament.satellite_target_id is not None, "only a satellite has a seat price"
    target = Tournament.objects.only("buy_in", "fee").get(pk=tournament.satellite_target_id)
    return satellite_prizes(pool_cents, target.entry_price, entrants)


def final_stage(tournament: Tournament) -> FinalStageReconnect:
    starts = (
        FinalStageStart.IN_THE_MONEY
        if tournament.final_stage_from == StoredFinalStageStart.IN_THE_MONEY
        else FinalStageStart.FINAL_TABLE
    )
    return FinalStageReconnect(tournament.final_stage_reconnect_seconds, starts)


@dataclass(frozen=True)
class TournamentTableRules:
    """The :class:`games.runtime.policy.TableRules` of a tournament's tables (TB-02, TB-05, TB-07, TB-08, TRN-31)."""

    decision_seconds: int
    timebank_first_hand_seconds: int
    timebank_replenish_seconds: int
    timebank_replenish_every_hands: int
    timebank_cap_seconds: int
    reconnect_grace_seconds: int
    pause_between_hands_milliseconds: int
    sit_out_removal_seconds: int | None = None
    global_sit_out_seconds: int = 0


def table_rules(tournament: Tournament, *, final_stage_reached: bool = False) -> TournamentTableRules:
    """The clocks at the tournament's tables; in the final stage a disconnected player's grace grows by the
    final-stage extra time (AMB-44)."""
    extra = tournament.final_stage_reconnect_seconds if final_stage_reached else 0
    return TournamentTableRules(
        decision_seconds=tournament.decision_seconds,
        timebank_first_hand_seconds=tournament.timebank_first_hand_seconds,
        timebank_replenish_seconds=tournament.timebank_replenish_seconds,
        timebank_replenish_every_hands=tournament.timebank_replenish_every_hands,
        timebank_cap_seconds=tournament.timebank_cap_seconds,
        reconnect_grace_seconds=tournament.reconnect_grace_seconds + extra,
        pause_between_hands_milliseconds=tournament.pause_between_hands_milliseconds,
    )


def is_sit_and_go(tournament: Tournament) -> bool:
    return tournament.kind == TournamentKind.SIT_AND_GO


def moment_text(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


# --- rebuys-reentry: multi-buy-in, re-buys, add-on, re-entry (TRN-38, TRN-39, TRN-40) -------------------------------


def buy_in_range(tournament: Tournament) -> BuyInRange | None:
    """TRN-38: the buy-ins (whole amounts paid) a multi-buy-in tournament accepts; ``None`` for one fixed buy-in."""
    if tournament.buy_in_maximum is None:
        return None
    return BuyInRange(
        int(tournament.buy_in_minimum or 0), int(tournament.buy_in_maximum), int(tournament.buy_in_step or 0)
    )


def rebuy_policy(tournament: Tournament) -> RebuyPolicy | None:
    if tournament.rebuy_levels == 0:
        return None
    return RebuyPolicy(
        tournament.rebuy_levels,
        tournament.rebuy_maximum,
        tournament.rebuy_stack_threshold,
        EntryPrice(tournament.rebuy_buy_in, tournament.rebuy_fee),
        tournament.rebuy_chips,
    )


def add_on_policy(tournament: Tournament) -> AddOnPolicy | None:
    if not tournament.add_on_allowed:
        return None
    return AddOnPolicy(
        EntryPrice(tournament.add_on_buy_in, tournament.add_on_fee),
        tournament.add_on_chips,
        AddOnTiming(tournament.add_on_timing),
    )


def purchase_settings_errors(tournament: Tournament) -> dict[str, str]:
    """What is wrong with a definition's multi-buy-in, re-buy, add-on and re-entry settings, by field (empty: fine)."""
    errors: dict[str, str] = {}
    scheduled = tournament.kind == TournamentKind.SCHEDULED
    range_fields = (tournament.buy_in_minimum, tournament.buy_in_maximum, tournament.buy_in_step)
    if any(value is not None for value in range_fields):
        if any(value is None for value in range_fields):
            errors["buy_in_maximum"] = str(_("A multi-buy-in needs a minimum, a maximum and a step."))
        elif not scheduled:
            errors["buy_in_maximum"] = str(_("Only scheduled tournaments can be multi-buy-in."))
        elif tournament.is_freeroll:
            errors["buy_in_maximum"] = str(_("A freeroll has no buy-in to choose."))
        else:
            try:
                accepted = buy_in_range(tournament)
                assert accepted is not None
            except RuleError as error:
                errors["buy_in_maximum"] = str(error)
            else:
                if not accepted.minimum_cents <= tournament.entry_price <= accepted.maximum_cents:
                    errors["buy_in_minimum"] = str(
                        _("The base buy-in + fee must lie between the minimum and the maximum.")
                    )
    if tournament.rebuy_levels:
        if not scheduled:
            errors["rebuy_levels"] = str(_("Only scheduled tournaments offer re-buys."))
        else:
            try:
                rebuy_policy(tournament)
            except RuleError as error:
                errors["rebuy_levels"] = str(error)
    if tournament.add_on_allowed:
        if not tournament.rebuy_levels:
            errors["add_on_allowed"] = str(_("An add-on is offered at the end of a re-buy period: set one."))
        else:
            try:
                add_on_policy(tournament)
            except (RuleError, ValueError) as error:
                errors["add_on_allowed"] = str(error)
            if (
                tournament.add_on_timing == AddOnTiming.BREAK
                and not tournament.synchronized_breaks
                and not tournament.break_every_levels
            ):
                errors["add_on_timing"] = str(_("An add-on at the break needs scheduled breaks."))
    if tournament.re_entries_maximum and (not scheduled or not tournament.late_registration_levels):
        errors["re_entries_maximum"] = str(_("Re-entry is only within late registration: set late registration."))
    return errors
