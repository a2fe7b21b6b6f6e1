"""The bots' decision policy: a random *legal* action chosen from the ``legal_actions`` the server sent.

Pure (no I/O): the input is the ``legal_actions`` dictionary of a ``your_turn`` message (the engine's
``LegalActions.to_dict()``), the output a ready ``act`` message body. Bet and raise amounts are drawn inside the
server's range, favouring small sizes so hands last a few streets.
"""

from __future__ import annotations

from dataclasses import dataclass, field
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


# --- Card-aware play: honest styles, chip dumping, soft play ---------------------------------------------------------

HONEST_STYLES: tuple[str, ...] = ("random", "tight", "loose")
"""Honest ways to play: ``random`` is :func:`choose_action` (the demo bots' play, blind to the cards); ``tight`` and
``loose`` weigh the bot's own cards against the price (:func:`honest_action`)."""

PLANS: tuple[str, ...] = ("honest", "dumper", "receiver", "colluder")
"""What a bot does besides its style: nothing (``honest``); lose chips to its partner when the two are heads-up after
the flop (``dumper``) or take them (``receiver``, the dumper's partner); soft-play its partner and squeeze third
players with it (``colluder``, both partners)."""

DUMPING_WAYS: tuple[str, ...] = ("calls_off", "shoves_weak", "folds_the_river")
"""How a dumper loses a hand to its partner (one per hand, by the hand's id): calls the partner's bets while behind
and folds the river when ahead; shoves when behind and folds to a bet when ahead; or pays the flop and turn and folds
the river whatever it holds."""


@dataclass(frozen=True)
class StyleTerms:
    """How a card-aware honest style plays: the strength (equity against one random hand) it needs to enter a pot
    before the flop, to bet, to raise, the margin over the price it wants to call, and how often it bluffs."""

    preflop_entry: float
    bet_at: float
    raise_at: float
    call_margin: float
    bluff: float


STYLE_TERMS: dict[str, StyleTerms] = {
    "tight": StyleTerms(preflop_entry=0.55, bet_at=0.64, raise_at=0.74, call_margin=0.12, bluff=0.04),
    "loose": StyleTerms(preflop_entry=0.44, bet_at=0.56, raise_at=0.66, call_margin=0.0, bluff=0.14),
}

STRENGTH_SAMPLES = 150
"""Deals behind one strength estimate (a standard error of about four points: enough to play by)."""


