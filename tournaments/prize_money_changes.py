"""The house's money in a tournament (the guarantee, TRN-07; added prize money, TRN-17; the VIP bounty and its VIP,
TRN-43) changes by proposal and a second staff member's approval (issue 30), as a kind of rule of
:mod:`poker_site.core.rule_changes`.

A proposal names a tournament (``tournaments.tournament:<pk>``) and the new values of some of
:data:`tournaments.services.definition.HOUSE_MONEY_FIELDS` (amounts in cents, the VIP by user id or ``None``). It is
refused when nothing changes, when the tournament has started or is over (the house's money is fixed once it started),
or when the definition would not be valid with it (e.g. a VIP bounty without its VIP, a Phase 1 flight with prize
money). More than :data:`HIGHEST_HOUSE_MONEY_WITHOUT_AN_ADMINISTRATOR` of the house's money in one tournament needs an
administrator's approval. Approved, :func:`tournaments.services.definition.tournament_definition_update` writes it
with its audit row, in the approver's name.

Holders of ``tournaments.change_tournament`` (support staff, administrators) propose and approve, never their own.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError

from poker_site.core.models import RuleChangeProposal
from poker_site.core.money import euros
from poker_site.core.rule_changes import CheckedChange, RuleChangeRefused, RuleKind, target_row
from tournaments.models import Tournament
from tournaments.services.definition import (
    HOUSE_MONEY_FIELDS,
    DefinitionRefused,
    fields_change_check,
    tournament_definition_update,
)

CHANGE_TOURNAMENT = "tournaments.change_tournament"
TARGET_PREFIX = "tournaments.tournament:"
HIGHEST_HOUSE_MONEY_WITHOUT_AN_ADMINISTRATOR = 1_000_000
"""Cents: over €10,000 of the house's money in one tournament (guarantee + added prize money + VIP bounty), an
administrator approves."""
AMOUNT_FIELDS = ("guarantee", "added_prize_money", "vip_bounty")


def tournament_target(tournament: Tournament | int) -> str:
    return f"{TARGET_PREFIX}{tournament if isinstance(tournament, int) else tournament.pk}"


def _tournament(target: str) -> Tournament:
    return target_row(target, TARGET_PREFIX, Tournament.objects.all(), "tournament")


def _amount(name: str, value: object) -> int:
    if type(value) is not int or value < 0:
        raise RuleChangeRefused(f"{name} is a whole number of cents from 0, not {value!r}.")
    return value


def _vip(value: object) -> int | None:
    if value is None:
        return None
    if type(value) is not int or not get_user_model().objects.filter(pk=value).exists():
        raise RuleChangeRefused(f"The VIP player is a player's id or empty, not {value!r}.")
    return value


def _current(tournament: Tournament) -> dict[str, Any]:
    return {**{name: getattr(tournament, name) for name in AMOUNT_FIELDS}, "vip_player": tournament.vip_player_id}


def _describe(name: str, value: Any) -> str:
    if name == "vip_player":
        if value is None:
            return "nobody"
        user = get_user_model().objects.filter(pk=value).first()
        return user.get_username() if user is not None else f"player #{value}"
    return euros(value)


def house_money_check(target: str, changes: dict[str, Any]) -> CheckedChange:
    tournament = _tournament(target)
    unknown = set(changes) - set(HOUSE_MONEY_FIELDS)
    if unknown:
        raise RuleChangeRefused(f"Not the house's money in a tournament: {', '.join(sorted(unknown))}.")
    normalised = {
        name: _vip(value) if name == "vip_player" else _amount(name, value) for name, value in changes.items()
    }
    before = _current(tournament)
    different = {name: value for name, value in normalised.items() if before[name] != value}
    if not different:
        raise RuleChangeRefused(f"These are {tournament.name}'s values already: nothing to change.")
    try:
        fields_change_check(tournament, different, house_money_approved=True)
    except DefinitionRefused as refusal:
        raise RuleChangeRefused(refusal.message) from refusal
    trial = Tournament.objects.get(pk=tournament.pk)
    for name, value in different.items():
        setattr(trial, f"{name}_id" if name == "vip_player" else name, value)
    try:
        trial.full_clean()
    except ValidationError as error:
        raise RuleChangeRefused(" ".join(error.messages)) from error
    house_money = sum(getattr(trial, name) for name in AMOUNT_FIELDS)
    needs_administrator = house_money > HIGHEST_HOUSE_MONEY_WITHOUT_AN_ADMINISTRATOR
    return CheckedChange(
        summary=f"{tournament.name}: "
        + ", ".join(
            f"{name.replace('_', ' ')} {_describe(name, before[name])} → {_describe(name, value)}"
            for name, value in different.items()
        ),
        before={name: before[name] for name in different},
        changes=different,
        needs_administrator=needs_administrator,
        why_administrator=f"{euros(house_money)} of the house's money in one tournament, over "
        f"{euros(HIGHEST_HOUSE_MONEY_WITHOUT_AN_ADMINISTRATOR)}"
        if needs_administrator
        else "",
    )


def house_money_apply(proposal: RuleChangeProposal, changes: dict[str, Any]) -> None:
    """Write the approved values (in the approver's name) through the definition service, under its row lock."""
    values: dict[str, Any] = dict(changes)
    if "vip_player" in values and values["vip_player"] is not None:
        values["vip_player"] = get_user_model().objects.get(pk=values["vip_player"])
    tournament_definition_update(
        int(proposal.target.removeprefix(TARGET_PREFIX)),
        changes=values,
        actor=proposal.decided_by,
        house_money_approved=True,
    )


TOURNAMENT_HOUSE_MONEY = RuleKind(
    name="tournament_house_money",
    label="the house's money in a tournament (guarantee, added prize money, VIP bounty)",
    propose_permission=CHANGE_TOURNAMENT,
    approve_permission=CHANGE_TOURNAMENT,
    check=house_money_check,
    apply_decided=house_money_apply,
    refusals=(DefinitionRefused,),
)
