"""The No-Limit Hold'em / Pot-Limit Omaha hand state machine (ENG-02..ENG-27).

A :class:`HandState` plays one hand for 2..10 players from a :class:`~games.engine.config.HandConfig` and a deck order.
The table service drives it:

1. ``state = HandState.create(config, shuffler=secrets.SystemRandom())`` (or ``deck=...``). Forced bets are posted
   and hole cards dealt at once unless ``auto_post=False`` (then apply the :class:`PostAnte` / :class:`PostBlind`
   actions that :meth:`HandState.legal_actions` asks for).
2. While ``not state.is_complete``: ``state.actor`` is the seat to act, ``state.legal_actions()`` what it may do
   (amount ranges included); ``state.apply(action)`` performs an action after :meth:`HandState.verify` (which raises
   :class:`~games.engine.actions.IllegalAction` with the reason). When the clock runs out, apply
   ``Timeout(seat)``: check if possible, otherwise fold.
3. Every change is appended to ``state.events`` (``apply`` returns the new ones) for storage and broadcasting.
4. When complete, ``state.result`` gives the pots (amount, eligible seats, winners, shares), final stacks, the street
   reached and the players dealt in — what rake (games.engine.rake) and the wallet settlement need.

Rules implemented, by requirement: blinds and antes with short stacks all-in (ENG-03, ENG-08, ENG-09); heads-up order
(ENG-04: the configuration makes the button the small blind, action order follows); out-of-position live big blinds
and hands without a small blind (ENG-05, CASH-07, AMB-46); action order preflop from the seat after the big blind and
post-flop from the first seat after the button (ENG-10); round completion (ENG-11); fold/check/call (ENG-12..14);
minimum bet and raise (ENG-15, no cap ENG-16); pot-limit maximum (ENG-17, AMB-23); all-in calls and raises (ENG-18,
ENG-19); undersized all-ins that do not reopen the betting (ENG-20) unless several in succession without a call add
up to a full raise (ENG-21, AMB-50: the minimum raise stays the largest full increment); main and side pots (ENG-22);
uncalled bets returned (ENG-23); everyone else folds (ENG-24, no show); all-in run-out (ENG-25); showdown with every
remaining hand shown (ENG-26, AMB-51), order: last aggressor of the final betting round, else first seat clockwise from
the button; split pots with odd chips clockwise from the button (ENG-27).

Decisions the catalog leaves open (documented in games/engine/README.md): preflop the amount to call is at least the
configured big blind even if the big blind poster is all-in for less; a player may raise only if some other player
could still respond (pokerkit does the same); a fold is accepted even when checking is free; raising is closed again
for a player who has acted since the last full raise (or cumulative reopen), whatever the amounts.

Performance: plain lists of ints indexed by position (clockwise from the button), no copies on the hot path.
Determinism: the same configuration, deck and actions always produce the same events and state.

Standard library only.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum, IntEnum
from typing import Any

from games.engine.actions import (
    Action,
    AllIn,
    Bet,
    Call,
    Check,
    Fold,
    IllegalAction,
    LegalActions,
    PostAnte,
    PostBlind,
    RaiseTo,
    Timeout,
    describe_bad_amount,
    is_whole_number,
)
from games.engine.cards import FULL_DECK, Card, Shuffler, shuffled_deck
from games.engine.config import HandConfig
from games.engine.evaluation import (
    evaluate_omaha,
    holdem_strength,
    omaha_strength,
    strength_name,
)
from games.engine.events import (
    ActionTaken,
    DeckRecorded,
    Event,
    ForcedBetPosted,
    HandEnded,
    HandEvaluated,
    HandShown,
    HandStarted,
    HoleCardsDealt,
    PotAwarded,
    PotsFormed,
    StreetDealt,
    UncalledBetReturned,
)
from games.engine.odd_chips import split_amount
from games.engine.pots import Pot, layer_pots
from games.engine.showdown import best_five_holdem


class Street(IntEnum):
    """Betting rounds in order (ENG-02)."""

    PREFLOP = 0
    FLOP = 1
    TURN = 2
    RIVER = 3

    @property
    def label(self) -> str:
        return self.name.lower()


class Phase(Enum):
    """Where the hand is: forced bets still to post, betting (someone is to act), or over."""

    POSTING = "posting"
    BETTING = "betting"
    COMPLETE = "complete"


class ReplayMismatch(ValueError):
    """Replaying a stored event log did not reproduce it (the log or the configuration was altered)."""


# Operation codes of a resolved action (what an action amounts to in the current state).
_FOLD = 0
_CHECK = 1
_CALL = 2
_BET = 3
_RAISE = 4
_POST = 5
_RESOLVED_NAMES = ("fold", "check", "call", "bet", "raise")
_ACTION_CLASSES = frozenset({Fold, Check, Call, Bet, RaiseTo, AllIn, PostAnte, PostBlind, Timeout})
_BOARD_SIZES = (0, 3, 4, 5)
_BLIND_NAMES = {
    "ante": "ante",
    "small": "small_blind",
    "big": "big_blind",
    "extra": "out_of_position_big_blind",
}


@dataclass(frozen=True, slots=True)
class HandResult:
    """The outcome of a finished hand, for rake and settlement.

    * ``pots``: main pot first, then side pots, each with ``amount``, ``eligible`` seats, ``winners`` (ENG-27 order)
      and ``shares``. Uncalled bets are not in any pot (ENG-23). Amounts are before rake: the table service computes
      rake from ``pot_amounts``, ``flop_dealt`` and ``len(dealt_in)`` and re-splits each pot's remainder with
      :func:`games.engine.pots.split_pot` over ``winners``.
    * ``starting_stacks`` / ``final_stacks``: ``(seat, chips)`` pairs clockwise from the button.
    * ``street_reached``: the last street dealt; ``flop_dealt`` is true when the flop was dealt (also by an all-in
      run-out); ``showdown``: hands were compared (false when everybody else folded).
    * ``uncalled``: ``(seat, amount)`` of uncalled bets returned during the hand.
    """

    pots: tuple[Pot, ...]
    starting_stacks: tuple[tuple[int, int], ...]
    final_stacks: tuple[tuple[int, int], ...]
    dealt_in: tuple[int, ...]
    street_reached: Street
    flop_dealt: bool
    showdown: bool
    uncalled: tuple[tuple[int, int], ...]

    @property
    def pot_amounts(self) -> tuple[int, ...]:
        return tuple(pot.amount for pot in self.pots)

    @property
    def net(self) -> dict[int, int]:
        """Chips won (positive) or lost (negative) by seat, before rake."""
        starting = dict(self.starting_stacks)
        return {seat: stack - starting[seat] for seat, stack in self.final_stacks}

    def to_dict(self) -> dict[str, Any]:
        return {
            "pots": [pot.to_dict() for pot in self.pots],
            "starting_stacks": [list(pair) for pair in self.starting_stacks],
            "final_stacks": [list(pair) for pair in self.final_stacks],
            "dealt_in": list(self.dealt_in),
            "street_reached": self.street_reached.label,
            "flop_dealt": self.flop_dealt,
            "showdown": self.showdown,
            "uncalled": [list(pair) for pair in self.uncalled],
        }


class HandState:
    """One hand of No-Limit Hold'em or Pot-Limit Omaha. Create with :meth:`create`; see the module docstring.

    Public, read-only views: :attr:`phase`, :attr:`is_complete`, :attr:`street`, :attr:`actor`, :attr:`board`,
    :attr:`stacks`, :attr:`bets`, :attr:`contributions`, :attr:`pot_total`, :attr:`pots`, :attr:`events`,
    :attr:`result`, :meth:`hole_cards`, :meth:`legal_actions`. Mutate only through :meth:`apply`.
    """

    __slots__ = (
        "_acted",
        "_active_count",
        "_actor",
        "_bets",
        "_big_blind_index",
        "_board",
        "_contributed",
        "_current_bet",
        "_deck",
        "_deck_position",
        "_events",
        "_folded",
        "_hole",
        "_index_of",
        "_last_aggressor",
        "_live_count",
        "_marker",
        "_min_increment",
        "_pending_posts",
        "_phase",
        "_player_count",
        "_pot_limit",
        "_result_pots",
        "_seats",
        "_short_sum",
        "_showdown",
        "_shown",
        "_stacks",
        "_starting_stacks",
        "_street",
        "_uncalled",
        "config",
    )

    config: HandConfig

    # ------------------------------------------------------------------------------------------------------------------
    # Creation

    def __init__(self, config: HandConfig, deck: Sequence[Card]) -> None:
        """Prefer :meth:`create`. ``deck`` must be 52 distinct cards; it is the dealing order (no burn cards)."""
        if not isinstance(config, HandConfig):
            raise TypeError(f"config must be a HandConfig, not {type(config).__name__}")
        deck = tuple(deck)
        if len(deck) != 52 or len(set(deck)) != 52 or not all(isinstance(card, Card) for card in deck):
            raise ValueError("the deck must be the 52 distinct cards in dealing order")
        self.config = config
        seats = config.seats_clockwise
        count = len(seats)
        self._seats = seats
        self._player_count = count
        self._index_of = {seat: index for index, seat in enumerate(seats)}
        self._pot_limit = config.variant.pot_limit
        stacks_by_seat = config.stacks
        self._stacks = [stacks_by_seat[seat] for seat in seats]
        self._starting_stacks = tuple(self._stacks)
        self._bets = [0] * count
        self._contributed = [0] * count
        self._folded = [False] * count
        self._acted = [-1] * count
        self._shown = [False] * count
        self._hole: list[tuple[Card, ...]] = [()] * count
        self._board: list[Card] = []
        self._deck = deck
        self._deck_position = 0
        self._street = Street.PREFLOP
        self._phase = Phase.POSTING
        self._actor = -1
        self._current_bet = 0
        self._min_increment = config.minimum_bet
        self._marker = 0
        self._short_sum = 0
        self._last_aggressor = -1
        self._live_count = count
        self._active_count = count
        self._big_blind_index = self._index_of[config.big_blind_seat]
        self._result_pots: tuple[Pot, ...] = ()
        self._showdown = False
        self._uncalled: list[tuple[int, int]] = []
        self._events: list[Event] = []
        self._pending_posts = self._forced_posts()
        self._events.append(HandStarted(1, config))
        self._events.append(DeckRecorded(2, deck))

    @classmethod
    def create(
        cls,
        config: HandConfig,
        *,
        deck: Sequence[Card] | None = None,
        shuffler: Shuffler | None = None,
        auto_post: bool = True,
    ) -> HandState:
        """Start a hand. Give either the ``deck`` order or a ``shuffler`` (``secrets.SystemRandom()`` in production,
        a seeded ``random.Random`` in tests, GEN-08); the deck used is recorded in a :class:`DeckRecorded` event.

        With ``auto_post`` (the default) antes and blinds are posted and the hole cards dealt immediately, so the
        state returned is waiting for the first preflop action.
        """
        if deck is None:
            if shuffler is None:
                raise ValueError("give the hand a deck order or a shuffler")
            deck = shuffled_deck(shuffler)
        elif shuffler is not None:
            raise ValueError("give the hand a deck order or a shuffler, not both")
        state = cls(config, deck)
        if auto_post:
            while state._phase is Phase.POSTING:
                state._post_next()
        return state

    def _forced_posts(self) -> list[tuple[int, str]]:
        """(position index, blind name) of the forced bets in posting order: antes, small, big, out-of-position."""
        config = self.config
        index_of = self._index_of
        posts: list[tuple[int, str]] = []
        if config.ante > 0:
            ante_seats = config.ante_seats if config.ante_seats is not None else self._seats
            posts.extend((index_of[seat], "ante") for seat in sorted(ante_seats, key=index_of.__getitem__))
        if config.small_blind_seat is not None and config.small_blind > 0:
            posts.append((index_of[config.small_blind_seat], "small"))
        posts.append((index_of[config.big_blind_seat], "big"))
        posts.extend(
            (index_of[seat], "extra") for seat in sorted(config.out_of_position_seats, key=index_of.__getitem__)
        )
        posts.reverse()  # popped from the end
        return posts

    # ------------------------------------------------------------------------------------------------------------------
    # Read-only views

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def is_complete(self) -> bool:
        return self._phase is Phase.COMPLETE

    @property
    def street(self) -> Street:
        """The current betting round (the last street dealt once the hand is over)."""
        return self._street

    @property
    def actor(self) -> int | None:
        """The seat whose turn it is (including a forced post), or ``None`` when the hand is over."""
        if self._phase is Phase.BETTING:
            return self._seats[self._actor]
        if self._phase is Phase.POSTING:
            return self._seats[self._pending_posts[-1][0]]
        return None

    @property
    def seats(self) -> tuple[int, ...]:
        """Seats dealt in, clockwise from the first seat after the button."""
        return self._seats

    @property
    def board(self) -> tuple[Card, ...]:
        return tuple(self._board)

    @property
    def deck(self) -> tuple[Card, ...]:
        """The full deck order this hand deals from (audit information: never send it to players)."""
        return self._deck

    @property
    def stacks(self) -> dict[int, int]:
        """Chips behind (not yet bet) by seat."""
        return dict(zip(self._seats, self._stacks, strict=True))

    @property
    def starting_stacks(self) -> dict[int, int]:
        return dict(zip(self._seats, self._starting_stacks, strict=True))

    @property
    def bets(self) -> dict[int, int]:
        """Each seat's bet in the current betting round."""
        return dict(zip(self._seats, self._bets, strict=True))

    @property
    def contributions(self) -> dict[int, int]:
        """Everything each seat has put in this hand (antes, blinds, bets; uncalled bets already returned)."""
        return dict(zip(self._seats, self._contributed, strict=True))

    @property
    def current_bet(self) -> int:
        """The bet to match in this betting round (preflop at least the big blind)."""
        return self._current_bet

    @property
    def min_raise_increment(self) -> int:
        """The smallest legal raise increment now: the largest full bet/raise increment of the round (ENG-15)."""
        return self._min_increment

    @property
    def pot_total(self) -> int:
        """All chips in the middle, including bets of the current round (before the hand is settled)."""
        return sum(self._contributed)

    @property
    def pots(self) -> tuple[Pot, ...]:
        """The pots: after the hand, as awarded (with winners and shares); before, as they stand now (ENG-22)."""
        if self._phase is Phase.COMPLETE:
            return self._result_pots
        return self._layered_pots()

    @property
    def folded_seats(self) -> tuple[int, ...]:
        return tuple(seat for seat, folded in zip(self._seats, self._folded, strict=True) if folded)

    @property
    def live_seats(self) -> tuple[int, ...]:
        """Seats still holding cards (all-in or not)."""
        return tuple(seat for seat, folded in zip(self._seats, self._folded, strict=True) if not folded)

    @property
    def events(self) -> tuple[Event, ...]:
        """The whole event log so far (sequence numbers 1..n)."""
        return tuple(self._events)

    def events_since(self, sequence: int) -> tuple[Event, ...]:
        """Events with a sequence number greater than ``sequence`` (for a client that resynchronises)."""
        return tuple(self._events[max(sequence, 0) :])

    def hole_cards(self, seat: int) -> tuple[Card, ...]:
        """The seat's hole cards (empty before they are dealt). Private information: the caller filters by viewer."""
        return self._hole[self._index_of[seat]]

    @property
    def result(self) -> HandResult:
        """The outcome; raises ``ValueError`` while the hand is still being played."""
        if self._phase is not Phase.COMPLETE:
            raise ValueError("the hand is not over yet")
        seats = self._seats
        return HandResult(
            pots=self._result_pots,
            starting_stacks=tuple(zip(seats, self._starting_stacks, strict=True)),
            final_stacks=tuple(zip(seats, self._stacks, strict=True)),
            dealt_in=seats,
            street_reached=self._street,
            flop_dealt=len(self._board) >= 3,
            showdown=self._showdown,
            uncalled=tuple(self._uncalled),
        )

    # ------------------------------------------------------------------------------------------------------------------
    # Legal actions

    def _call_target(self, index: int) -> int:
        """The bet ``index`` must reach to stay in: the current bet, or — when nobody else can still bet — the most
        any other remaining player has put in this round (a larger call could only be returned as uncalled)."""
        if self._active_count > 1:
            return self._current_bet
        bets = self._bets
        folded = self._folded
        highest = 0
        for other in range(self._player_count):
            if other != index and not folded[other] and bets[other] > highest:
                highest = bets[other]
        return highest if highest < self._current_bet else self._current_bet

    def _may_raise(self, index: int, owed: int) -> str | None:
        """Why ``index`` may not bet or raise now, or None if it may (ENG-19, ENG-20, ENG-21)."""
        if self._stacks[index] <= owed:
            return "your stack only covers a call"
        if self._acted[index] == self._marker:
            return (
                "the betting was not reopened since you acted (an all-in for less than a full raise does not reopen it)"
            )
        stacks = self._stacks
        bets = self._bets
        folded = self._folded
        current = self._current_bet
        for other in range(self._player_count):
            if other != index and not folded[other] and stacks[other] and stacks[other] + bets[other] > current:
                return None
        return "every other player is all-in or covered, so there is nobody to raise against"

    def _raise_limits(self, index: int) -> tuple[int, int]:
        """(minimum, maximum) totals for a bet/raise by ``index``, both capped at the all-in total."""
        current = self._current_bet
        all_in_total = self._bets[index] + self._stacks[index]
        minimum = current + self._min_increment
        if self._pot_limit:
            # ENG-17: raise by at most the pot after calling: P (everything in the middle) + C (the call).
            maximum = current + sum(self._contributed) + (current - self._bets[index])
            if maximum < minimum:
                maximum = minimum
        else:
            maximum = all_in_total
        if minimum > all_in_total:
            minimum = all_in_total
        if maximum > all_in_total:
            maximum = all_in_total
        return minimum, maximum

    def legal_actions(self) -> LegalActions | None:
        """What the player to act may do now, or ``None`` when the hand is over."""
        if self._phase is Phase.COMPLETE:
            return None
        if self._phase is Phase.POSTING:
            index, blind = self._pending_posts[-1]
            seat = self._seats[index]
            forced = PostAnte(seat) if blind == "ante" else PostBlind(seat)
            return LegalActions(seat, False, False, None, None, None, None, forced)
        index = self._actor
        seat = self._seats[index]
        stack = self._stacks[index]
        owed = self._call_target(index) - self._bets[index]
        check = owed <= 0
        call_amount = (owed if owed < stack else stack) if owed > 0 else None
        bet_range = raise_range = None
        all_in_amount: int | None = stack if owed >= stack else None
        if self._may_raise(index, owed) is None:
            limits = self._raise_limits(index)
            if self._current_bet == 0:
                bet_range = limits
            else:
                raise_range = limits
            if limits[1] == self._bets[index] + stack:
                all_in_amount = stack
        return LegalActions(seat, True, check, call_amount, bet_range, raise_range, all_in_amount)

    def timeout_action(self) -> Check | Fold:
        """The automatic decision for the player to act whose time ran out: check if possible, else fold (TB-04)."""
        if self._phase is not Phase.BETTING:
            raise IllegalAction("nobody is to act")
        index = self._actor
        seat = self._seats[index]
        return Check(seat) if self._call_target(index) <= self._bets[index] else Fold(seat)

    # ------------------------------------------------------------------------------------------------------------------
    # verify / can / apply

    def verify(self, action: Action) -> None:
        """Raise :class:`IllegalAction` saying why ``action`` is not allowed now; return None if it is."""
        self._resolve(action)

    def can(self, action: Action) -> bool:
        """Whether ``action`` is allowed now."""
        try:
            self._resolve(action)
        except IllegalAction:
            return False
        return True

    def apply(self, action: Action) -> tuple[Event, ...]:
        """Verify and perform ``action``; return the events it produced (the state is unchanged if it is illegal).

        One action may produce many events: after the last action of a betting round the state returns uncalled
        bets, forms pots and deals the next street; after the last action of the hand it runs out the board, shows
        hands, awards the pots and ends the hand.
        """
        operation, total = self._resolve(action)
        start = len(self._events)
        if operation == _POST:
            self._post_next()
        else:
            self._perform(action, operation, total)
        return tuple(self._events[start:])

    def _resolve(self, action: Action) -> tuple[int, int]:
        """(operation code, total bet afterwards) for a legal action; raise IllegalAction otherwise."""
        phase = self._phase
        if phase is Phase.COMPLETE:
            raise IllegalAction("the hand is over")
        action_type = type(action)
        if action_type not in _ACTION_CLASSES:
            raise IllegalAction(f"not an action: {action!r}")
        seat = action.seat
        if not is_whole_number(seat):
            raise IllegalAction(f"seat must be a whole number, not {seat!r}")
        assert isinstance(seat, int)
        index = self._index_of.get(seat)
        if index is None:
            raise IllegalAction(f"seat {seat} is not dealt into this hand")
        if phase is Phase.POSTING:
            post_index, blind = self._pending_posts[-1]
            expected = "ante" if blind == "ante" else "blind"
            if post_index != index:
                raise IllegalAction(
                    f"seat {self._seats[post_index]} must post the {_BLIND_NAMES[blind].replace('_', ' ')} first"
                )
            if action_type is PostAnte and expected == "ante":
                return _POST, 0
            if action_type is PostBlind and expected == "blind":
                return _POST, 0
            raise IllegalAction(f"seat {seat} must post the {_BLIND_NAMES[blind].replace('_', ' ')} first")
        if action_type is PostAnte or action_type is PostBlind:
            raise IllegalAction("forced bets have already been posted")
        actor = self._actor
        if index != actor:
            if self._folded[index]:
                raise IllegalAction(f"seat {seat} has folded")
            raise IllegalAction(f"it is seat {self._seats[actor]}'s turn, not seat {seat}'s")
        bet = self._bets[index]
        stack = self._stacks[index]
        target = self._call_target(index)
        owed = target - bet
        if action_type is Fold:
            return _FOLD, bet
        if action_type is Check:
            if owed > 0:
                raise IllegalAction(f"cannot check facing a bet of {target}; call {min(owed, stack)}, raise or fold")
            return _CHECK, bet
        if action_type is Call:
            if owed <= 0:
                raise IllegalAction("there is no bet to call; check instead")
            return _CALL, bet + (owed if owed < stack else stack)
        if action_type is Timeout:
            return (_CHECK, bet) if owed <= 0 else (_FOLD, bet)
        all_in_total = bet + stack
        if action_type is AllIn:
            if owed >= stack:
                return _CALL, all_in_total
            reason = self._may_raise(index, owed)
            if reason is not None:
                raise IllegalAction(f"cannot go all-in: {reason}; call {owed} or fold" if owed > 0 else reason)
            minimum, maximum = self._raise_limits(index)
            if all_in_total > maximum:
                raise IllegalAction(f"cannot go all-in for {all_in_total}: pot-limit maximum is {maximum}")
            return (_BET if self._current_bet == 0 else _RAISE), all_in_total
        amount = getattr(action, "amount", None)  # Bet or RaiseTo: the only kinds left
        problem = describe_bad_amount(amount)
        if problem is not None:
            raise IllegalAction(problem)
        assert isinstance(amount, int)
        if action_type is Bet:
            if self._current_bet > 0:
                raise IllegalAction(f"there is already a bet of {self._current_bet} in this round; raise instead")
            noun = "bet"
        else:
            if self._current_bet == 0:
                raise IllegalAction("there is no bet to raise in this round; bet instead")
            noun = "raise"
        reason = self._may_raise(index, owed)
        if reason is not None:
            raise IllegalAction(f"cannot {noun}: {reason}")
        minimum, maximum = self._raise_limits(index)
        if amount > maximum:
            if amount > all_in_total:
                raise IllegalAction(f"cannot {noun} to {amount}: seat {seat} has only {all_in_total} in total")
            raise IllegalAction(f"pot-limit maximum is {maximum}")
        if amount < minimum:
            to = " to" if noun == "raise" else ""
            raise IllegalAction(f"minimum {noun} is{to} {minimum}")
        return (_BET if noun == "bet" else _RAISE), amount

    # ------------------------------------------------------------------------------------------------------------------
    # Mutation

    def _emit(self, event_type: Any, *fields: Any) -> None:
        self._events.append(event_type(len(self._events) + 1, *fields))

    def _post_next(self) -> None:
        index, blind = self._pending_posts.pop()
        config = self.config
        if blind == "ante":
            wanted = config.ante
        elif blind == "small":
            wanted = config.small_blind
        else:
            wanted = config.big_blind
        stack = self._stacks[index]
        amount = wanted if wanted < stack else stack
        if amount > 0:
            self._stacks[index] = stack - amount
            self._contributed[index] += amount
            if blind != "ante":
                self._bets[index] += amount
            all_in = stack == amount
            if all_in:
                self._active_count -= 1
            self._emit(ForcedBetPosted, self._seats[index], _BLIND_NAMES[blind], amount, all_in)
        pending = self._pending_posts
        while pending and not self._stacks[pending[-1][0]]:
            pending.pop()  # nothing left to post after the ante (ENG-09): no event, no action
        if not pending:
            self._deal_hole_cards()
            self._start_preflop()

    def _deal_hole_cards(self) -> None:
        count = self._player_count
        per_player = self.config.variant.hole_card_count
        deck = self._deck
        position = self._deck_position
        # One card at a time, clockwise from the first seat after the button.
        hole = self._hole
        for index in range(count):
            hole[index] = tuple(deck[position + index + round_ * count] for round_ in range(per_player))
        self._deck_position = position + per_player * count
        seats = self._seats
        for index in range(count):
            self._emit(HoleCardsDealt, seats[index], hole[index])

    def _start_preflop(self) -> None:
        self._phase = Phase.BETTING
        highest = max(self._bets)
        big_blind = self.config.big_blind
        self._current_bet = highest if highest > big_blind else big_blind
        self._min_increment = self.config.minimum_bet
        actor = self._find_actor(self._big_blind_index + 1)
        if actor < 0:
            self._end_betting_round()
        else:
            self._actor = actor

    def _find_actor(self, start: int) -> int:
        """The first position from ``start`` clockwise that must act, or -1 when the betting round is complete."""
        count = self._player_count
        folded = self._folded
        stacks = self._stacks
        acted = self._acted
        bets = self._bets
        marker = self._marker
        sole = self._active_count <= 1
        current = self._current_bet
        for step in range(count):
            index = (start + step) % count
            if folded[index] or not stacks[index]:
                continue
            if sole:
                return index if bets[index] < self._call_target(index) else -1
            if acted[index] != marker or bets[index] < current:
                return index
        return -1

    def _perform(self, action: Action, operation: int, total: int) -> None:
        index = self._actor
        seat = self._seats[index]
        bets = self._bets
        stacks = self._stacks
        added = total - bets[index]
        if operation == _FOLD:
            self._folded[index] = True
            self._live_count -= 1
            if stacks[index]:
                self._active_count -= 1
            self._emit(ActionTaken, seat, action, "fold", 0, bets[index], False)
            if self._live_count == 1:
                self._end_betting_round()
                return
        else:
            if added:
                stacks[index] -= added
                bets[index] = total
                self._contributed[index] += added
            all_in = stacks[index] == 0
            if all_in and added:
                self._active_count -= 1
            if operation == _CALL:
                self._short_sum = 0  # a call ends a succession of undersized all-ins (ENG-21)
            elif operation >= _BET:
                increment = total - self._current_bet
                if increment >= self._min_increment:
                    self._min_increment = increment  # ENG-15: a full bet/raise reopens the betting
                    self._marker += 1
                    self._short_sum = 0
                else:
                    # ENG-20: an undersized all-in does not reopen the betting ... unless several in succession with
                    # no call between add up to a full raise (ENG-21). The minimum increment stays (AMB-50).
                    self._short_sum += increment
                    if self._short_sum >= self._min_increment:
                        self._marker += 1
                        self._short_sum = 0
                self._current_bet = total
                self._last_aggressor = index
            self._acted[index] = self._marker
            self._emit(ActionTaken, seat, action, _RESOLVED_NAMES[operation], added, total, all_in)
        actor = self._find_actor(index + 1)
        if actor < 0:
            self._end_betting_round()
        else:
            self._actor = actor

    def _end_betting_round(self) -> None:
        bets = self._bets
        count = self._player_count
        # ENG-23: the part of the highest bet nobody matched goes back.
        top = -1
        highest = second = 0
        for index in range(count):
            bet = bets[index]
            if bet > highest:
                second = highest
                highest = bet
                top = index
            elif bet > second:
                second = bet
        round_had_money = highest > 0
        if highest > second:
            excess = highest - second
            if self._stacks[top] == 0 and not self._folded[top]:
                self._active_count += 1
            self._stacks[top] += excess
            bets[top] = second
            self._contributed[top] -= excess
            self._uncalled.append((self._seats[top], excess))
            self._emit(UncalledBetReturned, self._seats[top], excess)
        self._bets = [0] * count
        if self._live_count == 1:
            self._award_uncontested()
            return
        if round_had_money:
            self._emit(PotsFormed, self._layered_pots())
        if self._street == Street.RIVER:
            self._showdown_and_award()
            return
        if self._active_count <= 1:
            # ENG-25: nobody (or only one player) can still bet: show the hands and run out the board.
            self._show_hands()
            while self._street < Street.RIVER:
                self._deal_street()
            self._showdown_and_award()
            return
        self._deal_street()
        self._marker += 1
        self._current_bet = 0
        self._min_increment = self.config.minimum_bet
        self._short_sum = 0
        self._last_aggressor = -1
        actor = self._find_actor(0)
        if actor < 0:
            self._end_betting_round()
        else:
            self._actor = actor

    def _deal_street(self) -> None:
        street = Street(self._street + 1)
        size = _BOARD_SIZES[street] - _BOARD_SIZES[street - 1]
        position = self._deck_position
        cards = self._deck[position : position + size]
        self._deck_position = position + size
        self._board.extend(cards)
        self._street = street
        self._emit(StreetDealt, street.label, cards, tuple(self._board))

    def _layered_pots(self) -> tuple[Pot, ...]:
        seats = self._seats
        return tuple(
            Pot(amount, tuple(seats[index] for index in eligible))
            for amount, eligible in layer_pots(self._contributed, self._folded)
        )

    def _award_uncontested(self) -> None:
        """ENG-24: the last player holding cards wins everything without showing."""
        self._actor = -1
        winner = self._folded.index(False)
        seat = self._seats[winner]
        total = sum(self._contributed)
        pot = Pot(total, (seat,), (seat,), ((seat, total),))
        self._stacks[winner] += total
        self._result_pots = (pot,)
        self._emit(PotAwarded, 0, pot, None)
        self._finish()

    def _show_order(self) -> list[int]:
        """Live players in showing order: the last aggressor of the final betting round first, otherwise the first
        seat clockwise from the button; then clockwise (ENG-26)."""
        count = self._player_count
        start = self._last_aggressor if self._last_aggressor >= 0 and not self._folded[self._last_aggressor] else 0
        return [(start + step) % count for step in range(count) if not self._folded[(start + step) % count]]

    def _show_hands(self) -> None:
        """Turn every remaining hand face up that is not shown yet, in showing order (ENG-26, AMB-51)."""
        seats = self._seats
        shown = self._shown
        for index in self._show_order():
            if not shown[index]:
                shown[index] = True
                self._emit(HandShown, seats[index], self._hole[index])

    def _showdown_and_award(self) -> None:
        """Show and evaluate the remaining hands, then award each pot to its best eligible hands (ENG-26, ENG-27)."""
        self._actor = -1
        self._showdown = True
        self._show_hands()
        board = tuple(self._board)
        strengths: dict[int, int] = {}
        pot_limit = self._pot_limit
        seats = self._seats
        for index in self._show_order():
            hole = self._hole[index]
            if pot_limit:
                strength = omaha_strength(hole, board)
                best_cards = evaluate_omaha(hole, board).cards
            else:
                cards = hole + board
                strength = holdem_strength(cards)
                best_cards = best_five_holdem(cards, strength)
            strengths[index] = strength
            self._emit(HandEvaluated, seats[index], strength_name(strength), best_cards, strength)
        pots: list[Pot] = []
        button = self.config.button
        table_size = self.config.table_size
        index_of = self._index_of
        for pot_index, (amount, eligible) in enumerate(layer_pots(self._contributed, self._folded)):
            best = max(strengths[index] for index in eligible)
            winners = tuple(seats[index] for index in eligible if strengths[index] == best)
            # ENG-27: odd chips one at a time clockwise from the first seat after the button (shared with rake code).
            shares = split_amount(amount, winners, button_seat=button, seat_count=table_size)
            for seat, share in shares.items():
                self._stacks[index_of[seat]] += share
            pot = Pot(amount, tuple(seats[index] for index in eligible), tuple(shares), tuple(shares.items()))
            pots.append(pot)
            self._emit(PotAwarded, pot_index, pot, strength_name(best))
        self._result_pots = tuple(pots)
        self._finish()

    def _finish(self) -> None:
        self._phase = Phase.COMPLETE
        self._actor = -1
        self._emit(HandEnded, tuple(zip(self._seats, self._stacks, strict=True)), self._street.label, self._showdown)


