"""Player actions as small immutable values, the legal-action summary, and the :class:`IllegalAction` error.

An action names the seat that takes it; amounts are integers (cents in cash games, chips in tournaments) and are
"to" amounts: ``Bet(3, 20)`` and ``RaiseTo(3, 60)`` mean "my total bet in this betting round becomes 20 / 60", like
PHH's ``cbr``. Constructing an action never fails; :meth:`games.engine.state.HandState.verify` decides whether it is
legal and says why not. :func:`action_from_dict` parses untrusted input (a socket message) and rejects anything
malformed with :class:`IllegalAction`.

Kinds:

* :class:`Fold`, :class:`Check`, :class:`Call` (calling less than the full amount when it puts the player all-in,
  ENG-18), :class:`Bet` (first wager of a post-flop round), :class:`RaiseTo` (increase an existing wager — preflop
  the big blind counts as the opening wager), :class:`AllIn` (whatever the whole stack amounts to: a call, bet or
  raise);
* :class:`PostAnte`, :class:`PostBlind`: the forced bets the hand's configuration requires, in order (the state posts
  them itself unless created with ``auto_post=False``);
* :class:`Timeout`: the automatic decision when a player's time runs out (TB-04, CASH-22, TRN-31, AMB-20): check if
  checking is allowed, otherwise fold.

Standard library only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Final

MAXIMUM_AMOUNT: Final[int] = 10**15
"""Upper bound for any amount the engine accepts (10^13 euros in cents); larger numbers are rejected as nonsense."""


class IllegalAction(ValueError):
    """An action that the hand does not allow now. The message says why, in words a player understands."""


@dataclass(frozen=True, slots=True)
class Fold:
    """Give up the hand (ENG-12). Allowed on the player's turn, even when checking would be free."""

    seat: int
    kind: ClassVar[str] = "fold"


@dataclass(frozen=True, slots=True)
class Check:
    """Pass without betting; only when nothing is owed (ENG-13: the big blind may check preflop if nobody raised)."""

    seat: int
    kind: ClassVar[str] = "check"


@dataclass(frozen=True, slots=True)
class Call:
    """Match the current bet, or put in the whole stack when it is smaller than the call (ENG-14, ENG-18)."""

    seat: int
    kind: ClassVar[str] = "call"


@dataclass(frozen=True, slots=True)
class Bet:
    """Make the first wager of a post-flop betting round, bringing the seat's bet in this round to ``amount``."""

    seat: int
    amount: int
    kind: ClassVar[str] = "bet"


@dataclass(frozen=True, slots=True)
class RaiseTo:
    """Raise the current wager so that the seat's total bet in this betting round is ``amount`` (ENG-15..ENG-21)."""

    seat: int
    amount: int
    kind: ClassVar[str] = "raise_to"


@dataclass(frozen=True, slots=True)
class AllIn:
    """Put the whole remaining stack in: resolves to a call, bet or raise of that size (ENG-18, ENG-19, ENG-20)."""

    seat: int
    kind: ClassVar[str] = "all_in"


@dataclass(frozen=True, slots=True)
class PostAnte:
    """Post the ante the configuration requires from this seat (ENG-08; short stacks post all they have, ENG-09)."""

    seat: int
    kind: ClassVar[str] = "post_ante"


@dataclass(frozen=True, slots=True)
class PostBlind:
    """Post the blind the configuration requires from this seat: small, big, or a live big blind out of position."""

    seat: int
    kind: ClassVar[str] = "post_blind"


@dataclass(frozen=True, slots=True)
class Timeout:
    """The automatic decision for a player whose time ran out: check if possible, otherwise fold (TB-04, CASH-22)."""

    seat: int
    kind: ClassVar[str] = "timeout"


Action = Fold | Check | Call | Bet | RaiseTo | AllIn | PostAnte | PostBlind | Timeout
"""Any action value."""

ACTION_TYPES: Final[dict[str, type[Action]]] = {
    action_type.kind: action_type
    for action_type in (Fold, Check, Call, Bet, RaiseTo, AllIn, PostAnte, PostBlind, Timeout)
}
"""Action classes by their ``kind`` (the ``"type"`` key of the dictionary form)."""

_AMOUNT_KINDS: Final[frozenset[str]] = frozenset({"bet", "raise_to"})


def is_whole_number(value: object) -> bool:
    """True for a real ``int`` (``bool`` is rejected even though it subclasses ``int``)."""
    return type(value) is int


def describe_bad_amount(amount: object) -> str | None:
    """Why ``amount`` cannot be a chip amount, or None when it is a positive whole number within range."""
    if not is_whole_number(amount):
        return f"amount must be a whole number of chips, not {amount!r}"
    assert isinstance(amount, int)
    if amount <= 0:
        return f"amount must be positive, not {amount}"
    if amount > MAXIMUM_AMOUNT:
        return f"amount {amount} is too large"
    return None


