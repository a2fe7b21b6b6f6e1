"""Staff defining and editing tournaments (TRN-02, LOB-07): what may change when, and the audited writes.

TRN-02 lets the operator change any parameter at any time, with two limits that keep a run's record true:

* once a tournament has started, the fields its players registered and were seated under stay as they were
  (:data:`FIXED_ONCE_STARTED`: the game, kind, seats of a Sit & Go, table size, buy-in, fee, starting stack, the
  scheduled start, a satellite's target and the house's money; a delay goes through ``tournament_delay`` before the
  start);
* once a player has paid an entry, what it was bought under (:data:`FIXED_ONCE_PAID`: the prices, the payout
  structure, a satellite's target, the bounty split, a flight's Phase 2) stays as it was: every entry of a tournament
  is bought on the same terms, and the lobby's price and payouts are what was sold;
* the house's money in a tournament (:data:`HOUSE_MONEY_FIELDS`: the guarantee, added prize money and VIP bounty) is
  never set by one staff member alone (issue 30): a change is proposed and applied when another staff member approves
  it (:mod:`tournaments.prize_money_changes`, which calls :func:`tournament_definition_update` with
  ``house_money_approved``); a new definition starts without it.
* a running tournament's past levels and its current level are history (the level clock is already past their
  start, and the tables dealt hands under them): only the levels after the current one may be changed, added or
  removed. A finished or cancelled tournament's definition is its record and does not change at all.

:func:`fields_change_check` and :func:`levels_change_check` say whether a change is allowed (the admin form
calls them to show the refusal on the field); :func:`tournament_definition_update` checks again under the
tournament's row lock and writes only what changed, with an audit row (before and after). :func:`tournament_define`
creates a definition the way ``tournament_create`` does (its Sit & Go timebank, minimum entrants and starting
stack defaults), audited.

The writes use ``@transaction.atomic`` without ``durable``: the admin's add and change pages already run in a
transaction of their own, and these services join it (their row lock and audit row commit or roll back with the page).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from datetime import datetime
from itertools import pairwise
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, models, transaction
from django.utils import timezone

from tournaments.definitions import level_clock
from tournaments.models import (
    LEVEL_CONSTRAINT_WORDS,
    TOURNAMENT_CONSTRAINT_WORDS,
    EntryStatus,
    Tournament,
    TournamentEntry,
    TournamentLevel,
    TournamentStatus,
)
from tournaments.rules.common import RuleError
from tournaments.rules.levels import BlindLevel, BlindStructure
from tournaments.rules.payouts import PayoutTemplate, check_template_set
from tournaments.rules.phases import FlightFacts, PhaseTwoFacts, flight_definition_problems
from tournaments.services.catalog import BOUNTY_FIELDS, DEFINITION_FIELDS, PHASE_FIELDS, tournament_create
from tournaments.services.errors import TournamentError
from tournaments.services.running import primary_key, tournament_lock, tournament_save
from wallet.services.audit import audit_record

HOUSE_MONEY_FIELDS = ("guarantee", "added_prize_money", "vip_player", "vip_bounty")
"""What the house pays into a tournament (the guarantee's overlay, TRN-07; added prize money, TRN-17; the VIP bounty and
its VIP, TRN-43): set only by a proposal a second staff member approves (issue 30)."""

PRICE_FIELDS = (
    "buy_in",
    "fee",
    "bounty",
    "buy_in_minimum",
    "buy_in_maximum",
    "buy_in_step",
    "rebuy_buy_in",
    "rebuy_fee",
    "add_on_buy_in",
    "add_on_fee",
)
"""What an entry, a re-buy or an add-on costs: fixed once a player has paid an entry."""

FIXED_ONCE_PAID = (
    *PRICE_FIELDS,
    "payout_structure",
    "satellite_target",
    "bounty_kind",
    "bounty_credited_percent",
    "bounty_added_percent",
    *PHASE_FIELDS,
)
"""What a player paid an entry under: its prices, how the prize pool is paid out (a payout structure change is a
proposal of its own, TRN-06), a satellite's prize, the bounty split and a flight's Phase 2 (TRN-41, TRN-42, TRN-45).
Fixed once a player has paid an entry (a QA tester switched a running tournament's payouts to winner-takes-all)."""

PAID_ENTRY_STATUSES = (
    EntryStatus.REGISTERED,
    EntryStatus.PLAYING,
    EntryStatus.BUSTED,
    EntryStatus.FINISHED,
    EntryStatus.DISQUALIFIED,
    EntryStatus.QUALIFIED,
)
"""An entry whose price was paid and not given back (unregistered and refunded entries were)."""

FIXED_ONCE_STARTED = (
    "kind",
    "variant",
    "seats_to_start",
    "table_size",
    "buy_in",
    "fee",
    "starting_stack",
    "starts_at",
    "satellite_target",
    *PHASE_FIELDS,
    *BOUNTY_FIELDS,
    "buy_in_minimum",
    "buy_in_maximum",
    "buy_in_step",
    "rebuy_buy_in",
    "rebuy_fee",
    "rebuy_chips",
    "add_on_buy_in",
    "add_on_fee",
    "add_on_chips",
    "guarantee",
    "added_prize_money",
)
"""Definition fields that never change once a tournament has started (its players registered and were seated under
them)."""

EDITABLE_FIELDS = frozenset((*DEFINITION_FIELDS, "starts_at", "registration_opens_at"))
"""Every field staff may set on a definition; the rest of the row is the state of the run."""

OVER = (TournamentStatus.FINISHED, TournamentStatus.CANCELLED)


class DefinitionRefused(TournamentError):
    """A change staff may not make now; ``field_errors`` names the fields it concerns (``None``: the levels or the
    whole definition). Nothing was changed."""

    code = "definition_refused"

    def __init__(self, message: str, field_errors: Mapping[str | None, str] | None = None) -> None:
        super().__init__(message)
        self.field_errors: dict[str | None, str] = dict(field_errors or {None: message})


@dataclass(frozen=True)
class LevelRow:
    """One level as staff set it (level 1 first)."""

    number: int
    small_blind: int
    big_blind: int
    ante: int
    duration_seconds: int

    @classmethod
    def of(cls, level: TournamentLevel) -> LevelRow:
        return cls(level.number, level.small_blind, level.big_blind, level.ante, level.duration_seconds)

    def blind_level(self) -> BlindLevel:
        return BlindLevel(self.small_blind, self.big_blind, self.ante, self.duration_seconds)


def levels_of(tournament: Tournament) -> list[LevelRow]:
    return [LevelRow.of(level) for level in TournamentLevel.objects.filter(tournament=tournament).order_by("number")]


def levels_played(tournament: Tournament, now: datetime, stored: Sequence[LevelRow] | None = None) -> int:
    """How many of the tournament's first levels are history at ``now`` and stay as they are: none before the start;
    while it runs, up to the current level (the later of the clock's reading and the level recorded for the lobby,
    so a level that began a moment ago counts even before the coordinator noticed); once it is over, all of them."""
    stored = levels_of(tournament) if stored is None else stored
    if tournament.status in OVER:
        return len(stored)
    if tournament.started_at is None or not stored:
        return 0
    structure = BlindStructure(
        tournament.name, max(tournament.starting_stack, 1), tuple(level.blind_level() for level in stored)
    )
    current = level_clock(tournament, structure).reading(max(now, tournament.started_at)).number
    return min(max(current, tournament.level_number), len(stored))


def levels_check(levels: Sequence[LevelRow]) -> None:
    """The levels form a blind structure: at least one, numbered 1, 2, 3 ... without gaps, each a valid level
    (blinds of at least 1, the small blind not above the big blind, a length of at least a second)."""
    if not levels:
        raise DefinitionRefused("A tournament needs at least one level.")
    numbers = sorted(level.number for level in levels)
    if numbers != list(range(1, len(numbers) + 1)):
        raise DefinitionRefused(
            f"Levels are numbered 1 to {len(numbers)} without gaps or repeats; these are "
            f"{', '.join(map(str, numbers))}."
        )
    for level in levels:
        try:
            level.blind_level()
        except RuleError as error:
            raise DefinitionRefused(f"Level {level.number}: {error}.") from error


def _over_message(tournament: Tournament) -> str:
    return (
        f"{tournament.name} is {tournament.get_status_display()}: its definition is the record of what was played "
        "and does not change."
    )


def _label(name: str) -> str:
    return str(getattr(Tournament._meta.get_field(name), "verbose_name", name))


def fields_change_check(tournament: Tournament, changed: Iterable[str], *, house_money_approved: bool = False) -> None:
    """Refuse changing ``changed`` definition fields of ``tournament`` as it is now (see the module docstring); the
    house's money only with ``house_money_approved`` (a second staff member approved it)."""
    names = set(changed)
    unknown = sorted(names - EDITABLE_FIELDS)
    if unknown:
        raise DefinitionRefused(f"Not a field of a tournament's definition: {', '.join(unknown)}.")
    if not names:
        return
    if tournament.status in OVER:
        raise DefinitionRefused(_over_message(tournament))
    fixed = [name for name in FIXED_ONCE_STARTED if name in names]
    if tournament.started_at is not None and fixed:
        started = f"{tournament.started_at:%Y-%m-%d %H:%M} UTC"
        raise DefinitionRefused(
            f"{tournament.name} started at {started}: its players registered and were seated under these values, "
            "which stay as they were. Nothing was changed.",
            {name: f"Fixed since the start ({started}): {_label(name)} cannot change any more." for name in fixed},
        )
    house_money = [name for name in HOUSE_MONEY_FIELDS if name in names]
    if house_money and not house_money_approved:
        raise DefinitionRefused(
            "The house pays the guarantee, added prize money and VIP bounty: a change is proposed with a reason and "
            "applied when another staff member approves it. Nothing was changed.",
            {
                name: f"Paid by the house: {_label(name)} changes by a proposal another staff member approves."
                for name in house_money
            },
        )
    prices = [name for name in FIXED_ONCE_PAID if name in names]
    if prices and tournament.pk is not None:
        paid = TournamentEntry.objects.filter(tournament_id=tournament.pk, status__in=PAID_ENTRY_STATUSES).count()
        if paid:
            raise DefinitionRefused(
                f"{paid} player{'s have' if paid != 1 else ' has'} paid an entry of {tournament.name} under these "
                "terms, which stay as they were (every entry is bought on the same terms). Nothing was changed.",
                {name: f"Fixed since the first paid entry: {_label(name)} cannot change any more." for name in prices},
            )


def levels_change_check(tournament: Tournament, levels: Sequence[LevelRow], now: datetime) -> None:
    """Refuse replacing ``tournament``'s levels by ``levels`` when it changes, removes or renumbers a level that is
    history (:func:`levels_played`), or when ``levels`` are not a blind structure (:func:`levels_check`)."""
    stored = levels_of(tournament)
    if sorted(levels, key=lambda level: level.number) == stored:
        return
    if tournament.status in OVER:
        raise DefinitionRefused(_over_message(tournament))
    played = levels_played(tournament, now, stored)
    wanted = {level.number: level for level in levels}
    touched = [level.number for level in stored[:played] if wanted.get(level.number) != level]
    if touched:
        raise DefinitionRefused(
            f"Level {played} is the current level of {tournament.name}: levels 1 to {played} are history (the clock "
            f"is past their start) and stay as they were; you changed or removed level "
            f"{', '.join(map(str, touched))}. Change levels from {played + 1} on. Nothing was changed."
        )
    levels_check(levels)


def phases_definition_problems(
    value: Callable[[str], Any], pk: int | None, *, levels: int | None = None
) -> list[tuple[str, str]]:
    """TRN-45: what makes a definition unfit as a Phase 1 flight or as a Phase 2, each ``(field, message)``.
    ``value(name)`` gives the definition's value of a field, ``pk`` its id (``None``: a new one), ``levels`` its number
    of levels when known (else those stored). A flight feeds a Phase 2 of the same game that starts after it, ends
    after one of its levels (its final level, the last played; level 1 or later) with its late registration closed
    before, and pays no prizes of its own
    (``tournaments.rules.phases.flight_definition_problems``); a Phase 2 is scheduled, has no buy-in or fee (nobody
    registers for it), starts after all its flights and stays a Phase 2 while flights feed it."""
    problems: list[tuple[str, str]] = []
    target = value("phase_two")
    is_phase_two = bool(value("is_phase_two"))
    final_level = value("final_level")
    if target is None:
        if final_level is not None:
            problems.append(("final_level", "Only a Phase 1 flight ends after a set level: choose its Phase 2 too."))
    elif pk is not None and target.pk == pk:
        problems.append(("phase_two", "A tournament cannot be a flight of itself."))
    else:
        if levels is None:
            levels = TournamentLevel.objects.filter(tournament_id=pk).count() if pk is not None else 0
        flight = FlightFacts(
            kind=str(value("kind") or ""),
            variant=str(value("variant") or ""),
            starts_at=value("starts_at"),
            final_level=final_level,
            levels=levels,
            guarantee=int(value("guarantee") or 0),
            added_prize_money=int(value("added_prize_money") or 0),
            satellite=value("satellite_target") is not None,
            is_phase_two=is_phase_two,
            late_registration_levels=int(value("late_registration_levels") or 0),
        )
        phase_two = PhaseTwoFacts(
            kind=target.kind,
            variant=target.variant,
            starts_at=target.starts_at,
            is_phase_two=target.is_phase_two,
            status=target.status,
        )
        problems += flight_definition_problems(flight, phase_two)
    if not is_phase_two:
        if pk is not None and Tournament.objects.filter(phase_two_id=pk).exists():
            problems.append(("is_phase_two", "Flights feed this Phase 2: it stays a Phase 2 (TRN-45)."))
        return problems
    if int(value("buy_in") or 0) or int(value("fee") or 0):
        problems.append(
            ("buy_in", "Phase 2 has no buy-in or fee of its own: its prize pool is the flights' buy-ins (TRN-45).")
        )
    if value("kind") != "scheduled":
        problems.append(("kind", "Phase 2 is a scheduled multi-table tournament (TRN-45)."))
    starts_at = value("starts_at")
    if pk is not None and starts_at is not None:
        later = Tournament.objects.filter(phase_two_id=pk, starts_at__gte=starts_at).first()
        if later is not None:
            problems.append(("starts_at", f"Phase 2 starts after its flights; {later.name} starts later."))
    return problems


def phases_definition_check(tournament: Tournament) -> None:
    """Raise :class:`DefinitionRefused` naming the fields when ``tournament`` (its values as they are about to be
    written) is unfit as a flight or a Phase 2 (:func:`phases_definition_problems`)."""
    plain = tournament.phase_two_id is None and not tournament.is_phase_two and tournament.final_level is None
    if plain and (tournament.pk is None or not Tournament.objects.filter(phase_two_id=tournament.pk).exists()):
        return
    problems = phases_definition_problems(lambda name: getattr(tournament, name), tournament.pk)
    if problems:
        errors: dict[str | None, str] = {}
        for name, message in problems:
            errors[name] = f"{errors[name]} {message}" if name in errors else message
        raise DefinitionRefused(" ".join(message for _name, message in problems), errors)


def _plain(value: Any) -> Any:
    """A field value as the audit row's JSON keeps it."""
    if isinstance(value, models.Model):
        return value.pk
    if isinstance(value, datetime):
        return value.isoformat()
    return value


@transaction.atomic
def tournament_definition_update(
    tournament: Tournament | int,
    *,
    changes: Mapping[str, Any],
    levels: Sequence[LevelRow] | None = None,
    actor: Any,
    now: datetime | None = None,
    house_money_approved: bool = False,
) -> Tournament:
    """Change a definition's fields (``changes``: field name to new value) and, when ``levels`` is given, replace its
    levels by them, under the tournament's row lock, after :func:`fields_change_check` and
    :func:`levels_change_check` (the house's money only with ``house_money_approved``:
    :mod:`tournaments.prize_money_changes` applying an approved proposal). Writes only the fields
    whose value differs (never the state of the run) and only the level rows that differ, bumps the version, records
    one audit row with the values before and after, and tells the lobby after commit. Returns the tournament; raises
    :class:`DefinitionRefused` (nothing changed) when the change is not allowed or the values are not valid."""
    moment = now or timezone.now()
    locked = tournament_lock(primary_key(tournament))
    different = {name: value for name, value in changes.items() if getattr(locked, name, object()) != value}
    stored = levels_of(locked)
    new_levels = None if levels is None else sorted(levels, key=lambda level: level.number)
    if new_levels == stored:
        new_levels = None
    fields_change_check(locked, different, house_money_approved=house_money_approved)
    if new_levels is not None:
        levels_change_check(locked, new_levels, moment)
    if not different and new_levels is None:
        return locked
    before = {name: _plain(getattr(locked, name)) for name in different}
    for name, value in different.items():
        setattr(locked, name, value)
    try:
        locked.full_clean()
        phases_definition_check(locked)  # TRN-45
        late_registration_check(locked.late_registration_levels, len(new_levels if new_levels is not None else stored))
    except ValidationError as error:
        raise DefinitionRefused(
            " ".join(error.messages), {name: " ".join(texts) for name, texts in error.message_dict.items()}
        ) from error
    if different:
        tournament_save(locked, *different)
    details: dict[str, Any] = {
        "tournament": locked.pk,
        "before": before,
        "after": {name: _plain(value) for name, value in different.items()},
    }
    if new_levels is not None:
        _levels_write(locked, stored, new_levels)
        if not different:
            tournament_save(locked)
        details["before"]["levels"] = [asdict(level) for level in stored if level not in new_levels]
        details["after"]["levels"] = [asdict(level) for level in new_levels if level not in stored]
    audit_record(
        action="tournament_definition_changed",
        actor=actor,
        details=details,
        target=f"tournaments.tournament:{locked.pk}",
    )
    _announce(locked.pk)
    return locked


def _levels_write(tournament: Tournament, stored: Sequence[LevelRow], levels: Sequence[LevelRow]) -> None:
    """Make the tournament's level rows ``levels``, touching only the rows that differ."""
    wanted = {level.number: level for level in levels}
    had = {level.number: level for level in stored}
    TournamentLevel.objects.filter(tournament=tournament, number__in=set(had) - set(wanted)).delete()
    for number, level in wanted.items():
        if number in had and had[number] != level:
            TournamentLevel.objects.filter(tournament=tournament, number=number).update(
                small_blind=level.small_blind,
                big_blind=level.big_blind,
                ante=level.ante,
                duration_seconds=level.duration_seconds,
            )
    TournamentLevel.objects.bulk_create(
        TournamentLevel(tournament=tournament, **asdict(level)) for number, level in wanted.items() if number not in had
    )


def tournament_define(
    fields: Mapping[str, Any],
    *,
    structure: BlindStructure | None = None,
    levels: Sequence[LevelRow] | None = None,
    actor: Any,
) -> Tournament:
    """A new definition through ``tournament_create``: fields not given get its defaults (a Sit & Go's timebank and
    minimum entrants, the structure's starting stack, the standard payouts). Its levels are ``levels`` when given
    (checked by :func:`levels_check`), else those of ``structure`` (``None``: the default for its kind). Audited.
    Raises :class:`DefinitionRefused` (nothing created) when the values, defaults included, are not a valid
    definition."""
    values = dict(fields)
    unknown = sorted(set(values) - EDITABLE_FIELDS)
    if unknown:
        raise DefinitionRefused(f"Not a field of a tournament's definition: {', '.join(unknown)}.")
    house_money = [name for name in HOUSE_MONEY_FIELDS if values.get(name)]
    if house_money:
        raise DefinitionRefused(
            "A new tournament starts without the house's money: once it exists, propose the guarantee, added prize "
            "money or VIP bounty; another staff member approves it (issue 30). Nothing was created.",
            {name: "Proposed once the tournament exists; another staff member approves it." for name in house_money},
        )
    if levels is not None:
        levels_check(levels)
        ordered = sorted(levels, key=lambda level: level.number)
        stack = values.get("starting_stack") or Tournament._meta.get_field("starting_stack").get_default()
        structure = BlindStructure(str(values.get("name", "")), stack, tuple(level.blind_level() for level in ordered))
    try:
        with transaction.atomic():
            tournament = tournament_create(structure=structure, **values)
            tournament.full_clean()
            phases_definition_check(tournament)  # TRN-45
            late_registration_check(
                tournament.late_registration_levels, TournamentLevel.objects.filter(tournament=tournament).count()
            )
            audit_record(
                target=f"tournaments.tournament:{tournament.pk}",
                action="tournament_defined",
                actor=actor,
                details={
                    "tournament": tournament.pk,
                    "before": {},
                    "after": {name: _plain(getattr(tournament, name)) for name in sorted(EDITABLE_FIELDS)},
                },
            )
    except ValidationError as error:
        raise DefinitionRefused(
            " ".join(error.messages), {name: " ".join(texts) for name, texts in error.message_dict.items()}
        ) from error
    except IntegrityError as error:
        raise DefinitionRefused(
            "With the defaults filled in for what you left unchanged, these values are not a valid definition: "
            f"{_broken_rule(error)} Nothing was created."
        ) from error
    _announce(tournament.pk)
    return tournament


@dataclass(frozen=True)
class PayoutRangeRow:
    """One entrant range of a payout structure as staff set it (``shares``: basis points per place, 1st first)."""

    minimum_entrants: int
    maximum_entrants: int | None
    table_size: int | None
    shares: Any

    def label(self) -> str:
        upper = "∞" if self.maximum_entrants is None else self.maximum_entrants
        tables = "" if self.table_size is None else f" at {self.table_size}-seat tables"
        return f"{self.minimum_entrants}–{upper} entrants{tables}"


def payout_ranges_check(rows: Sequence[PayoutRangeRow]) -> tuple[PayoutTemplate, ...]:
    """The ranges of a payout structure as templates (TRN-06), or :class:`DefinitionRefused` saying what is wrong:
    each range's shares are whole basis points that add up to 10,000 and never increase from a place to the next,
    paying no more places than its smallest field has entrants; ranges for the same table size neither overlap nor
    leave a gap between them (a tournament whose entrant count fell in the gap would have no payouts)."""
    if not rows:
        raise DefinitionRefused("A payout structure needs at least one entrant range.")
    templates = []
    for row in rows:
        shares = row.shares
        if not isinstance(shares, list) or not all(type(share) is int for share in shares):
            raise DefinitionRefused(
                f"{row.label()}: the shares are a list of whole basis points, 1st place first, e.g. [5000, 3000, 2000]."
            )
        try:
            templates.append(PayoutTemplate(row.minimum_entrants, row.maximum_entrants, tuple(shares), row.table_size))
        except RuleError as error:
            raise DefinitionRefused(f"{row.label()}: {error}.") from error
    try:
        check_template_set(templates)
    except RuleError as error:
        raise DefinitionRefused(f"The ranges overlap: {error}.") from error
    by_table_size: dict[int | None, list[PayoutTemplate]] = {}
    for template in templates:
        by_table_size.setdefault(template.seats_per_table, []).append(template)
    for group in by_table_size.values():
        group.sort(key=lambda template: template.minimum_entrants)
        for lower, upper in pairwise(group):
            assert lower.maximum_entrants is not None  # check_template_set: only the last range is open
            if lower.maximum_entrants + 1 < upper.minimum_entrants:
                raise DefinitionRefused(
                    f"No range holds {lower.maximum_entrants + 1}–{upper.minimum_entrants - 1} entrants: a tournament "
                    "with that many would have no payouts. Close the gap."
                )
    return tuple(templates)


def _broken_rule(error: IntegrityError) -> str:
    """The rule a refused insert broke, in words (``TOURNAMENT_CONSTRAINT_WORDS``), else the database's text."""
    text = str(error)
    for name, (_field, message) in {**TOURNAMENT_CONSTRAINT_WORDS, **LEVEL_CONSTRAINT_WORDS}.items():
        if name in text:
            return message
    return text.splitlines()[0] + "."


def late_registration_check(late_registration_levels: int, levels: int) -> None:
    """Late registration closes at the end of one of the tournament's levels: refuse more levels than it has."""
    if late_registration_levels > levels:
        message = (
            f"Late registration can last at most the {levels} level{'s' if levels != 1 else ''} of the structure, "
            f"not {late_registration_levels}: add levels or shorten it."
        )
        raise DefinitionRefused(message, {"late_registration_levels": message})


def _announce(tournament_id: int) -> None:
    from tournaments import realtime

    realtime.tournament_changed_after_commit(tournament_id)
