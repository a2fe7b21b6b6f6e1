"""One readable line per table event for the back office ("Seat 3 raises to €2.50"), instead of its stored JSON.

Display only: the stored payload is not changed. Amounts are integer cents shown as euros. A line never shows hole
cards or the deck (those events are private; staff read them in the payload once the hand is over).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from poker_site.core.money import euros as money_euros


def euros(cents: object) -> str:
    """Cents as euros for the back office ("€2.50"); empty for no value (:func:`poker_site.core.money.euros`)."""
    return money_euros(cents)


def _seat(payload: Mapping[str, Any]) -> str:
    name = payload.get("name")
    seat = payload.get("seat")
    return f"Seat {seat} ({name})" if name else f"Seat {seat}"


def _action(payload: Mapping[str, Any]) -> str:
    resolved = payload.get("resolved", "")
    amount = {"call": payload.get("amount"), "bet": payload.get("total_bet"), "raise": payload.get("total_bet")}
    text = {
        "fold": "folds",
        "check": "checks",
        "call": f"calls {euros(amount['call'])}",
        "bet": f"bets {euros(amount['bet'])}",
        "raise": f"raises to {euros(amount['raise'])}",
    }.get(resolved, f"acts ({resolved})")
    action = payload.get("action") or {}
    suffix = (" (all-in)" if payload.get("all_in") else "") + (
        " (time ran out)" if action.get("type") == "timeout" else ""
    )
    return f"{_seat(payload)} {text}{suffix}"


def _pot(payload: Mapping[str, Any]) -> str:
    pot = payload.get("pot") or {}
    shares = ", ".join(f"seat {seat} {euros(amount)}" for seat, amount in pot.get("shares") or [])
    name = payload.get("hand_name")
    return f"Pot {payload.get('pot_index', 0)} ({euros(pot.get('amount'))}) to {shares}" + (
        f" with {name}" if name else ""
    )


LINES: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "hand_started": lambda p: f"The hand starts; button seat {(p.get('config') or {}).get('button', '?')}",
    "forced_bet_posted": lambda p: (
        f"{_seat(p)} posts the {str(p.get('blind', '')).replace('_', ' ')} {euros(p.get('amount'))}"
    ),
    "hole_cards_dealt": lambda p: f"{_seat(p)} is dealt hole cards",
    "deck_recorded": lambda p: "The deck is recorded for audits",
    "action_taken": _action,
    "street_dealt": lambda p: f"{str(p.get('street', '')).capitalize()}: {' '.join(p.get('board') or [])}",
    "uncalled_bet_returned": lambda p: f"{euros(p.get('amount'))} returned to {_seat(p).lower()}",
    "pots_formed": lambda p: "Pots: " + ", ".join(euros(pot.get("amount")) for pot in p.get("pots") or []),
    "hand_shown": lambda p: f"{_seat(p)} shows {' '.join(p.get('cards') or [])}",
    "hand_evaluated": lambda p: f"{_seat(p)} has {p.get('hand_name', '')}",
    "pot_awarded": _pot,
    "hand_ended": lambda p: "The hand ends" + (" at showdown" if p.get("showdown") else ""),
    "hand_settled": lambda p: f"Settled: pot {euros(p.get('pot_total'))}, rake {euros(p.get('rake'))}",
    "hand_cancelled": lambda p: f"Hand cancelled, every bet returned: {p.get('reason', '')}",
    "turn": lambda p: f"Seat {p.get('seat')} to act ({p.get('clock', 'decision')} clock)",
    "seat_taken": lambda p: f"{_seat(p)} sits down with {euros(p.get('stack'))}",
    "player_moved": lambda p: (
        f"{_seat(p)} is moved to table #{p.get('to_table')} ({str(p.get('reason', '')).replace('_', ' ')}): "
        f"{p.get('message', '')}"
    ),
    "seat_topped_up": lambda p: f"{_seat(p)} adds {euros(p.get('amount'))}",
    "seat_top_up_requested": lambda p: f"{_seat(p)} asks to add {euros(p.get('amount'))} when the hand ends",
    "seat_top_up_dropped": lambda p: (
        f"{_seat(p)}'s top-up of {euros(p.get('amount'))} was not added "
        + ("(the stack is at the table maximum)" if p.get("reason") == "maximum" else "(the balance does not cover it)")
    ),
    "seat_left": lambda p: f"{_seat(p)} leaves the table",
    "seat_leaving": lambda p: f"{_seat(p)} leaves after this hand",
    "seat_sat_out": lambda p: f"{_seat(p)} sits out",
    "seat_sat_in": lambda p: f"{_seat(p)} is back",
    "seat_disconnected": lambda p: f"{_seat(p)} lost the connection",
    "seat_reconnected": lambda p: f"{_seat(p)} is connected again",
    "table_closing": lambda p: f"Table closes when the hand ends: {p.get('reason', '')}",
    "table_closed": lambda p: f"Table closed: {p.get('reason', '')}",
    "chat_message": lambda p: f"{_seat(p)} says: {p.get('text', '')}",  # table chat (issue 22)
    "bounty_won": lambda p: _bounty(p),  # tournaments: TRN-41..TRN-44
    # Provably fair decks (issue 29): the commitment before the first card, the server seed after the end.
    "deck_committed": lambda p: f"Deck committed: SHA-256 {p.get('commitment', '')}",
    "deck_revealed": lambda p: f"Server seed revealed: {p.get('server_seed', '')}",
}


def _bounty(payload: Mapping[str, Any]) -> str:
    """Who won what for a knock-out: each winner's credited bounty (and VIP bounty), and what joined their bounty."""
    parts = []
    for winner in payload.get("winners", []):
        text = f"{_seat(winner)} wins {euros(int(winner.get('cash', 0)) + int(winner.get('vip', 0)))}"
        if winner.get("added_to_bounty"):
            text += f" (+{euros(winner['added_to_bounty'])} to their bounty)"
        parts.append(text)
    return f"Bounty of {_seat(payload)}: " + ", ".join(parts)


PRIVATE_KINDS = frozenset({"hole_cards_dealt", "deck_recorded"})


def event_summary(kind: str, payload: Mapping[str, Any]) -> str:
    """The line for one stored event; an unknown kind, or a payload that does not fit, is named by its kind."""
    line = LINES.get(kind)
    if line is None:
        return kind.replace("_", " ").capitalize()
    try:
        return line(payload)
    except (AttributeError, TypeError, ValueError):
        return kind.replace("_", " ").capitalize()