def action_to_dict(action: Action) -> dict[str, Any]:
    """The JSON-ready form: ``{"type": "raise_to", "seat": 3, "amount": 60}`` (``amount`` only for bet/raise_to)."""
    result: dict[str, Any] = {"type": action.kind, "seat": action.seat}
    if isinstance(action, Bet | RaiseTo):
        result["amount"] = action.amount
    return result


def action_from_dict(data: Mapping[str, Any]) -> Action:
    """Parse the dictionary form of an action from untrusted input.

    Raises :class:`IllegalAction` for an unknown type, a missing or non-integer seat, a missing, non-integer, boolean,
    float, zero, negative or absurdly large amount, or unexpected keys. Whether the action is legal in a given hand is
    a separate question for :meth:`games.engine.state.HandState.verify`.
    """
    if not isinstance(data, Mapping):
        raise IllegalAction(f"an action must be an object, not {type(data).__name__}")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in ACTION_TYPES:
        known = ", ".join(sorted(ACTION_TYPES))
        raise IllegalAction(f"unknown action type {kind!r}; expected one of {known}")
    expected_keys = {"type", "seat", "amount"} if kind in _AMOUNT_KINDS else {"type", "seat"}
    unexpected = set(data) - expected_keys
    if unexpected:
        raise IllegalAction(f"unexpected field(s) for {kind}: {', '.join(sorted(map(str, unexpected)))}")
    seat = data.get("seat")
    if not is_whole_number(seat):
        raise IllegalAction(f"seat must be a whole number, not {seat!r}")
    assert isinstance(seat, int)
    if kind in _AMOUNT_KINDS:
        if "amount" not in data:
            raise IllegalAction(f"{kind} needs an amount")
        amount = data["amount"]
        problem = describe_bad_amount(amount)
        if problem is not None:
            raise IllegalAction(problem)
        return Bet(seat, amount) if kind == "bet" else RaiseTo(seat, amount)
    return ACTION_TYPES[kind](seat)  # type: ignore[call-arg]


@dataclass(frozen=True, slots=True)
class LegalActions:
    """What the player to act may do now.

    All amounts are "to" amounts for the seat's bet in the current betting round except ``call_amount`` and
    ``all_in_amount``, which are the chips the action would add from the stack.

    * ``fold``/``check``: allowed or not.
    * ``call_amount``: chips a :class:`Call` adds (less than the full call when it puts the player all-in); ``None``
      when there is nothing to call.
    * ``bet_range`` / ``raise_range``: ``(minimum, maximum)`` totals for :class:`Bet` / :class:`RaiseTo`, or ``None``.
      When the stack cannot reach the minimum, both ends are the all-in total (an undersized all-in, ENG-20).
    * ``all_in_amount``: the chips an :class:`AllIn` adds, or ``None`` when going all-in is not allowed (pot-limit
      maximum below the stack, or a raise is not allowed and the stack exceeds the call).
    * ``forced``: during posting, the one forced bet that must be posted next (and nothing else is legal).
    """

    seat: int
    fold: bool
    check: bool
    call_amount: int | None
    bet_range: tuple[int, int] | None
    raise_range: tuple[int, int] | None
    all_in_amount: int | None
    forced: PostAnte | PostBlind | None = None

    @property
    def kinds(self) -> tuple[str, ...]:
        """The action kinds that are legal now, e.g. ``("fold", "call", "raise_to", "all_in", "timeout")``."""
        if self.forced is not None:
            return (self.forced.kind,)
        kinds: list[str] = []
        if self.fold:
            kinds.append("fold")
        if self.check:
            kinds.append("check")
        if self.call_amount is not None:
            kinds.append("call")
        if self.bet_range is not None:
            kinds.append("bet")
        if self.raise_range is not None:
            kinds.append("raise_to")
        if self.all_in_amount is not None:
            kinds.append("all_in")
        kinds.append("timeout")
        return tuple(kinds)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form for the client's action buttons: the kinds a client may send. ``timeout`` is the action
        clock's, never a player's (a client sending it is refused), so it is left out."""
        return {
            "seat": self.seat,
            "kinds": [kind for kind in self.kinds if kind != Timeout.kind],
            "call_amount": self.call_amount,
            "bet_range": list(self.bet_range) if self.bet_range is not None else None,
            "raise_range": list(self.raise_range) if self.raise_range is not None else None,
            "all_in_amount": self.all_in_amount,
            "forced": action_to_dict(self.forced) if self.forced is not None else None,
        }


__all__ = [
    "ACTION_TYPES",
    "MAXIMUM_AMOUNT",
    "Action",
    "AllIn",
    "Bet",
    "Call",
    "Check",
    "Fold",
    "IllegalAction",
    "LegalActions",
    "PostAnte",
    "PostBlind",
    "RaiseTo",
    "Timeout",
    "action_from_dict",
    "action_to_dict",
    "describe_bad_amount",
    "is_whole_number",
]
