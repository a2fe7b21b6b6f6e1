"""The bots' decision policy: a random *legal* action chosen from the ``legal_actions`` the server sent.

Pure (no I/O): the input is the ``legal_actions`` dictionary of a ``your_turn`` message (the engine's
``LegalActions.to_dict()``), the output a ready ``act`` message body. Bet and raise amounts are drawn inside the
server's range, favouring small sizes so hands last a few streets.
"""

from __future__ import annotations

from random import Random
from typing import Any


def choose_action(legal: dict[str, Any], rng: Random) -> dict[str, Any]:
    """A random legal ``act`` message for ``legal`` (keys ``kinds``, ``bet_range``, ``raise_range``, ...)."""
    kinds = set(legal.get("kinds") or ())
    roll = rng.random()
    if "check" in kinds:
        if roll < 0.02 and "all_in" in kinds:
            return {"type": "act", "action": "all_in"}
        if roll < 0.27 and "bet" in kinds and legal.get("bet_range"):
            return {"type": "act", "action": "bet", "amount": _size(legal["bet_range"], rng)}
        return {"type": "act", "action": "check"}
    if roll < 0.25 and "fold" in kinds:
        return {"type": "act", "action": "fold"}
    if roll < 0.27 and "all_in" in kinds:
        return {"type": "act", "action": "all_in"}
    if roll < 0.42 and "raise_to" in kinds and legal.get("raise_range"):
        return {"type": "act", "action": "raise", "amount": _size(legal["raise_range"], rng)}
    if "call" in kinds:
        return {"type": "act", "action": "call"}
    if "check" in kinds:
        return {"type": "act", "action": "check"}
    if "all_in" in kinds:
        return {"type": "act", "action": "all_in"}
    return {"type": "act", "action": "fold"}


def _size(bounds: list[int], rng: Random) -> int:
    """An amount between the minimum and maximum, most often near the minimum."""
    low, high = int(bounds[0]), int(bounds[1])
    if high <= low:
        return low
    return low + int((high - low) * rng.random() ** 3)


def busted_seat_plan(stack: int | None, *, may_rebuy: bool) -> str:
    """What a seated bot does between hands about its table stack: ``"play"`` while it has chips; with none,
    ``"rebuy"`` (top up from its balance) when ``may_rebuy``, else ``"leave"``: a busted bot must not keep its seat,
    or a bot table with busted players sits idle. ``stack`` None (not known yet) is ``"play"``."""
    if stack is None or stack > 0:
        return "play"
    return "rebuy" if may_rebuy else "leave"
