"""QA report H, finding 12 (FRD-19, issue 30): a detection parameter is a finite number, at most a thousand million
(``1e308`` passed as a "whole number" because ``value == int(value)``); infinity and NaN are refused. As for stake terms
and game rules, a value out of the parameter's usual range — more than 10 times its default or less than a tenth of
it, enough to switch an indicator off — needs an administrator's approval: two reviewers cannot do it alone."""

from __future__ import annotations

from typing import Any

import pytest

from compliance.models import IndicatorSetting
from compliance.services import settings_ensure
from poker_site.core.models import RuleChangeStatus
from poker_site.core.rule_changes import RuleChangeRefused, rule_change_approve, rule_change_propose
from tests.tables.back_office import logged_in

pytestmark = pytest.mark.django_db

KIND = "detection_threshold"


def setting_of(indicator: str, parameter: str) -> IndicatorSetting:
    settings_ensure()
    return IndicatorSetting.objects.get(indicator=indicator, parameter=parameter)


def target(setting: IndicatorSetting) -> str:
    return f"compliance.indicatorsetting:{setting.pk}"


@pytest.mark.parametrize(
    ("value", "refusal"),
    [
        (1e308, "at most 1,000,000,000"),
        (float("inf"), "finite number"),
        (float("nan"), "finite number"),
        (2_000_000_000, "at most 1,000,000,000"),
    ],
)
def test_a_whole_number_parameter_refuses_a_huge_or_non_finite_value(reviewer: Any, value: float, refusal: str) -> None:
    setting = setting_of("bot_timing", "evidence_hands")
    with pytest.raises(RuleChangeRefused, match=refusal):
        rule_change_propose(reviewer, KIND, target(setting), {"value": value}, "Fewer flags")
    setting.refresh_from_db()
    assert setting.value == setting.default


def test_the_propose_page_refuses_1e308_with_its_reason(reviewer: Any) -> None:
    setting = setting_of("bot_timing", "evidence_hands")
    response = logged_in(reviewer).post(
        f"/admin/compliance/indicatorsetting/{setting.pk}/propose/", {"value": "1e308", "reason": "Fewer flags"}
    )
    assert response.status_code in (200, 400)
    assert "at most 1,000,000,000" in response.content.decode()


@pytest.mark.parametrize("value", [31.0, 0.29])
def test_a_value_out_of_the_usual_range_needs_an_administrator(
    reviewer: Any, second_reviewer: Any, administrator: Any, value: float
) -> None:
    setting = setting_of("chip_dumping", "threshold")  # default 3
    proposal = rule_change_propose(reviewer, KIND, target(setting), {"value": value}, "Switch it off")
    assert proposal.needs_administrator

    with pytest.raises(RuleChangeRefused, match=r"needs an administrator.s approval .*its default 3"):
        rule_change_approve(proposal, second_reviewer, "Agreed")
    setting.refresh_from_db()
    assert setting.value == 3.0

    assert rule_change_approve(proposal, administrator, "Agreed").status == RuleChangeStatus.APPROVED
    setting.refresh_from_db()
    assert setting.value == value


def test_a_value_within_the_usual_range_is_a_reviewers_decision(reviewer: Any, second_reviewer: Any) -> None:
    setting = setting_of("chip_dumping", "threshold")
    proposal = rule_change_propose(reviewer, KIND, target(setting), {"value": 30.0}, "Stricter")
    assert not proposal.needs_administrator
    assert rule_change_approve(proposal, second_reviewer, "Agreed").status == RuleChangeStatus.APPROVED