@dataclass
class HandView:
    """What a bot knows of the hand in play: public events and its own hole cards, plus its partner's cards when a
    :class:`Partnership` shares them in-process. Names come from the table's public seats (snapshot and seat events):
    partners find each other by name, with no help from the server."""

    seat: int | None = None
    hand_id: int | None = None
    big_blind: int = 0
    street: str = "preflop"
    board: tuple[str, ...] = ()
    hole_cards: tuple[str, ...] = ()
    partner_cards: tuple[str, ...] = ()
    dealt: tuple[int, ...] = ()
    folded: set[int] = field(default_factory=set)
    all_in: set[int] = field(default_factory=set)
    aggressor: int | None = None
    """The seat that made the street's last voluntary bet or raise (blinds are not voluntary); None: nobody yet."""
    pot: int = 0
    """Chips put in so far, this street's bets included."""
    names: dict[int, str] = field(default_factory=dict)
    """Seat -> the name shown at the table, for every occupied seat."""

    def live(self) -> tuple[int, ...]:
        """Seats still holding cards."""
        return tuple(seat for seat in self.dealt if seat not in self.folded)

    def seat_of(self, name: str | None) -> int | None:
        if name is None:
            return None
        return next((seat for seat, seated in self.names.items() if seated == name), None)

    def heads_up_with(self, seat: int | None) -> bool:
        """Whether ``seat`` is the only other player who can still bet: the two are alone in the hand, or everybody
        else still in is all-in (the betting between the two decides the side pot)."""
        live = self.live()
        if seat is None or self.seat is None or seat not in live or self.seat not in live:
            return False
        return not {other for other in live if other not in self.all_in} - {self.seat, seat}

    def apply_snapshot(self, snapshot: dict[str, Any]) -> None:
        """Start from a snapshot (on connecting, possibly in the middle of a hand)."""
        viewer = snapshot.get("viewer") or {}
        self.seat = viewer.get("seat")
        self.names = {
            int(seat["number"]): str(seat["name"])
            for seat in snapshot.get("seats", [])
            if seat.get("occupied") and seat.get("name")
        }
        hand = snapshot.get("hand") or {}
        table = snapshot.get("table") or {}
        self.big_blind = int(table.get("big_blind") or self.big_blind or 0)
        if not hand:
            return
        self.hand_id = hand.get("id")
        self.street = str(hand.get("street") or "preflop")
        self.board = tuple(hand.get("board") or ())
        self.hole_cards = tuple(viewer.get("hole_cards") or ())
        self.pot = int(hand.get("pot_total") or 0)
        seats = snapshot.get("seats", [])
        self.dealt = tuple(int(seat["number"]) for seat in seats if seat.get("in_hand") or seat.get("folded"))
        self.folded = {int(seat["number"]) for seat in seats if seat.get("folded")}
        self.aggressor = None  # not in the snapshot: a mid-hand reconnect plays the rest of the street as unopened

    def apply_event(self, event: dict[str, Any]) -> None:
        """Follow one table event."""
        kind = event.get("type")
        seat = event.get("seat")
        if "status" in event and isinstance(seat, int):
            if event["status"] == "empty" or not event.get("name"):
                self.names.pop(seat, None)
            else:
                self.names[seat] = str(event["name"])
        if kind == "hand_started":
            config = event.get("config") or {}
            self.hand_id = event.get("hand_id")
            self.big_blind = int(config.get("big_blind") or self.big_blind)
            self.dealt = tuple(int(player[0]) for player in config.get("players", []))
            self.street, self.board, self.hole_cards, self.partner_cards = "preflop", (), (), ()
            self.folded, self.all_in, self.aggressor, self.pot = set(), set(), None, 0
        elif kind == "forced_bet_posted":
            self.pot += int(event.get("amount") or 0)
        elif kind == "hole_cards_dealt" and seat == self.seat and event.get("cards"):
            self.hole_cards = tuple(event["cards"])
        elif kind == "street_dealt":
            self.street = str(event.get("street") or self.street)
            self.board = tuple(event.get("board") or self.board)
            self.aggressor = None
        elif kind == "action_taken" and isinstance(seat, int):
            self.pot += int(event.get("amount") or 0)
            resolved = event.get("resolved")
            if resolved == "fold":
                self.folded.add(seat)
            elif resolved in {"bet", "raise"}:
                self.aggressor = seat
            if event.get("all_in"):
                self.all_in.add(seat)
        elif kind == "uncalled_bet_returned":
            self.pot -= int(event.get("amount") or 0)


class Partnership:
    """Two partners in one process show each other their hole cards, hand by hand (what colluders on a voice call
    do). Only the last few hands are kept."""

    KEPT_HANDS = 8

    def __init__(self) -> None:
        self.cards: dict[int, dict[str, tuple[str, ...]]] = {}

    def share(self, hand_id: int, name: str, cards: tuple[str, ...]) -> None:
        self.cards.setdefault(hand_id, {})[name] = cards
        for old in sorted(self.cards)[: -self.KEPT_HANDS]:
            del self.cards[old]

    def cards_of(self, hand_id: int | None, name: str | None) -> tuple[str, ...]:
        if hand_id is None or name is None:
            return ()
        return self.cards.get(hand_id, {}).get(name, ())