def replay(config: HandConfig | None, events: Iterable[Event]) -> HandState:
    """Rebuild a hand from its stored event log (and configuration) and check that it reproduces the log exactly.

    The deck order comes from the :class:`DeckRecorded` event; the forced posts and actions from
    :class:`ForcedBetPosted` and :class:`ActionTaken`; every other event must come out identical. ``config`` may be
    ``None`` to take it from the :class:`HandStarted` event. Raises :class:`ReplayMismatch` when the log does not
    replay exactly (altered, truncated in the middle of an action's events, or from another configuration). A log
    that stops between actions (a hand in progress) replays to the state at that point.
    """
    log = list(events)
    if len(log) < 2 or not isinstance(log[0], HandStarted) or not isinstance(log[1], DeckRecorded):
        raise ReplayMismatch("an event log starts with HandStarted and DeckRecorded")
    if config is None:
        config = log[0].config
    state = HandState.create(config, deck=log[1].cards, auto_post=False)
    try:
        for event in log[2:]:
            if isinstance(event, ForcedBetPosted):
                state.apply(PostAnte(event.seat) if event.blind == "ante" else PostBlind(event.seat))
            elif isinstance(event, ActionTaken):
                state.apply(event.action)
    except IllegalAction as error:
        raise ReplayMismatch(f"the log contains an illegal action: {error}") from error
    produced = state._events
    for position, expected in enumerate(log):
        if position >= len(produced) or produced[position] != expected:
            found = produced[position] if position < len(produced) else None
            raise ReplayMismatch(f"event {position + 1} differs: logged {expected!r}, replayed {found!r}")
    if len(produced) != len(log):
        raise ReplayMismatch(f"the log stops at event {len(log)} but its last action produced {len(produced)} events")
    return state


