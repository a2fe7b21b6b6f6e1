"""Detection thresholds change by proposal and a second reviewer's approval (issue 30, FRD-19), as a kind of rule of
:mod:`poker_site.core.rule_changes`.

A proposal names one setting (``compliance.indicatorsetting:<pk>``) and its new ``value``; the value must suit the
detector (a finite number, at most a thousand million, whole number where it counts, within the indicator's own
bounds) and be above zero: a threshold of 0 or less would flag everyone, or no one, and is refused. Reviewers
(``compliance.change_indicatorsetting``) propose and approve, never their own. A value out of the parameter's usual
range (more than 10 times its default or less than a tenth of it: enough to switch an indicator off, or to flag
everyone) needs an administrator's approval (``core.approve_any_rule_change``), as stake terms and game rules do (QA
report H, finding 12). Applied, the flags are recomputed after the commit.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from compliance.errors import InvalidRequest
from compliance.models import IndicatorSetting
from compliance.services.thresholds import setting_check, setting_out_of_usual_range
from poker_site.core.rule_changes import CheckedChange, RuleChangeRefused, RuleKind, target_row

CHANGE_SETTING = "compliance.change_indicatorsetting"


def _setting(target: str) -> IndicatorSetting:
    return target_row(target, "compliance.indicatorsetting:", IndicatorSetting.objects.all(), "detection setting")


def threshold_change_check(target: str, changes: dict[str, Any]) -> CheckedChange:
    setting = _setting(target)
    if set(changes) != {"value"}:
        raise RuleChangeRefused("A detection setting change gives its new value only.")
    value = changes["value"]
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise RuleChangeRefused("The new value must be a number.")
    if value <= 0:
        raise RuleChangeRefused(
            f"{setting.indicator}.{setting.parameter} must be above zero: a detection threshold of 0 or less is "
            "refused."
        )
    try:
        checked = setting_check(setting, value)
    except InvalidRequest as error:
        raise RuleChangeRefused(str(error)) from error
    before = setting.value if not setting.whole_number else int(setting.value)
    why = setting_out_of_usual_range(setting, checked)
    return CheckedChange(
        summary=f"{setting.indicator}.{setting.parameter}: {before:g} → {checked:g}",
        before={"value": before},
        changes={"value": checked},
        needs_administrator=bool(why),
        why_administrator=why,
    )


def threshold_change_apply(target: str, changes: dict[str, Any]) -> None:
    from compliance.services import flags_recompute

    setting = _setting(target)
    IndicatorSetting.objects.filter(pk=setting.pk).update(value=float(changes["value"]), updated_at=timezone.now())
    transaction.on_commit(flags_recompute)


DETECTION_THRESHOLD = RuleKind(
    name="detection_threshold",
    label="a detection threshold",
    propose_permission=CHANGE_SETTING,
    approve_permission=CHANGE_SETTING,
    check=threshold_change_check,
    apply=threshold_change_apply,
)