@dataclass(frozen=True)
class BotPolicy:
    """A bot's way to play: an honest ``style`` (:data:`HONEST_STYLES`), a ``plan`` (:data:`PLANS`) and, for the
    planted plans, the ``partner``'s table name. ``BotPolicy()`` is the random play of :func:`choose_action`."""

    style: str = "random"
    plan: str = "honest"
    partner: str | None = None

    def __post_init__(self) -> None:
        if self.style not in HONEST_STYLES or self.plan not in PLANS:
            raise ValueError(f"unknown style {self.style!r} or plan {self.plan!r}")
        if (self.plan == "honest") != (self.partner is None):
            raise ValueError("a planted plan needs a partner, an honest one has none")

    def decide(self, legal: dict[str, Any], view: HandView, rng: Random) -> dict[str, Any]:
        """The ``act`` message for this turn."""
        partner_seat = view.seat_of(self.partner)
        if partner_seat is None or partner_seat not in view.live() or partner_seat == view.seat:
            return honest_action(self.style, legal, view, rng)
        if self.plan in {"dumper", "receiver"}:
            planted = dumping_action(self.plan, legal, view, rng, partner_seat)
            if planted is not None:
                return planted
        if self.plan == "colluder":
            planted = soft_play_action(self.style, legal, view, rng, partner_seat)
            if planted is not None:
                return planted
        return honest_action(self.style, legal, view, rng)


def holding_strength(view: HandView, rng: Random) -> float:
    """The bot's equity against one random hand on the board so far (0.5 when it does not know its cards)."""
    from games.engine.cards import Card
    from games.engine.config import Variant
    from games.engine.equity import EquityInputError, equity_against_random_hands

    if len(view.hole_cards) != 2:
        return 0.5
    try:
        hole = [Card.from_text(card) for card in view.hole_cards]
        board = [Card.from_text(card) for card in view.board]
        result = equity_against_random_hands(
            Variant.NO_LIMIT_HOLDEM, hole, board, samples=STRENGTH_SAMPLES, seed=rng.getrandbits(32)
        )
    except (EquityInputError, ValueError):
        return 0.5
    return float(result.equity)


def equity_against_partner(view: HandView) -> float | None:
    """The bot's all-in equity against its partner's cards on the board so far; None without the partner's cards."""
    from games.engine.cards import Card
    from games.engine.config import Variant
    from games.engine.equity import EquityInputError, all_in_equity

    if len(view.hole_cards) != 2 or len(view.partner_cards) != 2:
        return None
    try:
        holes = [[Card.from_text(card) for card in cards] for cards in (view.hole_cards, view.partner_cards)]
        board = [Card.from_text(card) for card in view.board]
        result = all_in_equity(Variant.NO_LIMIT_HOLDEM, holes, board, samples=300, exact_limit=1_000)
    except (EquityInputError, ValueError):
        return None
    return float(result.players[0].equity)


def _act(action: str, amount: int | None = None) -> dict[str, Any]:
    message: dict[str, Any] = {"type": "act", "action": action}
    if amount is not None:
        message["amount"] = amount
    return message


def _passive(kinds: set[str]) -> dict[str, Any]:
    """Check when free, else fold."""
    return _act("check") if "check" in kinds else _act("fold")


def _call(kinds: set[str]) -> dict[str, Any]:
    """Call (all-in when a call is not offered: the price is the whole stack); check when nothing is owed."""
    if "check" in kinds:
        return _act("check")
    if "call" in kinds:
        return _act("call")
    if "all_in" in kinds:
        return _act("all_in")
    return _act("fold")


def _sized(legal: dict[str, Any], pot_share: float, view: HandView) -> dict[str, Any] | None:
    """A bet (or raise, facing a bet) of about ``pot_share`` of the pot, within the server's range; None if neither
    is offered."""
    kinds = set(legal.get("kinds") or ())
    for kind, action, bounds in (("bet", "bet", "bet_range"), ("raise_to", "raise", "raise_range")):
        if kind in kinds and legal.get(bounds):
            low, high = int(legal[bounds][0]), int(legal[bounds][1])
            share = int(pot_share * max(view.pot, view.big_blind))
            # A bet's amount is its size; a raise's is the total it raises to: the minimum raise plus the share.
            wanted = max(low, share) if kind == "bet" else low + share
            return _act(action, max(low, min(high, wanted)))
    return None


