"""The bots' random policy only ever sends well-formed, legal-looking actions within the server's ranges."""

from __future__ import annotations

import json
from random import Random
from typing import Any

import pytest

from games.bots.policy import choose_action
from games.runtime.protocol import TABLE_MESSAGES, parse_client_message

LEGAL_SITUATIONS: list[dict[str, Any]] = [
    {"kinds": ["fold", "check", "bet", "all_in", "timeout"], "bet_range": [10, 990], "raise_range": None},
    {"kinds": ["fold", "call", "raise_to", "all_in", "timeout"], "bet_range": None, "raise_range": [40, 1000]},
    {"kinds": ["fold", "call", "timeout"], "bet_range": None, "raise_range": None},
    {"kinds": ["fold", "check", "timeout"], "bet_range": None, "raise_range": None},
    {"kinds": ["fold", "call", "all_in", "timeout"], "bet_range": None, "raise_range": None},
    {"kinds": ["fold", "call", "raise_to", "timeout"], "bet_range": None, "raise_range": [300, 300]},
]


@pytest.mark.parametrize("legal", LEGAL_SITUATIONS)
def test_every_choice_is_allowed_and_within_range(legal: dict[str, Any]) -> None:
    rng = Random(1)
    engine_kind = {"raise": "raise_to"}
    seen = set()
    for _ in range(2000):
        message = choose_action(legal, rng)
        parsed = parse_client_message(json.dumps(message), TABLE_MESSAGES)
        action = parsed.fields["action"]
        assert engine_kind.get(message["action"], message["action"]) in legal["kinds"]
        if action == "bet":
            assert legal["bet_range"][0] <= parsed.fields["amount"] <= legal["bet_range"][1]
        if action == "raise_to":
            assert legal["raise_range"][0] <= parsed.fields["amount"] <= legal["raise_range"][1]
        seen.add(action)
    if legal["bet_range"] or legal["raise_range"]:
        assert len(seen) >= 3, "the bots should vary their play when betting is open"
