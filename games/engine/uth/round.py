"""A UTH round: betting window, dealing, three decision phases, settlement or cancellation (UTH-03..UTH-13, UTH-36).

Phases, in order::

    BETTING ──close_betting(deck)──▶ PREFLOP ──advance()──▶ FLOP ──advance()──▶ RIVER ──advance()──▶ SETTLED
       any phase before SETTLED ──cancel()──▶ CANCELLED

* BETTING: players place ANTE (+ automatic BLIND) and TRIPS on their :class:`~games.engine.uth.betting.BetSlip`
  (UTH-05..07). Closing the betting turns every non-empty slip into a :class:`PlayerHand` and deals.
* Dealing (UTH-08): ``deck[0:2]`` are the player cards — common to every player at the table (UTH-03, AMB-38) —
  ``deck[2:4]`` the dealer's face-down cards, ``deck[4:7]`` the flop, ``deck[7]`` the turn and ``deck[8]`` the river.
  The whole shuffled deck is kept for game recall (GEN-07).
* PREFLOP (decision 1, AMB-08): PLAY 4x, PLAY 3x or CHECK; timeout → CHECK ("AUTO CHECKED", UTH-10).
* FLOP (decision 2): only for players who checked: PLAY 2x or CHECK; timeout → CHECK (UTH-11).
* RIVER (decision 3): only for players who checked twice: PLAY 1x or FOLD; timeout → FOLD ("AUTO FOLDED", UTH-12).
* SETTLED: the dealer's cards are shown and every hand is settled (games.engine.uth.settlement).
* CANCELLED: a malfunction voids the round; every stake placed in it is refunded (UTH-36, UTH-37, AMB-37, GEN-04).

A player may PLAY only once per round (UTH-09). PLAY options the player's balance cannot cover are not offered
(AMB-39): pass ``available`` (cents the player can still stake) to :meth:`PlayerHand.options` and friends.

Every operation follows the engine's verify / can / do pattern: ``verify_*`` raises :class:`IllegalDecision` or
:class:`~games.engine.uth.betting.BetRejected` with a reason a player understands, ``can_*`` answers yes or no, and the
doing method returns a new value (everything here is immutable).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Final

from games.engine.cards import Card, format_cards
from games.engine.evaluation import holdem_strength
from games.engine.uth.betting import BetAmounts, BetLimits, BetRejected, BetSlip, BetStep
from games.engine.uth.money import format_cents
from games.engine.uth.settlement import BetSpot, HandSettlement, settle_hand


class Phase(StrEnum):
    BETTING = "betting"
    PREFLOP = "preflop"
    FLOP = "flop"
    RIVER = "river"
    SETTLED = "settled"
    CANCELLED = "cancelled"

    @property
    def is_decision(self) -> bool:
        return self in DECISION_OPTIONS

    @property
    def is_over(self) -> bool:
        return self in (Phase.SETTLED, Phase.CANCELLED)

    @property
    def label(self) -> str:
        """Player-facing name of the phase."""
        return _PHASE_LABELS[self]


_PHASE_LABELS: Final[dict[Phase, str]] = {
    Phase.BETTING: "betting time",
    Phase.PREFLOP: "the decision before the flop",
    Phase.FLOP: "the decision after the flop",
    Phase.RIVER: "the decision after the turn and river",
    Phase.SETTLED: "the result",
    Phase.CANCELLED: "a cancelled round",
}


class Decision(StrEnum):
    PLAY_4X = "play_4x"
    PLAY_3X = "play_3x"
    PLAY_2X = "play_2x"
    PLAY_1X = "play_1x"
    CHECK = "check"
    FOLD = "fold"

    @property
    def multiplier(self) -> int:
        """How many Antes the PLAY bet is (0 for CHECK and FOLD)."""
        return _MULTIPLIERS[self]

    @property
    def label(self) -> str:
        """ "PLAY 4x", "CHECK", "FOLD" (the seed's button texts)."""
        return self.value.replace("_", " ").upper().replace("X", "x")


_MULTIPLIERS: Final[dict[Decision, int]] = {
    Decision.PLAY_4X: 4,
    Decision.PLAY_3X: 3,
    Decision.PLAY_2X: 2,
    Decision.PLAY_1X: 1,
    Decision.CHECK: 0,
    Decision.FOLD: 0,
}

DECISION_OPTIONS: Final[Mapping[Phase, tuple[Decision, ...]]] = MappingProxyType(
    {
        Phase.PREFLOP: (Decision.PLAY_4X, Decision.PLAY_3X, Decision.CHECK),
        Phase.FLOP: (Decision.PLAY_2X, Decision.CHECK),
        Phase.RIVER: (Decision.PLAY_1X, Decision.FOLD),
    }
)
"""UTH-10..UTH-12: what a player who has not yet raised may choose in each decision phase."""

TIMEOUT_DECISIONS: Final[Mapping[Phase, Decision]] = MappingProxyType(
    {Phase.PREFLOP: Decision.CHECK, Phase.FLOP: Decision.CHECK, Phase.RIVER: Decision.FOLD}
)
"""UTH-10..UTH-12: the decision made for a player whose decision time expires (also when disconnected, UTH-38)."""

_NEXT_PHASE: Final[dict[Phase, Phase]] = {
    Phase.PREFLOP: Phase.FLOP,
    Phase.FLOP: Phase.RIVER,
    Phase.RIVER: Phase.SETTLED,
}

_VISIBLE_COMMUNITY: Final[dict[Phase, int]] = {
    Phase.BETTING: 0,
    Phase.PREFLOP: 0,
    Phase.FLOP: 3,
    Phase.RIVER: 5,
    Phase.SETTLED: 5,
    Phase.CANCELLED: 0,
}


class IllegalDecision(ValueError):
    """A decision the round does not allow now; the message says why in plain words."""


class RoundError(ValueError):
    """An operation on the round as a whole that its phase does not allow (a programming or scheduling error)."""


@dataclass(frozen=True, slots=True)
class RoundCards:
    """The cards of a round, dealt from a shuffled deck (see the module docstring for the order)."""

    deck: tuple[Card, ...]

    def __post_init__(self) -> None:
        if len(self.deck) != 52 or len(set(self.deck)) != 52:
            raise RoundError("a UTH round is dealt from one full 52-card deck (UTH-04)")

    @classmethod
    def from_deck(cls, deck: Sequence[Card]) -> RoundCards:
        return cls(tuple(deck))

    @property
    def player(self) -> tuple[Card, ...]:
        """The two player cards, common to every player at the table (UTH-03, AMB-38)."""
        return self.deck[0:2]

    @property
    def dealer(self) -> tuple[Card, ...]:
        return self.deck[2:4]

    @property
    def community(self) -> tuple[Card, ...]:
        return self.deck[4:9]

    def community_visible_in(self, phase: Phase) -> tuple[Card, ...]:
        """The community cards on the table during ``phase``: none before the flop, three on the flop, then five."""
        return self.community[: _VISIBLE_COMMUNITY[phase]]

    @property
    def player_strength(self) -> int:
        return holdem_strength(self.player + self.community)

    @property
    def dealer_strength(self) -> int:
        return holdem_strength(self.dealer + self.community)

    def __str__(self) -> str:
        return (
            f"player {format_cards(self.player)} | dealer {format_cards(self.dealer)} | "
            f"board {format_cards(self.community)}"
        )


@dataclass(frozen=True, slots=True)
class DecisionRecord:
    """A decision taken in a phase; ``automatic`` when the decision time ran out (AUTO CHECKED / AUTO FOLDED)."""

    phase: Phase
    decision: Decision
    automatic: bool = False

    @property
    def label(self) -> str:
        """ "PLAY 4x", "CHECK", "AUTO CHECKED", "AUTO FOLDED"."""
        if self.automatic:
            return "AUTO CHECKED" if self.decision is Decision.CHECK else "AUTO FOLDED"
        return self.decision.label


@dataclass(frozen=True, slots=True)
class PlayerHand:
    """One player's bets and decisions in a dealt round. The BLIND equals the ANTE (UTH-05)."""

    ante: int
    trips: int = 0
    play: int = 0
    folded: bool = False
    decisions: tuple[DecisionRecord, ...] = ()

    @property
    def blind(self) -> int:
        return self.ante

    @property
    def stake(self) -> int:
        """Everything this player has staked in the round: ANTE + BLIND + TRIPS + PLAY."""
        return 2 * self.ante + self.trips + self.play

    def play_cost(self, decision: Decision) -> int:
        """Cents a decision stakes: the PLAY multiple of the ANTE (0 for CHECK and FOLD)."""
        return self.ante * decision.multiplier

    def needs_decision(self, phase: Phase) -> bool:
        """Whether this player still has to decide in ``phase`` (not folded, not yet raised, not yet decided)."""
        if not phase.is_decision or self.folded or self.play:
            return False
        return all(record.phase is not phase for record in self.decisions)

    def options(self, phase: Phase, available: int | None = None) -> tuple[Decision, ...]:
        """The decisions offered now; PLAY options the ``available`` balance cannot cover are left out (AMB-39)."""
        if not self.needs_decision(phase):
            return ()
        return tuple(
            decision
            for decision in DECISION_OPTIONS[phase]
            if available is None or self.play_cost(decision) <= available
        )

    def verify_decision(self, phase: Phase, decision: Decision, available: int | None = None) -> None:
        """Raise :class:`IllegalDecision` saying why ``decision`` cannot be taken in ``phase``; return if it can."""
        if not phase.is_decision:
            if phase is Phase.BETTING:
                raise IllegalDecision("Decisions are made after the cards are dealt; betting is still open.")
            raise IllegalDecision("This round is over; no more decisions can be made.")
        if self.folded:
            raise IllegalDecision("You have folded this round.")
        if self.play:
            raise IllegalDecision("You have already made your PLAY bet this round; you may raise only once.")
        if any(record.phase is phase for record in self.decisions):
            raise IllegalDecision(f"You have already decided in {phase.label}.")
        allowed = DECISION_OPTIONS[phase]
        if decision not in allowed:
            choices = " or ".join(option.label for option in allowed)
            raise IllegalDecision(f"{decision.label} is not possible in {phase.label}; choose {choices}.")
        cost = self.play_cost(decision)
        if available is not None and cost > available:
            raise IllegalDecision(f"Your balance does not cover {decision.label} ({format_cents(cost)}).")

    def can_decide(self, phase: Phase, decision: Decision, available: int | None = None) -> bool:
        try:
            self.verify_decision(phase, decision, available)
        except IllegalDecision:
            return False
        return True

    def decide(self, phase: Phase, decision: Decision, available: int | None = None) -> PlayerHand:
        """The hand after the player's own decision (raises :class:`IllegalDecision`)."""
        self.verify_decision(phase, decision, available)
        return self._with(DecisionRecord(phase, decision))

    def time_out(self, phase: Phase) -> PlayerHand:
        """The hand after the decision time ran out: AUTO CHECKED, or AUTO FOLDED at the last decision (UTH-10..12).

        Raises :class:`IllegalDecision` when the player has nothing to decide in ``phase``.
        """
        if not self.needs_decision(phase):
            raise IllegalDecision(f"There is no decision pending in {phase.label}.")
        return self._with(DecisionRecord(phase, TIMEOUT_DECISIONS[phase], automatic=True))

    def _with(self, record: DecisionRecord) -> PlayerHand:
        return PlayerHand(
            self.ante,
            self.trips,
            self.play + self.play_cost(record.decision),
            self.folded or record.decision is Decision.FOLD,
            (*self.decisions, record),
        )

    def settle(self, cards: RoundCards) -> HandSettlement:
        return self.settle_strengths(cards.player_strength, cards.dealer_strength)

    def settle_strengths(self, player_strength: int, dealer_strength: int) -> HandSettlement:
        """Settle against already evaluated hands (a round evaluates its two hands once for all players)."""
        return settle_hand(
            ante=self.ante,
            trips=self.trips,
            play=self.play,
            folded=self.folded,
            player_strength=player_strength,
            dealer_strength=dealer_strength,
        )


@dataclass(frozen=True)
class RoundState:
    """The whole round at one table, for any number of players (UTH-02), keyed by an integer the caller chooses
    (a seat id). Immutable: every operation returns a new state."""

    phase: Phase = Phase.BETTING
    slips: Mapping[int, BetSlip] = field(default_factory=dict)
    hands: Mapping[int, PlayerHand] = field(default_factory=dict)
    cards: RoundCards | None = None
    cancelled_in: Phase | None = None

    def _evolve(
        self,
        *,
        phase: Phase | None = None,
        slips: Mapping[int, BetSlip] | None = None,
        hands: Mapping[int, PlayerHand] | None = None,
        cards: RoundCards | None = None,
        cancelled_in: Phase | None = None,
    ) -> RoundState:
        # Explicit rather than dataclasses.replace, which inspects the fields on every call (hot in simulations).
        return RoundState(
            self.phase if phase is None else phase,
            self.slips if slips is None else slips,
            self.hands if hands is None else hands,
            self.cards if cards is None else cards,
            self.cancelled_in if cancelled_in is None else cancelled_in,
        )

    # --- betting ----------------------------------------------------------------------------------------------------

    def _require_betting(self) -> None:
        if self.phase is not Phase.BETTING:
            raise BetRejected("Betting is closed for this round; wait for the next round.")

    def slip(self, key: int) -> BetSlip:
        return self.slips.get(key, BetSlip())

    def _with_slip(self, key: int, slip: BetSlip) -> RoundState:
        slips = dict(self.slips)
        if slip.is_empty:
            slips.pop(key, None)
        else:
            slips[key] = slip
        return self._evolve(slips=slips)

    def place_chip(self, key: int, spot: BetSpot, chip: object, limits: BetLimits) -> tuple[RoundState, BetStep]:
        self._require_betting()
        slip, step = self.slip(key).with_chip(spot, chip, limits)
        return self._with_slip(key, slip), step

    def double(self, key: int, limits: BetLimits) -> tuple[RoundState, BetStep]:
        self._require_betting()
        slip, step = self.slip(key).with_double(limits)
        return self._with_slip(key, slip), step

    def repeat(self, key: int, previous: BetAmounts | None, limits: BetLimits) -> tuple[RoundState, BetStep]:
        self._require_betting()
        slip, step = self.slip(key).with_repeat(previous, limits)
        return self._with_slip(key, slip), step

    def undo(self, key: int) -> tuple[RoundState, BetStep]:
        self._require_betting()
        slip, step = self.slip(key).without_last()
        return self._with_slip(key, slip), step

    def void_bets(self, key: int) -> tuple[RoundState, int]:
        """UTH-27 / UTH-38: a player who leaves while betting time remains has their bets declined. Returns the new
        state and the stake to give back (0 when nothing was placed or betting has closed — then bets stay)."""
        if self.phase is not Phase.BETTING:
            return self, 0
        stake = self.slip(key).stake
        return self._with_slip(key, BetSlip()), stake

    def close_betting(self, deck: Sequence[Card]) -> RoundState:
        """Betting time has expired (UTH-07): every placed slip becomes a hand and the cards are dealt from ``deck``.

        Raises :class:`RoundError` outside the betting phase or when nobody has bet (the caller then keeps the
        betting window open instead of dealing to an empty table).
        """
        if self.phase is not Phase.BETTING:
            raise RoundError(f"betting is not open (phase {self.phase})")
        if not self.slips:
            raise RoundError("nobody has placed a bet")
        hands = {key: PlayerHand(ante=slip.ante, trips=slip.trips) for key, slip in self.slips.items()}
        return self._evolve(phase=Phase.PREFLOP, hands=hands, cards=RoundCards.from_deck(deck))

    # --- decisions --------------------------------------------------------------------------------------------------

    def hand(self, key: int) -> PlayerHand:
        try:
            return self.hands[key]
        except KeyError:
            raise IllegalDecision("You have no bets in this round.") from None

    def pending(self) -> tuple[int, ...]:
        """Keys of the players who still have to decide in the current phase."""
        return tuple(key for key, hand in self.hands.items() if hand.needs_decision(self.phase))

    def verify_decision(self, key: int, decision: Decision, available: int | None = None) -> None:
        self.hand(key).verify_decision(self.phase, decision, available)

    def decide(self, key: int, decision: Decision, available: int | None = None) -> RoundState:
        hand = self.hand(key).decide(self.phase, decision, available)
        return self._evolve(hands={**self.hands, key: hand})

    def advance(self) -> tuple[RoundState, dict[int, DecisionRecord]]:
        """End the current decision phase: decide for everyone still pending (AUTO CHECKED / AUTO FOLDED) and move to
        the next phase, revealing its cards. Returns the new state and the automatic decisions made."""
        if not self.phase.is_decision:
            raise RoundError(f"no decision phase to end (phase {self.phase})")
        automatic: dict[int, DecisionRecord] = {}
        hands = dict(self.hands)
        for key in self.pending():
            hands[key] = hands[key].time_out(self.phase)
            automatic[key] = hands[key].decisions[-1]
        return self._evolve(phase=_NEXT_PHASE[self.phase], hands=hands), automatic

    # --- the end ----------------------------------------------------------------------------------------------------

    def settlements(self) -> dict[int, HandSettlement]:
        """Every hand settled against the dealer; only once the round is SETTLED."""
        if self.phase is not Phase.SETTLED or self.cards is None:
            raise RoundError("the round is not settled yet")
        player, dealer = self.cards.player_strength, self.cards.dealer_strength
        return {key: hand.settle_strengths(player, dealer) for key, hand in self.hands.items()}

    def cancel(self) -> RoundState:
        """A malfunction voids the round (UTH-36, UTH-37, GEN-04); see :meth:`refunds`."""
        if self.phase.is_over:
            raise RoundError(f"a {self.phase} round cannot be cancelled")
        return self._evolve(phase=Phase.CANCELLED, cancelled_in=self.phase)

    def refunds(self) -> dict[int, int]:
        """What a cancelled round gives back: every stake placed in it — ANTE, BLIND, TRIPS and any PLAY (AMB-37)."""
        if self.phase is not Phase.CANCELLED:
            raise RoundError("only a cancelled round refunds its bets")
        if self.cancelled_in is Phase.BETTING:
            return {key: slip.stake for key, slip in self.slips.items()}
        return {key: hand.stake for key, hand in self.hands.items()}
