"""Poker Hand History (PHH) import and export for No-Limit Hold'em (``NT``) and Pot-Limit Omaha (``PO``).

PHH is the pokerkit project's open, TOML-based hand history format. A ``.phh`` file holds one hand; a ``.phhs`` file
holds several, as TOML tables ``[1]``, ``[2]``, ... Fields used here (same names as pokerkit's ``HandHistory``):
``variant``, ``antes``, ``blinds_or_straddles``, ``min_bet``, ``starting_stacks``, ``actions``, and optionally
``players``, ``seats``, ``seat_count``, ``finishing_stacks``, ``hand``, ``table`` and other metadata (kept as is).
A raked hand's ``finishing_stacks`` are after the rake, which the user-defined field ``_rake`` states (PHH has none).

Players are listed in position order: ``p1`` is the first seat clockwise from the button and the last player is the
button. Heads-up, pokerkit reads ``blinds_or_straddles`` and ``antes`` reversed (``p2``, the button, posts the first
entry). Actions: ``d dh p1 AsKd`` (hole cards, ``??`` for an unknown card), ``d db 7h8h9h`` (board), ``p1 f`` (fold),
``p1 cc`` (check or call), ``p1 cbr 20`` (bet or raise to 20, the player's total for the round), ``p1 sm AsKd`` (show;
``p1 sm`` alone is a muck). Text after `` # `` is a comment.

Import (:func:`replay_phh`) replays a hand in :class:`~games.engine.state.HandState` and returns the finishing stacks
in PHH player order. Unknown hole cards are allowed for players who fold or win without a showdown, or whose cards
are revealed by a later ``sm``. Our rules decide where they differ from pokerkit's (see games/engine/README.md): a
player who had no decision left (pokerkit's ``cc`` after everybody else is all-in) is skipped, and odd chips follow
ENG-27. Structures the engine does not play (straddles, bring-ins, other variants) are refused with :class:`PhhError`.

Export (:func:`hand_to_phh`) writes a hand played by the engine; :func:`dumps_phh` / :func:`dumps_phhs` serialise
with a small TOML writer. A hand with out-of-position big blinds records them in ``_out_of_position_big_blinds``
(pokerkit itself has no such notion and would treat them like straddles).

Standard library only.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

from games.engine.actions import Bet, Call, Check, Fold, IllegalAction, RaiseTo
from games.engine.cards import FULL_DECK, Card, InvalidCardError
from games.engine.config import ConfigurationError, HandConfig, SeatedPlayer, Variant
from games.engine.events import ActionTaken, HandShown, StreetDealt
from games.engine.state import HandState

UNKNOWN_CARD = "??"
OUT_OF_POSITION_FIELD = "_out_of_position_big_blinds"
RAKE_FIELD = "_rake"
"""User-defined field: the rake taken from the hand's pots; ``finishing_stacks`` are after it."""


class PhhError(ValueError):
    """A hand history that cannot be read or replayed. ``hand`` and ``action`` say where (when known)."""

    def __init__(self, message: str, *, hand: int | str | None = None, action: str | None = None) -> None:
        self.reason = message
        self.hand = hand
        self.action = action
        where = []
        if hand is not None:
            where.append(f"hand {hand}")
        if action is not None:
            where.append(f"action {action!r}")
        super().__init__(f"{', '.join(where)}: {message}" if where else message)


@dataclass(frozen=True, slots=True)
class ReplayedHand:
    """A PHH hand replayed by the engine: its number in the file, the final state and the stacks in PHH order."""

    number: int | str
    state: HandState
    finishing_stacks: list[int]


# ----------------------------------------------------------------------------------------------------------------------
# Reading


def _number(value: Any) -> Any:
    """tomllib parses TOML floats with ``Decimal``; whole numbers become ``int``, anything else stays a Decimal."""
    if isinstance(value, Decimal) and value == value.to_integral_value():
        return int(value)
    return value


def loads_phh(text: str) -> list[tuple[int | str, dict[str, Any]]]:
    """Parse PHH text (one hand) or PHHS text (tables ``[1]``, ``[2]`` ...) into ``(hand number, fields)`` pairs."""
    try:
        data = tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError as error:
        raise PhhError(f"not valid TOML: {error}") from error
    if "variant" in data or "actions" in data:
        return [(1, data)]
    hands: list[tuple[int | str, dict[str, Any]]] = []
    for key, value in data.items():
        if not isinstance(value, dict):
            raise PhhError(f"unexpected top-level field {key!r} in a multi-hand file")
        hands.append((int(key) if key.isdigit() else key, value))
    if not hands:
        raise PhhError("no hand in the file")
    return hands


