"""A cash game type's rules (its clocks, sit-out limits, return window, table limits: a :class:`games.models.GameRules`
row) change by proposal and a second staff member's approval (issue 30), as a kind of rule of
:mod:`poker_site.core.rule_changes`.

A proposal names a game type (``games.gametype:<pk>``) and the new rules with the time they take effect; approved,
they become a new rules row (rows in force or past are never rewritten: every hand points at the row it was played
under). The new row must pass the model's own checks and take effect after the approval. Shortening a time a player
has to act or to come back, or the return window that stops ratholing, below the rule documents' figure
(:data:`PLAYER_PROTECTIONS`) needs an administrator's approval. Support staff (``games.add_gamerules``) propose and
approve, never their own.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.utils import timezone

from games.models import GameRules, GameType
from games.models.catalog import row_in_force_or_none
from poker_site.core.rule_changes import (
    CheckedChange,
    RuleChangeRefused,
    RuleKind,
    effective_from_after_approval,
    target_row,
)

RULES_FIELDS = (
    "decision_seconds",
    "timebank_first_hand_seconds",
    "timebank_replenish_seconds",
    "timebank_replenish_every_hands",
    "timebank_cap_seconds",
    "reconnect_grace_seconds",
    "sit_out_removal_seconds",
    "global_sit_out_seconds",
    "rathole_window_minutes",
    "minimum_players_to_start",
    "continue_heads_up",
    "max_tables_per_stake",
    "max_tables_per_game",
    "banzai_resets_per_day",
    "pause_between_hands_milliseconds",
)
ADD_RULES = "games.add_gamerules"

PLAYER_PROTECTIONS: dict[str, tuple[int, str]] = {
    "decision_seconds": (10, "TB-05 / AMB-32: 10 s to act"),
    "timebank_first_hand_seconds": (15, "TB-02: a 15 s timebank at the first hand"),
    "timebank_replenish_seconds": (5, "TB-02: 5 s added to the timebank"),
    "timebank_cap_seconds": (30, "TB-02: a timebank of up to 30 s"),
    "reconnect_grace_seconds": (20, "CASH-22 / TB-07: 20 s to reconnect"),
    "rathole_window_minutes": (30, "CASH-11, CASH-14, CASH-30: a 30-minute return window"),
}
"""Rules whose value below the rule documents' figure takes something from the players (time to act or to come back)
or opens the door to ratholing: such a proposal needs an administrator."""
PLAYER_PROTECTIONS_FROM_ABOVE: dict[str, tuple[int, str]] = {
    "timebank_replenish_every_hands": (10, "TB-02: replenished every 10th hand"),
}
"""Likewise for a value above the figure (the timebank replenished less often)."""


def _game_type(target: str) -> GameType:
    return target_row(target, "games.gametype:", GameType.objects.all(), "game type")


def _effective_from(value: object) -> datetime:
    return effective_from_after_approval(value, "New rules")


def rules_change_check(target: str, changes: dict[str, Any]) -> CheckedChange:
    game_type = _game_type(target)
    unknown = set(changes) - {*RULES_FIELDS, "effective_from"}
    if unknown:
        raise RuleChangeRefused(f"Not a field of a game type's rules: {', '.join(sorted(unknown))}.")
    moment = _effective_from(changes.get("effective_from"))
    current = row_in_force_or_none(game_type.rules.all(), timezone.now())
    before = {field: getattr(current, field) for field in RULES_FIELDS} if current is not None else {}
    model_fields = {model_field.name: model_field for model_field in GameRules._meta.concrete_fields}
    defaults = {field: model_fields[field].get_default() for field in RULES_FIELDS}
    values = {field: changes.get(field, before.get(field, defaults[field])) for field in RULES_FIELDS}
    for field, value in values.items():
        nullable = model_fields[field].null
        expected = bool if field == "continue_heads_up" else int
        if not (value is None and nullable) and type(value) is not expected:
            raise RuleChangeRefused(f"{field} is {'true or false' if expected is bool else 'a whole number'}.")
    row = GameRules(game_type=game_type, effective_from=moment, **values)
    try:
        row.full_clean()
    except ValidationError as error:
        raise RuleChangeRefused(" ".join(error.messages)) from error
    why = [
        f"{field.replace('_', ' ')} {values[field]} below the rule documents' figure ({rule})"
        for field, (figure, rule) in PLAYER_PROTECTIONS.items()
        if values[field] < figure
    ] + [
        f"{field.replace('_', ' ')} {values[field]} above the rule documents' figure ({rule})"
        for field, (figure, rule) in PLAYER_PROTECTIONS_FROM_ABOVE.items()
        if values[field] > figure
    ]
    changed = [field for field in RULES_FIELDS if before.get(field, defaults[field]) != values[field]]
    if current is not None and not changed:
        raise RuleChangeRefused(f"These are the rules of {game_type} in force already: nothing to change.")
    return CheckedChange(
        summary=f"{game_type}: rules from {moment:%Y-%m-%d %H:%M %Z}"
        + (f", changing {', '.join(field.replace('_', ' ') for field in changed)}" if changed else ""),
        before=before,
        changes={**values, "effective_from": moment.isoformat()},
        needs_administrator=bool(why),
        why_administrator="; ".join(why),
    )


def rules_change_apply(target: str, changes: dict[str, Any]) -> None:
    GameRules.objects.create(
        game_type=_game_type(target),
        effective_from=_effective_from(changes["effective_from"]),
        **{field: changes[field] for field in RULES_FIELDS},
    )


GAME_RULES = RuleKind(
    name="game_rules",
    label="a game type's rules (clocks, sit-out limits, return window, table limits)",
    propose_permission=ADD_RULES,
    approve_permission=ADD_RULES,
    check=rules_change_check,
    apply=rules_change_apply,
)
