"""Entry requirements of freerolls and other restricted tournaments, as data (TRN-17, FEE-05).

A freeroll has no buy-in and no fee but may require, for example, a tournament ticket or a loyalty status. The
requirements are a small rule language stored as JSON-like data on the tournament definition and evaluated against a
plain :class:`PlayerProfile` the service builds from its tables:

* ``{"ticket": "<kind>"}``: holds an unused tournament ticket of that kind (on the site a kind is the name of a
  tournament series: a usable ticket for that series qualifies; meeting the requirement does not spend it);
* ``{"account_age_days": N}``: the account was opened at least N days ago;
* ``{"deposited_cents": X}``: has deposited at least X cents in total;
* ``{"vip_level": N}``: loyalty (VIP) level N or higher;
* ``{"all": [rule, ...]}``: every rule holds (an empty list: everyone may enter);
* ``{"any": [rule, ...]}``: at least one rule holds.

:func:`parse_requirement` reads the data (refusing anything else with :class:`RuleError`), ``to_data`` writes it back,
``describe`` says it in words for the lobby, and :func:`check_eligibility` tells whether a player may enter and which
requirements are unmet.

Standard library only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from games.engine.uth.money import format_cents
from tournaments.rules.common import RuleError, require_utc, require_whole


@dataclass(frozen=True, slots=True)
class PlayerProfile:
    """What the requirements look at: account opening time, the kinds of unused tickets held, total deposits (cents)
    and the loyalty level."""

    account_created_at: datetime
    ticket_kinds: frozenset[str] = frozenset()
    deposited_cents: int = 0
    vip_level: int = 0

    def __post_init__(self) -> None:
        require_utc(self.account_created_at, "account creation time")
        require_whole(self.deposited_cents, "deposited cents")
        require_whole(self.vip_level, "VIP level")


@dataclass(frozen=True, slots=True)
class HoldsTicket:
    kind: str

    def unmet(self, profile: PlayerProfile, moment: datetime) -> tuple[Requirement, ...]:
        return () if self.kind in profile.ticket_kinds else (self,)

    def describe(self) -> str:
        return f"holds a '{self.kind}' tournament ticket"

    def to_data(self) -> dict[str, Any]:
        return {"ticket": self.kind}


@dataclass(frozen=True, slots=True)
class AccountAgeAtLeast:
    days: int

    def unmet(self, profile: PlayerProfile, moment: datetime) -> tuple[Requirement, ...]:
        old_enough = moment - profile.account_created_at >= timedelta(days=self.days)
        return () if old_enough else (self,)

    def describe(self) -> str:
        return f"account opened at least {self.days} days ago"

    def to_data(self) -> dict[str, Any]:
        return {"account_age_days": self.days}


@dataclass(frozen=True, slots=True)
class DepositedAtLeast:
    cents: int

    def unmet(self, profile: PlayerProfile, moment: datetime) -> tuple[Requirement, ...]:
        return () if profile.deposited_cents >= self.cents else (self,)

    def describe(self) -> str:
        return f"has deposited at least {format_cents(self.cents)}"

    def to_data(self) -> dict[str, Any]:
        return {"deposited_cents": self.cents}


@dataclass(frozen=True, slots=True)
class VipLevelAtLeast:
    level: int

    def unmet(self, profile: PlayerProfile, moment: datetime) -> tuple[Requirement, ...]:
        return () if profile.vip_level >= self.level else (self,)

    def describe(self) -> str:
        return f"VIP level {self.level} or higher"

    def to_data(self) -> dict[str, Any]:
        return {"vip_level": self.level}


@dataclass(frozen=True, slots=True)
class AllOf:
    rules: tuple[Requirement, ...]

    def unmet(self, profile: PlayerProfile, moment: datetime) -> tuple[Requirement, ...]:
        return tuple(reason for rule in self.rules for reason in rule.unmet(profile, moment))

    def describe(self) -> str:
        return " and ".join(_grouped(rule) for rule in self.rules) if self.rules else "open to everyone"

    def to_data(self) -> dict[str, Any]:
        return {"all": [rule.to_data() for rule in self.rules]}


@dataclass(frozen=True, slots=True)
class AnyOf:
    rules: tuple[Requirement, ...]

    def unmet(self, profile: PlayerProfile, moment: datetime) -> tuple[Requirement, ...]:
        if any(not rule.unmet(profile, moment) for rule in self.rules):
            return ()
        return (self,)

    def describe(self) -> str:
        return "either " + " or ".join(_grouped(rule) for rule in self.rules)

    def to_data(self) -> dict[str, Any]:
        return {"any": [rule.to_data() for rule in self.rules]}


Requirement = HoldsTicket | AccountAgeAtLeast | DepositedAtLeast | VipLevelAtLeast | AllOf | AnyOf
NO_REQUIREMENT = AllOf(())


def _grouped(rule: Requirement) -> str:
    text = rule.describe()
    return f"({text})" if isinstance(rule, AllOf | AnyOf) and len(rule.rules) > 1 else text


def parse_requirement(data: object) -> Requirement:
    """The requirement written as ``data`` (see the module docstring); :class:`RuleError` for anything else."""
    if not isinstance(data, Mapping) or len(data) != 1:
        raise RuleError(f"a requirement is an object with exactly one key, not {data!r}")
    ((key, value),) = data.items()
    if key == "ticket":
        if not isinstance(value, str) or not value.strip():
            raise RuleError(f"a ticket requirement names a ticket kind, not {value!r}")
        return HoldsTicket(value)
    if key == "account_age_days":
        return AccountAgeAtLeast(require_whole(value, "account age (days)"))
    if key == "deposited_cents":
        return DepositedAtLeast(require_whole(value, "deposit (cents)"))
    if key == "vip_level":
        return VipLevelAtLeast(require_whole(value, "VIP level"))
    if key in ("all", "any"):
        if not isinstance(value, list):
            raise RuleError(f"'{key}' takes a list of requirements, not {value!r}")
        rules = tuple(parse_requirement(item) for item in value)
        if key == "all":
            return AllOf(rules)
        if not rules:
            raise RuleError("'any' needs at least one requirement")
        return AnyOf(rules)
    raise RuleError(f"unknown requirement {key!r}")


@dataclass(frozen=True, slots=True)
class Eligibility:
    """Whether the player may enter, and the requirements they do not meet: in English words (``unmet``) and as the
    rules themselves (``unmet_rules``), for a service that words them in the player's language."""

    eligible: bool
    unmet: tuple[str, ...]
    unmet_rules: tuple[Requirement, ...] = ()


def check_eligibility(requirement: Requirement, profile: PlayerProfile, moment: datetime) -> Eligibility:
    """TRN-17: may the player with ``profile`` enter at ``moment``?"""
    unmet = requirement.unmet(profile, require_utc(moment, "moment"))
    return Eligibility(not unmet, tuple(rule.describe() for rule in unmet), unmet)