def _facing(legal: dict[str, Any]) -> int:
    kinds = set(legal.get("kinds") or ())
    if "check" in kinds:
        return 0
    return int(legal.get("call_amount") or legal.get("all_in_amount") or 0)


def honest_action(style: str, legal: dict[str, Any], view: HandView, rng: Random) -> dict[str, Any]:
    """An honest decision: :func:`choose_action` for ``random``; for ``tight`` and ``loose``, by the holding's strength
    against the price (:data:`STYLE_TERMS`)."""
    if style == "random" or style not in STYLE_TERMS:
        return choose_action(legal, rng)
    terms = STYLE_TERMS[style]
    kinds = set(legal.get("kinds") or ())
    strength = holding_strength(view, rng)
    to_call = _facing(legal)
    if view.street == "preflop" and strength < terms.preflop_entry:
        return _passive(kinds)
    if to_call:
        price = to_call / max(1, view.pot + to_call)
        if strength >= terms.raise_at and rng.random() < 0.5:
            raised = _sized(legal, rng.uniform(0.6, 1.0), view)
            if raised is not None:
                return raised
        if strength >= price + terms.call_margin:
            return _call(kinds)
        return _passive(kinds)
    if strength >= terms.bet_at or rng.random() < terms.bluff:
        sized = _sized(legal, rng.uniform(0.4, 0.8), view)
        if sized is not None:
            return sized
    return _passive(kinds)


def dumping_action(
    plan: str, legal: dict[str, Any], view: HandView, rng: Random, partner_seat: int
) -> dict[str, Any] | None:
    """A planted dumper's or receiver's decision while its partner is in the hand; None: play the honest style.

    Before the flop both stay in cheaply (the dumper calls up to 8 big blinds, the receiver raises an unopened pot to
    isolate the two and calls up to 8). Heads-up with the partner after the flop, the receiver bets most of the pot
    and calls whatever the dumper puts in; the dumper loses in one of :data:`DUMPING_WAYS`, chosen by the hand's id,
    and when ahead never makes a call that puts the last chips in (the showdown would pay the dumper).
    Multi-way after the flop: honest play."""
    kinds = set(legal.get("kinds") or ())
    to_call = _facing(legal)
    big_blind = max(1, view.big_blind)
    if view.street == "preflop":
        if plan == "receiver" and to_call <= big_blind and rng.random() < 0.8:
            raised = _sized(legal, 0.8, view)
            if raised is not None:
                return raised
        if to_call <= 8 * big_blind:
            return _call(kinds)
        return None
    if not view.heads_up_with(partner_seat):
        return None
    if plan == "receiver":
        if to_call:
            return _call(kinds)
        if "all_in" in kinds and rng.random() < 0.15:
            return _act("all_in")
        return _sized(legal, rng.uniform(0.7, 1.1), view) or _passive(kinds)
    way = DUMPING_WAYS[(view.hand_id or 0) % len(DUMPING_WAYS)]
    equity = equity_against_partner(view)
    behind = (equity < 0.5) if equity is not None else holding_strength(view, rng) < 0.5
    # A call that puts the dumper's (or the partner's) last chips in decides the pot at showdown: ahead, that would
    # win the partner's chips, so the dumper folds instead.
    final = bool(to_call) and (
        to_call >= int(legal.get("all_in_amount") or to_call + 1) or "call" not in kinds or partner_seat in view.all_in
    )
    if not behind and final:
        return _act("fold")
    if way == "folds_the_river":
        if not to_call:
            return _act("check") if "check" in kinds else _call(kinds)
        return _act("fold") if view.street == "river" else _call(kinds)
    if way == "shoves_weak":
        if behind:
            return _act("all_in") if "all_in" in kinds else _call(kinds)
        return _passive(kinds)
    # calls_off
    if not to_call:
        return _act("check") if "check" in kinds else _call(kinds)
    if behind or view.street != "river":
        return _call(kinds)
    return _act("fold")