def arrange_deck(
    config: HandConfig,
    hole_cards: dict[int, Sequence[Card]],
    board: Sequence[Card] = (),
    filler: Sequence[Card] | None = None,
) -> tuple[Card, ...]:
    """A deck order that deals ``hole_cards`` (by seat) and then ``board`` (flop, turn, river) in this engine.

    Seats missing from ``hole_cards`` and board cards not given get the remaining cards in ``filler`` order (default:
    the fixed deck order). Used by tests, PHH import and the differential test against pokerkit.
    """
    seats = config.seats_clockwise
    per_player = config.variant.hole_card_count
    wanted = [card for cards in hole_cards.values() for card in cards] + list(board)
    if len(set(wanted)) != len(wanted):
        raise ValueError("a card is given twice")
    for seat, cards in hole_cards.items():
        if seat not in seats:
            raise ValueError(f"seat {seat} is not dealt in")
        if len(cards) != per_player:
            raise ValueError(f"seat {seat} needs {per_player} hole cards, got {len(cards)}")
    if len(board) > 5:
        raise ValueError("a board has at most five cards")
    used = set(wanted)
    spare = iter(card for card in (filler if filler is not None else FULL_DECK) if card not in used)
    order: list[Card] = []
    for round_ in range(per_player):
        for seat in seats:
            given = hole_cards.get(seat)
            order.append(given[round_] if given is not None else next(spare))
    order.extend(board)
    order.extend(spare)
    if len(order) != 52:
        raise ValueError("the filler cards do not complete the deck")
    return tuple(order)


__all__ = [
    "HandResult",
    "HandState",
    "Phase",
    "ReplayMismatch",
    "Street",
    "arrange_deck",
    "replay",
]
