"""The indicators' tunable parameters as rows staff edit (FRD-19), and the parameters the detector runs with.

:func:`settings_ensure` (after every migrate) creates a row for every parameter of every indicator, with its default
and its description (the docstring under the parameter in the indicator's parameters class); rows staff changed keep
their value, rows staff never changed follow a new default, and rows of parameters an indicator no longer has are
removed (the detector refuses unknown parameters). :func:`detector_parameters` reads them for the detector;
:func:`setting_check` validates a value the way the detector will (a whole number where the default is one, never
negative).
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import itertools
import math
import textwrap
from typing import Any

from compliance.detection.detector import INDICATOR_TYPES
from compliance.detection.flags import StateError, parameters_from_dict
from compliance.errors import InvalidRequest
from compliance.models import IndicatorSetting


def parameter_descriptions(parameters_type: type[Any]) -> dict[str, str]:
    """``{parameter: docstring}`` from the string written under each field of a parameters dataclass."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(parameters_type)))
    except (OSError, TypeError, SyntaxError):
        return {}
    body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
    found: dict[str, str] = {}
    for field, following in itertools.pairwise(body):
        if (
            isinstance(field, ast.AnnAssign)
            and isinstance(field.target, ast.Name)
            and isinstance(following, ast.Expr)
            and isinstance(following.value, ast.Constant)
            and isinstance(following.value.value, str)
        ):
            found[field.target.id] = " ".join(following.value.value.split())
    return found


def settings_ensure(**_kwargs: Any) -> int:
    """Create the missing rows with their defaults, move the rows still at their old default to a changed default
    (with its description), and delete the rows of parameters that no longer exist; returns how many were created."""
    created = 0
    known: dict[str, set[str]] = {}
    for indicator in INDICATOR_TYPES:
        descriptions = parameter_descriptions(indicator.parameters_type)
        defaults = indicator.parameters_type()
        for field in dataclasses.fields(indicator.parameters_type):
            known.setdefault(indicator.name, set()).add(field.name)
            default = float(getattr(defaults, field.name))
            description = descriptions.get(field.name, "")
            setting, made = IndicatorSetting.objects.get_or_create(
                indicator=indicator.name,
                parameter=field.name,
                defaults={
                    "value": default,
                    "default": default,
                    "whole_number": isinstance(getattr(defaults, field.name), int),
                    "description": description,
                },
            )
            created += made
            if not made and (setting.default != default or setting.description != description):
                unchanged = setting.value == setting.default
                setting.default = default
                setting.description = description
                if unchanged:
                    setting.value = default
                setting.save(update_fields=["default", "description", "value"])
    for setting in IndicatorSetting.objects.filter(indicator__in=list(known)):
        if setting.parameter not in known[setting.indicator]:
            setting.delete()
    return created


def _value(setting: IndicatorSetting) -> int | float:
    return int(setting.value) if setting.whole_number else float(setting.value)


def detector_parameters() -> dict[str, dict[str, int | float]]:
    """``{indicator: {parameter: value}}`` of every row (what ``Detector(parameters=...)`` takes)."""
    parameters: dict[str, dict[str, int | float]] = {}
    for setting in IndicatorSetting.objects.all():
        parameters.setdefault(setting.indicator, {})[setting.parameter] = _value(setting)
    return parameters


MAXIMUM_SETTING_VALUE = 1_000_000_000
"""No detection parameter (a count of hands or decisions, a number of seconds or big blinds, a score) means anything
beyond a thousand million: a larger value is a typing slip or an indicator switched off by other means (QA report H,
finding 12: ``1e308`` passed as a whole number)."""
USUAL_RANGE_FACTOR = 10
"""A value more than this many times a parameter's default, or less than its default divided by it, is out of the
usual range: its approval needs an administrator, as for the other kinds of rules."""


def setting_check(setting: IndicatorSetting, value: float) -> int | float:
    """``value`` as the detector will take it for ``setting``; :class:`InvalidRequest` saying why it cannot (not a
    finite number, above :data:`MAXIMUM_SETTING_VALUE`, not a whole number where one is counted, or out of the
    indicator's own bounds)."""
    name = f"{setting.indicator}.{setting.parameter}"
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidRequest(f"{name} takes a number, not {value!r}.")
    if not math.isfinite(value):
        raise InvalidRequest(f"{name} takes a finite number, not {value}.")
    if value > MAXIMUM_SETTING_VALUE:
        raise InvalidRequest(f"{name} is at most {MAXIMUM_SETTING_VALUE:,}, not {value:g}.")
    if setting.whole_number:
        if float(value) != int(value):
            raise InvalidRequest(f"{setting.indicator}.{setting.parameter} is a whole number, not {value:g}.")
        value = int(value)
    indicator = next((item for item in INDICATOR_TYPES if item.name == setting.indicator), None)
    if indicator is None:
        raise InvalidRequest(f"There is no indicator {setting.indicator!r}.")
    try:
        parameters_from_dict(indicator.parameters_type, {setting.parameter: value})
    except StateError as error:
        raise InvalidRequest(str(error)) from error
    return value


def setting_out_of_usual_range(setting: IndicatorSetting, value: float) -> str:
    """Why ``value`` is out of ``setting``'s usual range (more than :data:`USUAL_RANGE_FACTOR` times its default or
    less than its default divided by it), or "" when it is within it."""
    default = float(setting.default)
    if default <= 0:
        return ""
    name = f"{setting.indicator}.{setting.parameter}"
    if value > default * USUAL_RANGE_FACTOR:
        return f"{name} {value:g} is more than {USUAL_RANGE_FACTOR} times its default {default:g}"
    if value < default / USUAL_RANGE_FACTOR:
        return f"{name} {value:g} is less than a {USUAL_RANGE_FACTOR}th of its default {default:g}"
    return ""
