"""TRN-17 / FEE-05: freeroll entry requirements as data (ticket, account age, deposits, VIP level, all/any), checked
against a player profile with the unmet requirements named."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from tournaments.rules.common import RuleError
from tournaments.rules.eligibility import (
    NO_REQUIREMENT,
    AccountAgeAtLeast,
    AllOf,
    AnyOf,
    HoldsTicket,
    PlayerProfile,
    check_eligibility,
    parse_requirement,
)

NOW = datetime(2024, 3, 1, 12, 0, tzinfo=UTC)
NEWCOMER = PlayerProfile(account_created_at=datetime(2024, 2, 25, tzinfo=UTC))
REGULAR = PlayerProfile(
    account_created_at=datetime(2023, 1, 1, tzinfo=UTC),
    ticket_kinds=frozenset({"weekly-freeroll"}),
    deposited_cents=5_000,
    vip_level=3,
)


def test_trn_17_a_freeroll_without_requirements_is_open_to_everyone() -> None:
    assert check_eligibility(NO_REQUIREMENT, NEWCOMER, NOW).eligible
    assert parse_requirement({"all": []}) == NO_REQUIREMENT
    assert NO_REQUIREMENT.describe() == "open to everyone"


@pytest.mark.parametrize(
    ("data", "regular", "newcomer"),
    [
        ({"ticket": "weekly-freeroll"}, True, False),
        ({"account_age_days": 30}, True, False),
        ({"account_age_days": 5}, True, True),  # opened 5.5 days before NOW
        ({"deposited_cents": 5_000}, True, False),
        ({"deposited_cents": 5_001}, False, False),
        ({"vip_level": 3}, True, False),
        ({"vip_level": 4}, False, False),
    ],
)
def test_trn_17_each_requirement_is_checked_against_the_profile(
    data: dict[str, object], regular: bool, newcomer: bool
) -> None:
    requirement = parse_requirement(data)
    assert check_eligibility(requirement, REGULAR, NOW).eligible is regular
    assert check_eligibility(requirement, NEWCOMER, NOW).eligible is newcomer


def test_trn_17_all_requires_every_rule_and_names_each_unmet_one() -> None:
    requirement = parse_requirement({"all": [{"ticket": "weekly-freeroll"}, {"account_age_days": 30}]})
    result = check_eligibility(requirement, NEWCOMER, NOW)
    assert not result.eligible
    assert result.unmet == ("holds a 'weekly-freeroll' tournament ticket", "account opened at least 30 days ago")
    assert check_eligibility(requirement, REGULAR, NOW).eligible


def test_trn_17_any_requires_one_rule() -> None:
    requirement = parse_requirement({"any": [{"ticket": "weekly-freeroll"}, {"vip_level": 1}]})
    assert check_eligibility(requirement, REGULAR, NOW).eligible
    result = check_eligibility(requirement, NEWCOMER, NOW)
    assert result.unmet == ("either holds a 'weekly-freeroll' tournament ticket or VIP level 1 or higher",)


def test_a_requirement_round_trips_through_its_data_and_reads_as_a_sentence() -> None:
    data = {"all": [{"any": [{"ticket": "t1"}, {"deposited_cents": 1_000}]}, {"account_age_days": 7}]}
    requirement = parse_requirement(data)
    assert requirement == AllOf(
        (AnyOf((HoldsTicket("t1"), parse_requirement({"deposited_cents": 1_000}))), AccountAgeAtLeast(7))
    )
    assert requirement.to_data() == data
    assert requirement.describe() == (
        "(either holds a 't1' tournament ticket or has deposited at least €10.00)"
        " and account opened at least 7 days ago"
    )


@pytest.mark.parametrize(
    "data",
    [
        {"ticket": ""},
        {"account_age_days": -1},
        {"deposited_cents": 9.5},
        {"vip_level": "gold"},
        {"any": []},
        {"all": "ticket"},
        {"country": "EE"},
        {"ticket": "a", "vip_level": 1},
        ["ticket"],
    ],
)
def test_a_malformed_requirement_is_refused(data: object) -> None:
    with pytest.raises(RuleError):
        parse_requirement(data)
