"""The hand's event log: one small immutable record per state change, numbered 1, 2, 3, ... (GEN-07, ENG-28).

Every change :class:`games.engine.state.HandState` makes is an event; the log is append-only, and
:func:`games.engine.state.replay` rebuilds the exact state from the configuration and the log. Events are
JSON-serialisable with :func:`event_to_dict` / :func:`event_from_dict` so the Django side can store them in an
append-only table and send them to clients.

Who may see what (architecture rule 4: hole cards reach their owner alone until showdown):

* ``audience == "public"``: everyone at the table.
* ``audience == "seat"``: only the player in ``event.seat`` (:class:`HoleCardsDealt`); others get a redacted copy
  with the cards removed, so every viewer still receives every sequence number.
* ``audience == "audit"``: nobody at the table (:class:`DeckRecorded`, the full deck order kept for compliance
  reviews, GEN-07/GEN-08); players get a redacted copy.

Use :func:`event_view` to produce the dictionary a given viewer may receive. Cards a player shows at showdown are
public (:class:`HandShown`).

Event kinds, in the order a hand produces them: :class:`HandStarted`, :class:`DeckRecorded`, :class:`ForcedBetPosted`
(antes, blinds), :class:`HoleCardsDealt` (one per seat), then :class:`ActionTaken` and :class:`StreetDealt` as play
goes on, :class:`UncalledBetReturned` and :class:`PotsFormed` at the end of betting rounds, :class:`HandShown` (at
showdown, or before an all-in run-out), :class:`HandEvaluated` (at showdown), :class:`PotAwarded` (one per pot) and
finally :class:`HandEnded`.

Standard library only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar, Final

from games.engine.actions import Action, action_from_dict, action_to_dict
from games.engine.cards import Card
from games.engine.config import HandConfig
from games.engine.pots import Pot

PUBLIC: Final[str] = "public"
SEAT: Final[str] = "seat"
AUDIT: Final[str] = "audit"


class EventFormatError(ValueError):
    """A stored event dictionary cannot be turned back into an event."""


@dataclass(frozen=True, slots=True)
class HandStarted:
    """The hand began with this configuration (players, stacks, button, blinds, forced bets)."""

    sequence: int
    config: HandConfig
    kind: ClassVar[str] = "hand_started"
    audience: ClassVar[str] = PUBLIC


@dataclass(frozen=True, slots=True)
class DeckRecorded:
    """The order of the 52 cards the hand deals from (audit only, GEN-07/GEN-08; no burn cards)."""

    sequence: int
    cards: tuple[Card, ...]
    kind: ClassVar[str] = "deck_recorded"
    audience: ClassVar[str] = AUDIT


@dataclass(frozen=True, slots=True)
class ForcedBetPosted:
    """A seat posted a forced bet: ``blind`` is "ante", "small_blind", "big_blind" or "out_of_position_big_blind".

    ``amount`` may be less than the configured blind when it is the whole stack (``all_in``, ENG-09).
    """

    sequence: int
    seat: int
    blind: str
    amount: int
    all_in: bool
    kind: ClassVar[str] = "forced_bet_posted"
    audience: ClassVar[str] = PUBLIC


@dataclass(frozen=True, slots=True)
class HoleCardsDealt:
    """A seat received its hole cards: private to that seat (redacted for everyone else)."""

    sequence: int
    seat: int
    cards: tuple[Card, ...]
    kind: ClassVar[str] = "hole_cards_dealt"
    audience: ClassVar[str] = SEAT


@dataclass(frozen=True, slots=True)
class ActionTaken:
    """A player acted. ``action`` is what was submitted; ``resolved`` what it amounted to.

    ``resolved`` is one of "fold", "check", "call", "bet", "raise" (an :class:`~games.engine.actions.AllIn` resolves
    to a call, bet or raise; a :class:`~games.engine.actions.Timeout` to a check or fold). ``amount`` is the chips
    added from the stack, ``total_bet`` the seat's bet in this betting round afterwards, ``all_in`` whether the stack is
    now empty.
    """

    sequence: int
    seat: int
    action: Action
    resolved: str
    amount: int
    total_bet: int
    all_in: bool
    kind: ClassVar[str] = "action_taken"
    audience: ClassVar[str] = PUBLIC


@dataclass(frozen=True, slots=True)
class StreetDealt:
    """Community cards were dealt: ``street`` is "flop", "turn" or "river"; ``board`` is the whole board now."""

    sequence: int
    street: str
    cards: tuple[Card, ...]
    board: tuple[Card, ...]
    kind: ClassVar[str] = "street_dealt"
    audience: ClassVar[str] = PUBLIC


@dataclass(frozen=True, slots=True)
class UncalledBetReturned:
    """The part of a bet nobody matched went back to its owner (ENG-23); it is in no pot and is not raked."""

    sequence: int
    seat: int
    amount: int
    kind: ClassVar[str] = "uncalled_bet_returned"
    audience: ClassVar[str] = PUBLIC


@dataclass(frozen=True, slots=True)
class PotsFormed:
    """The pots after a betting round: main pot first, then side pots, each with its eligible seats (ENG-22)."""

    sequence: int
    pots: tuple[Pot, ...]
    kind: ClassVar[str] = "pots_formed"
    audience: ClassVar[str] = PUBLIC


@dataclass(frozen=True, slots=True)
class HandShown:
    """A player's hole cards were turned face up (ENG-26, AMB-51: every remaining hand is shown, none mucked).

    At a river showdown each hand is shown and then evaluated (:class:`HandEvaluated`). When the betting ends with
    players all-in before the river (ENG-25), their hands are shown before the rest of the board is dealt.
    """

    sequence: int
    seat: int
    cards: tuple[Card, ...]
    kind: ClassVar[str] = "hand_shown"
    audience: ClassVar[str] = PUBLIC


@dataclass(frozen=True, slots=True)
class HandEvaluated:
    """A shown hand's value on the complete board: ``hand_name`` ("Two Pair, Kings and Sixes"), ``best_cards`` (the
    five cards used, display order) and ``strength`` (the evaluator's comparable integer: bigger is better)."""

    sequence: int
    seat: int
    hand_name: str
    best_cards: tuple[Card, ...]
    strength: int
    kind: ClassVar[str] = "hand_evaluated"
    audience: ClassVar[str] = PUBLIC


@dataclass(frozen=True, slots=True)
class PotAwarded:
    """A pot was awarded: ``pot.shares`` gives each winner's chips (ENG-26, ENG-27); ``pot_index`` 0 is the main pot.

    ``hand_name`` is the winning hand, or ``None`` when everybody else folded (ENG-24: no show).
    """

    sequence: int
    pot_index: int
    pot: Pot
    hand_name: str | None
    kind: ClassVar[str] = "pot_awarded"
    audience: ClassVar[str] = PUBLIC


@dataclass(frozen=True, slots=True)
class HandEnded:
    """The hand is over. ``stacks`` are the final stacks by seat (before any rake the table service takes).

    ``street_reached`` is the last street dealt ("preflop", "flop", "turn", "river"); ``showdown`` whether hands were
    compared.
    """

    sequence: int
    stacks: tuple[tuple[int, int], ...]
    street_reached: str
    showdown: bool
    kind: ClassVar[str] = "hand_ended"
    audience: ClassVar[str] = PUBLIC


Event = (
    HandStarted
    | DeckRecorded
    | ForcedBetPosted
    | HoleCardsDealt
    | ActionTaken
    | StreetDealt
    | UncalledBetReturned
    | PotsFormed
    | HandShown
    | HandEvaluated
    | PotAwarded
    | HandEnded
)
"""Any event."""

EVENT_TYPES: Final[dict[str, type[Event]]] = {
    event_type.kind: event_type
    for event_type in (
        HandStarted,
        DeckRecorded,
        ForcedBetPosted,
        HoleCardsDealt,
        ActionTaken,
        StreetDealt,
        UncalledBetReturned,
        PotsFormed,
        HandShown,
        HandEvaluated,
        PotAwarded,
        HandEnded,
    )
}

_CARD_FIELDS: Final[frozenset[str]] = frozenset({"cards", "board", "best_cards"})


def _encode(name: str, value: Any) -> Any:
    if name in _CARD_FIELDS:
        return [str(card) for card in value]
    if name == "config":
        return value.to_dict()
    if name == "action":
        return action_to_dict(value)
    if name == "pot":
        return value.to_dict()
    if name == "pots":
        return [pot.to_dict() for pot in value]
    if name == "stacks":
        return [list(pair) for pair in value]
    return value


def _decode(name: str, value: Any) -> Any:
    if name in _CARD_FIELDS:
        return tuple(Card.from_text(text) for text in value)
    if name == "config":
        return HandConfig.from_dict(value)
    if name == "action":
        return action_from_dict(value)
    if name == "pot":
        return Pot.from_dict(value)
    if name == "pots":
        return tuple(Pot.from_dict(pot) for pot in value)
    if name == "stacks":
        return tuple((seat, stack) for seat, stack in value)
    return value


def event_to_dict(event: Event) -> dict[str, Any]:
    """JSON-ready form: ``{"type": kind, "sequence": n, "audience": ..., <fields>}`` with cards as text ("As")."""
    result: dict[str, Any] = {"type": event.kind, "audience": event.audience}
    for field in fields(event):
        result[field.name] = _encode(field.name, getattr(event, field.name))
    return result


_FIELD_NAMES: Final[dict[str, tuple[str, ...]]] = {
    kind: tuple(field.name for field in fields(event_type)) for kind, event_type in EVENT_TYPES.items()
}
"""Each event type's field names (``dataclasses.fields`` builds them on each call; a replay decodes every event)."""


def event_from_dict(data: Mapping[str, Any]) -> Event:
    """Inverse of :func:`event_to_dict` (the ``audience`` key is ignored); raises :class:`EventFormatError`."""
    try:
        kind = data["type"]
        event_type = EVENT_TYPES[kind]
        values = {name: _decode(name, data[name]) for name in _FIELD_NAMES[kind]}
        return event_type(**values)
    except (KeyError, TypeError, ValueError) as error:
        raise EventFormatError(f"malformed event {dict(data)!r}: {error}") from error


def is_visible_to(event: Event, viewer_seat: int | None) -> bool:
    """Whether the player in ``viewer_seat`` (``None``: a spectator) may see the event in full."""
    if event.audience == PUBLIC:
        return True
    if event.audience == SEAT:
        return viewer_seat is not None and viewer_seat == getattr(event, "seat", None)
    return False


def event_view(event: Event, viewer_seat: int | None) -> dict[str, Any]:
    """The dictionary ``viewer_seat`` may receive: the full event, or a redacted copy without the private fields.

    The redacted copy keeps ``type``, ``sequence``, ``audience`` and (for hole cards) ``seat``, so clients can detect a
    missing sequence number and resynchronise.
    """
    if is_visible_to(event, viewer_seat):
        return event_to_dict(event)
    redacted: dict[str, Any] = {"type": event.kind, "audience": event.audience, "sequence": event.sequence}
    if isinstance(event, HoleCardsDealt):
        redacted["seat"] = event.seat
        redacted["card_count"] = len(event.cards)
    return redacted


__all__ = [
    "AUDIT",
    "EVENT_TYPES",
    "PUBLIC",
    "SEAT",
    "ActionTaken",
    "DeckRecorded",
    "Event",
    "EventFormatError",
    "ForcedBetPosted",
    "HandEnded",
    "HandEvaluated",
    "HandShown",
    "HandStarted",
    "HoleCardsDealt",
    "PotAwarded",
    "PotsFormed",
    "StreetDealt",
    "UncalledBetReturned",
    "event_from_dict",
    "event_to_dict",
    "event_view",
    "is_visible_to",
]