def soft_play_action(
    style: str, legal: dict[str, Any], view: HandView, rng: Random, partner_seat: int
) -> dict[str, Any] | None:
    """A planted colluder's decision while its partner is in the hand; None: play the honest style.

    Never bets or raises into the partner: heads-up with the partner it checks when it can and folds to the partner's
    bet; facing the partner's bet with others in it calls or folds as its style would, never raises. When a third
    player bets and the partner is still in, the stronger of the two (by the cards they share) raises to squeeze the
    third player and the weaker folds to leave the pot to its partner. Unopened multi-way pots: only the stronger of
    the two bets (the weaker checks along). Before the flop it calls up to 4 big blinds to see the flop with the partner
    unless a third player raised."""
    kinds = set(legal.get("kinds") or ())
    to_call = _facing(legal)
    equity = equity_against_partner(view)
    stronger = equity is None or equity >= 0.5
    if view.street == "preflop" and view.aggressor in {None, partner_seat} and to_call <= 4 * max(1, view.big_blind):
        return _call(kinds)  # see the flop together while it is cheap: a team plays more pots together
    if view.heads_up_with(partner_seat) and view.aggressor in {None, partner_seat}:
        if not to_call:
            return _act("check") if "check" in kinds else _call(kinds)
        return _act("fold")
    if view.aggressor == partner_seat:
        honest = honest_action(style, legal, view, rng)
        if honest.get("action") in {"raise", "all_in", "bet"}:
            return _call(kinds)
        return honest
    if to_call and view.aggressor is not None:
        if stronger and holding_strength(view, rng) >= 0.45 and rng.random() < 0.7:
            squeeze = _sized(legal, rng.uniform(0.8, 1.2), view)
            if squeeze is not None:
                return squeeze
        if not stronger:
            return _passive(kinds)
        return None
    if not to_call and not stronger:
        return _passive(kinds)
    return None


@dataclass(frozen=True)
class PlantedPair:
    """Two bots planted together: ``kind`` ``"dumping"`` (``first`` dumps to ``second``) or ``"colluding"``."""

    kind: str
    first: str
    second: str


def plant_pairs(
    tables: list[list[str]], *, colluding_pairs: int, dumping_pairs: int, styles: tuple[str, ...] = HONEST_STYLES
) -> tuple[dict[str, BotPolicy], list[PlantedPair]]:
    """Policies for bots seated by table (``tables``: each table's bot names): the pairs are planted two neighbours
    at a time, table after table in turn (partners must share a table to play each other), the colluding pairs
    first; every other bot plays an honest style from ``styles`` in turn. Planted bots play ``loose`` or ``tight``
    when their partner is not in the hand. Raises ValueError when the tables have too few seats for the pairs."""
    if colluding_pairs < 0 or dumping_pairs < 0 or not styles or any(style not in HONEST_STYLES for style in styles):
        raise ValueError("pairs must be counted from 0 and styles named from HONEST_STYLES")
    free = [list(names) for names in tables]
    policies: dict[str, BotPolicy] = {}
    pairs: list[PlantedPair] = []
    kinds = ["colluding"] * colluding_pairs + ["dumping"] * dumping_pairs
    for number, kind in enumerate(kinds):
        table = (
            next(
                (
                    free[(number + offset) % len(free)]
                    for offset in range(len(free))
                    if len(free[(number + offset) % len(free)]) >= 2
                ),
                None,
            )
            if free
            else None
        )
        if table is None:
            raise ValueError(f"no table has two seats left for planted pair {number + 1} of {len(kinds)}")
        first, second = table.pop(0), table.pop(0)
        style = ("loose", "tight")[number % 2]
        if kind == "colluding":
            policies[first] = BotPolicy(style=style, plan="colluder", partner=second)
            policies[second] = BotPolicy(style=style, plan="colluder", partner=first)
        else:
            policies[first] = BotPolicy(style=style, plan="dumper", partner=second)
            policies[second] = BotPolicy(style=("tight", "loose")[number % 2], plan="receiver", partner=first)
        pairs.append(PlantedPair(kind, first, second))
    honest = [name for names in free for name in names]
    for index, name in enumerate(honest):
        policies[name] = BotPolicy(style=styles[index % len(styles)])
    return policies, pairs