def load_phh_file(path: str | Path) -> list[tuple[int | str, dict[str, Any]]]:
    """Read a ``.phh`` or ``.phhs`` file (UTF-8)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise PhhError(f"cannot read the file: {error}") from error
    return loads_phh(text)


def _int_list(fields: Mapping[str, Any], name: str, count: int, *, default: int | None = None) -> list[int]:
    raw = fields.get(name, default)
    if raw is None:
        raise PhhError(f"missing field {name!r}")
    values = [raw] * count if not isinstance(raw, list) else list(raw)
    values = [_number(value) for value in values]
    if len(values) > count:
        raise PhhError(f"{name} has {len(values)} entries for {count} players")
    values += [0] * (count - len(values))
    for value in values:
        if type(value) is not int or value < 0:
            raise PhhError(f"{name} must hold non-negative whole numbers (amounts in cents or chips), got {value!r}")
    return values


def config_from_phh(fields: Mapping[str, Any]) -> HandConfig:
    """The engine configuration for a PHH hand: players ``p1..pn`` sit in seats 1..n, the button in seat n."""
    variant_code = fields.get("variant")
    try:
        variant = Variant(variant_code)
    except ValueError:
        raise PhhError(f"unsupported variant {variant_code!r} (supported: NT, PO)") from None
    stacks = _int_list(fields, "starting_stacks", len(fields.get("starting_stacks") or []))
    count = len(stacks)
    if not 2 <= count <= 10:
        raise PhhError(f"the engine plays 2 to 10 players, the hand has {count}")
    antes = _int_list(fields, "antes", count, default=0)
    blinds = _int_list(fields, "blinds_or_straddles", count, default=0)
    min_bet = _number(fields.get("min_bet"))
    if count == 2:
        # pokerkit reads heads-up blinds and antes in reverse: the button (p2) posts the first entry.
        blinds.reverse()
        antes.reverse()
    posters = [(index, amount) for index, amount in enumerate(blinds) if amount > 0]
    if not posters:
        raise PhhError("the hand has no big blind")
    big_blind = max(amount for _, amount in posters)
    big_blind_index = next(index for index, amount in posters if amount == big_blind)
    small = [(index, amount) for index, amount in posters if amount < big_blind]
    if len(small) > 1:
        raise PhhError("more than one small blind (straddles are not supported)")
    out_of_position = [index for index, amount in posters if amount == big_blind and index != big_blind_index]
    declared = fields.get(OUT_OF_POSITION_FIELD)
    if declared is not None and not isinstance(declared, list):
        raise PhhError(f"{OUT_OF_POSITION_FIELD} must be a list of players")
    declared_indexes = sorted(_player_index(label, count) for label in declared or [])
    if out_of_position != declared_indexes:
        raise PhhError("several big blinds (straddles) are only supported as declared out-of-position big blinds")
    ante_amounts = {amount for amount in antes if amount > 0}
    if len(ante_amounts) > 1:
        raise PhhError("antes of different sizes are not supported")
    try:
        return HandConfig(
            variant=variant,
            table_size=max(count, 2),
            button=count,
            players=tuple(SeatedPlayer(index + 1, stack) for index, stack in enumerate(stacks)),
            small_blind=small[0][1] if small else 0,
            big_blind=big_blind,
            small_blind_seat=small[0][0] + 1 if small else None,
            big_blind_seat=big_blind_index + 1,
            ante=ante_amounts.pop() if ante_amounts else 0,
            ante_seats=tuple(index + 1 for index, amount in enumerate(antes) if amount > 0),
            out_of_position_seats=tuple(index + 1 for index in out_of_position),
            min_bet=min_bet,
        )
    except ConfigurationError as error:
        raise PhhError(str(error)) from error


def _player_index(label: Any, count: int) -> int:
    if not isinstance(label, str) or not label.startswith("p") or not label[1:].isdigit():
        raise PhhError(f"{label!r} is not a player label (p1, p2, ...)")
    index = int(label[1:]) - 1
    if not 0 <= index < count:
        raise PhhError(f"there is no player {label} in a {count}-player hand")
    return index


def _parse_cards(text: str) -> list[Card | None]:
    """Cards in PHH text ("AsKd", "????", "As??"); ``None`` stands for an unknown card."""
    if len(text) % 2:
        raise PhhError(f"{text!r} is not a list of cards")
    cards: list[Card | None] = []
    for position in range(0, len(text), 2):
        chunk = text[position : position + 2]
        if chunk == UNKNOWN_CARD:
            cards.append(None)
            continue
        try:
            cards.append(Card.from_text(chunk))
        except InvalidCardError as error:
            raise PhhError(f"{chunk!r} is not a card") from error
    return cards


def _split_action(text: Any) -> list[str]:
    if not isinstance(text, str):
        raise PhhError(f"an action must be text, not {text!r}")
    return text.split("#", 1)[0].split()


def replay_phh(fields: Mapping[str, Any], *, number: int | str = 1) -> ReplayedHand:
    """Replay one PHH hand (the fields of a ``.phh`` file or of one ``.phhs`` table) in the engine.

    Raises :class:`PhhError` naming the hand and the offending action when the history is malformed, uses an
    unsupported structure, contains an action the engine refuses (with the engine's reason), stops before the hand
    is over, reaches a showdown with unknown cards, or ends with stacks other than its ``finishing_stacks`` (with a
    ``_rake``: stacks that the rake, taken after the result, does not account for). The finishing stacks returned
    are the file's then: after the rake.
    """
    try:
        return _replay(fields, number)
    except PhhError as error:
        if error.hand is None:
            raise PhhError(error.reason, hand=number, action=error.action) from error
        raise


def _replay(fields: Mapping[str, Any], number: int | str) -> ReplayedHand:
    config = config_from_phh(fields)
    count = len(config.players)
    per_player = config.variant.hole_card_count
    actions = fields.get("actions")
    if not isinstance(actions, list):
        raise PhhError("missing field 'actions'")

    # First pass: the cards. Hole cards by player, the board in order, and cards revealed at showdown.
    hole: list[list[Card | None]] = [[] for _ in range(count)]
    shown: dict[int, list[Card | None]] = {}
    board: list[Card | None] = []
    for text in actions:
        words = _split_action(text)
        try:
            if words[:2] == ["d", "dh"] and len(words) == 4:
                hole[_player_index(words[2], count)].extend(_parse_cards(words[3]))
            elif words[:2] == ["d", "db"] and len(words) == 3:
                board.extend(_parse_cards(words[2]))
            elif len(words) == 3 and words[1] == "sm" and words[2] != "-":
                shown[_player_index(words[0], count)] = _parse_cards(words[2])
        except PhhError as error:
            raise PhhError(error.reason, action=text) from error
    for index in range(count):
        cards = hole[index]
        if not cards:
            cards.extend([None] * per_player)
        if len(cards) != per_player:
            raise PhhError(f"p{index + 1} was dealt {len(cards)} hole cards, {config.variant.name} deals {per_player}")
        revealed = shown.get(index)
        if revealed is not None:
            if len(revealed) != per_player:
                raise PhhError(f"p{index + 1} shows {len(revealed)} cards")
            dealt_known = [card for card in cards if card is not None]
            revealed_known = [card for card in revealed if card is not None]
            if None not in revealed and any(card not in revealed_known for card in dealt_known):
                raise PhhError(f"p{index + 1} shows cards other than the ones dealt")
            extra = [card for card in revealed_known if card not in dealt_known]
            for position, card in enumerate(cards):
                if card is None and extra:
                    cards[position] = extra.pop(0)
    if len(board) > 5:
        raise PhhError("more than five board cards")
    known = [card for cards in hole for card in cards if card is not None] + [card for card in board if card]
    if len(set(known)) != len(known):
        raise PhhError("a card is dealt twice")
    unknown_seats = {index + 1 for index in range(count) if any(card is None for card in hole[index])}
    board_unknown = any(card is None for card in board) or len(board) < 5
    spare = iter(card for card in FULL_DECK if card not in set(known))
    filled_hole = {
        index + 1: tuple(card if card is not None else next(spare) for card in hole[index]) for index in range(count)
    }
    filled_board = [card if card is not None else next(spare) for card in board]
    order: list[Card] = []
    seats = config.seats_clockwise
    for round_ in range(per_player):
        order.extend(filled_hole[seat][round_] for seat in seats)
    order.extend(filled_board)
    order.extend(spare)
    state = HandState.create(config, deck=order)

    # Second pass: the betting.
    board_count = 0
    for text in actions:
        words = _split_action(text)
        if not words:
            continue
        if words[0] == "d":
            if words[1:2] == ["db"]:
                board_count += len(words[2]) // 2 if len(words) == 3 else 0
                if len(state.board) < board_count:
                    raise PhhError(f"the board is dealt while seat {state.actor} is still to act", action=text)
            elif words[1:2] != ["dh"]:
                raise PhhError("unknown dealer action", action=text)
            continue
        if len(words) < 2:
            raise PhhError("not an action", action=text)
        verb = words[1]
        try:
            seat = _player_index(words[0], count) + 1
            if verb == "sm":
                continue
            if verb == "f" and len(words) == 2:
                state.apply(Fold(seat))
            elif verb == "cc" and len(words) == 2:
                if state.actor != seat and _has_no_decision(state, seat):
                    continue  # pokerkit asks for a check nobody could answer; the engine skips such turns
                legal = state.legal_actions()
                owes = legal is not None and legal.seat == seat and legal.call_amount is not None
                state.apply(Call(seat) if owes else Check(seat))
            elif verb == "cbr" and len(words) == 3:
                amount = _parse_amount(words[2])
                state.apply(Bet(seat, amount) if state.current_bet == 0 else RaiseTo(seat, amount))
            else:
                raise PhhError(f"unsupported action {verb!r}", action=text)
        except IllegalAction as error:
            raise PhhError(str(error), action=text) from error
        except PhhError as error:
            if error.action is None:
                raise PhhError(error.reason, action=text) from error
            raise
    if not state.is_complete:
        raise PhhError(f"the history stops before the hand is over (seat {state.actor} is to act)")
    result = state.result
    if result.showdown:
        in_showdown = set(state.live_seats)
        hidden = sorted(in_showdown & unknown_seats)
        if hidden:
            raise PhhError(f"the hole cards of {', '.join(f'p{seat}' for seat in hidden)} are unknown at showdown")
        if board_unknown:
            raise PhhError("the board is not fully known at showdown")
    stacks = state.stacks
    finishing = [stacks[seat] for seat in range(1, count + 1)]
    expected = fields.get("finishing_stacks")
    rake = _number(fields.get(RAKE_FIELD, 0))
    if type(rake) is not int or rake < 0:
        raise PhhError(f"{RAKE_FIELD} must be a non-negative whole number, got {rake!r}")
    if expected is not None:
        written = [_number(value) for value in expected]
        if rake:
            # The rake came out of the pots after the engine's result: each player finishes with at most what the
            # actions give them, and all together with exactly the rake less.
            raked = (
                len(written) == count
                and all(
                    type(value) is int and 0 <= value <= stack for value, stack in zip(written, finishing, strict=True)
                )
                and sum(finishing) - sum(written) == rake
            )
            if not raked:
                raise PhhError(
                    f"the replay ends with stacks {finishing} before a rake of {rake}, the file says {list(expected)}"
                )
            finishing = written
        elif written != finishing:
            raise PhhError(f"the replay ends with stacks {finishing}, the file says {list(expected)}")
    return ReplayedHand(number, state, finishing)


def _parse_amount(text: str) -> int:
    """A ``cbr`` amount: a whole number of chips or cents (PHH files with decimal money must be scaled first)."""
    try:
        value = Decimal(text)
    except ArithmeticError:
        raise PhhError(f"{text!r} is not an amount") from None
    if not value.is_finite() or value != value.to_integral_value():
        raise PhhError(f"amount {text} is not a whole number of chips or cents")
    return int(value)


def _has_no_decision(state: HandState, seat: int) -> bool:
    """True when ``seat`` is still in the hand with chips but nobody else can bet any more."""
    live = state.live_seats
    if seat not in live:
        return False
    if state.is_complete:
        return state.result.showdown  # the hand was decided by an all-in run-out right after the last action
    stacks = state.stacks
    return stacks[seat] > 0 and sum(1 for other in live if stacks[other] > 0) <= 1


def replay_phh_text(text: str) -> list[ReplayedHand]:
    """Replay every hand of a PHH/PHHS text (stops at the first bad hand)."""
    return [replay_phh(fields, number=number) for number, fields in loads_phh(text)]


# ----------------------------------------------------------------------------------------------------------------------
# Writing


def hand_to_phh(
    state: HandState,
    *,
    players: Sequence[str] | None = None,
    metadata: Mapping[str, Any] | None = None,
    settled_stacks: Mapping[int, int] | None = None,
    rake: int = 0,
) -> dict[str, Any]:
    """The PHH fields of a hand played by the engine (complete or not), in PHH player order.

    ``players`` are display names by position (first seat after the button first); ``metadata`` adds optional
    fields (``hand``, ``table``, ``event``, ``currency`` ...). Timeouts are written as the fold or check they became,
    with a ``# timeout`` comment.

    ``rake`` (taken from the pots after the engine's result) and ``settled_stacks`` (seat → stack after the rake) are
    the table's settlement: ``finishing_stacks`` are then the stacks the players had after it, as PHH asks ("the
    rake applied in the end"; ``winnings`` are post-rake too), and the rake is written in the user-defined field
    ``_rake`` (PHH has no rake field of its own), so a reader replaying the actions knows why the stacks it gets are
    ``_rake`` more than ``finishing_stacks`` (:func:`replay_phh` accepts exactly that difference).
    """
    config = state.config
    seats = state.seats
    count = len(seats)
    position = {seat: index + 1 for index, seat in enumerate(seats)}
    blinds = [0] * count
    if config.small_blind_seat is not None:
        blinds[position[config.small_blind_seat] - 1] = config.small_blind
    blinds[position[config.big_blind_seat] - 1] = config.big_blind
    for seat in config.out_of_position_seats:
        blinds[position[seat] - 1] = config.big_blind
    ante_seats = set(config.ante_seats if config.ante_seats is not None else seats)
    antes = [config.ante if seat in ante_seats else 0 for seat in seats]
    if count == 2:
        blinds.reverse()
        antes.reverse()
    fields: dict[str, Any] = {
        "variant": config.variant.value,
        "antes": antes,
        "blinds_or_straddles": blinds,
        "min_bet": config.minimum_bet,
        "starting_stacks": [state.starting_stacks[seat] for seat in seats],
        "actions": _phh_actions(state, position),
    }
    if config.out_of_position_seats:
        fields[OUT_OF_POSITION_FIELD] = [f"p{position[seat]}" for seat in config.out_of_position_seats]
    fields["seats"] = list(seats)
    fields["seat_count"] = config.table_size
    if players is not None:
        fields["players"] = list(players)
    if state.is_complete:
        stacks = state.stacks
        if rake:
            if settled_stacks is None or sorted(settled_stacks) != sorted(seats):
                raise ValueError("a raked hand needs the settled stack of every player")
            if sum(stacks.values()) - sum(settled_stacks[seat] for seat in seats) != rake:
                raise ValueError("the settled stacks and the rake do not add up to the engine's stacks")
            stacks = dict(settled_stacks)
            fields[RAKE_FIELD] = rake
        fields["finishing_stacks"] = [stacks[seat] for seat in seats]
    for key, value in (metadata or {}).items():
        fields.setdefault(key, value)
    return fields


def _phh_actions(state: HandState, position: Mapping[int, int]) -> list[str]:
    lines = [f"d dh p{position[seat]} {''.join(map(str, state.hole_cards(seat)))}" for seat in state.seats]
    for event in state.events:
        if isinstance(event, ActionTaken):
            player = f"p{position[event.seat]}"
            note = " # timeout" if event.action.kind == "timeout" else ""
            if event.resolved == "fold":
                lines.append(f"{player} f{note}")
            elif event.resolved in ("check", "call"):
                lines.append(f"{player} cc{note}")
            else:
                lines.append(f"{player} cbr {event.total_bet}")
        elif isinstance(event, StreetDealt):
            lines.append(f"d db {''.join(map(str, event.cards))}")
        elif isinstance(event, HandShown):
            lines.append(f"p{position[event.seat]} sm {''.join(map(str, event.cards))}")
    return lines


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | Decimal):
        return str(value)
    if isinstance(value, str):
        escaped = value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
        return f'"{escaped}"'
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    raise TypeError(f"cannot write {value!r} to PHH")


def _toml_key(key: str) -> str:
    if key and all(character.isalnum() or character in "_-" for character in key):
        return key
    return _toml_value(key)


def dumps_phh(fields: Mapping[str, Any]) -> str:
    """One hand as ``.phh`` text (a flat TOML document; values: integers, text, booleans and lists of them)."""
    return "".join(f"{_toml_key(key)} = {_toml_value(value)}\n" for key, value in fields.items())


def dumps_phhs(hands: Iterable[Mapping[str, Any]]) -> str:
    """Several hands as ``.phhs`` text: tables ``[1]``, ``[2]``, ..."""
    return "\n".join(f"[{number}]\n{dumps_phh(fields)}" for number, fields in enumerate(hands, start=1))


__all__ = [
    "OUT_OF_POSITION_FIELD",
    "RAKE_FIELD",
    "PhhError",
    "ReplayedHand",
    "config_from_phh",
    "dumps_phh",
    "dumps_phhs",
    "hand_to_phh",
    "load_phh_file",
    "loads_phh",
    "replay_phh",
    "replay_phh_text",
]
