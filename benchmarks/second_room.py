"""A second simulated room for the fraud-detection benchmark, independent of benchmarks/detection_simulation.py.

``bench_detection.py --generator second`` plays it. It shares nothing with the first room but the engine: another
play model, other styles, other stakes and stacks, other seating, and planted behaviours of its own. It was written
from the behaviours an analyst describes (issue 31), not from the indicators.

**Play model: hand classes, not equities.** Preflop a player reads their cards by the Chen formula (a points count
from the high card, pairs, suitedness and the gap); after the flop by the class of what they made — nothing, a draw
or a weak pair, top pair or an overpair, two pair or a set, a straight or better — from the engine's evaluator. No
equity, no simulation of opposing hands.

**Stakes and stacks.** Blinds 25/50; players buy in for 40 to 150 big blinds (each player has a usual buy-in) and buy
in again when below 20 big blinds.

**Styles** (four, 22 honest players each, every player's numbers jittered): *nit* (plays few hands, bets made hands,
rarely bluffs), *regular* (opens a fair range, bets top pair and better, continuation-bets), *station* (limps and calls
with anything paired or drawing, seldom raises), *maniac* (opens wide, raises and bluffs a lot, bets big). Eight of
the honest players are four pairs of friends who sit together most of the time and play each other as anyone else.

**Seating.** 120 players at 20 six-max tables, re-seated every session of 40 hands; planted pairs ask to sit together
(colluders 70 % of sessions, two of them only 25 %; dumpers 60 %), friends 70 %.

**Planted colluders** (8 pairs) see each other's cards. Heads-up against each other they check and call (they bet or
raise against each other only a small fraction — 0 to 30 % — of what they would against anyone else, and never
bluff). With a third player in, the partner holding the weaker hand gets out of the way when the third player bets,
and the stronger one raises a third player's bet when the partner has called (a squeeze).

**Planted dumpers** (8 pairs, a dumper and a receiver) transfer about 60 to 200 big blinds in each session they sit
together. The dumper calls into the receiver's pots preflop with any two cards; heads-up after the flop the receiver
bets the pot and the dumper either *calls off* (when the receiver's hand is ahead, which they know: calls every bet
and the receiver's all-in) or *folds on the river* (calls the flop and turn, then folds to the river bet whatever it
holds — often the best hand). Four dumpers use each method.
"""

from __future__ import annotations

import random
import time as clock
from collections.abc import Iterator
from dataclasses import dataclass, field

from compliance.detection.records import HandRecord, record_from_state
from games.engine.actions import Action, AllIn, Bet, Call, Check, Fold, LegalActions, RaiseTo
from games.engine.cards import Card
from games.engine.config import HandConfig, Variant
from games.engine.evaluation import holdem_strength, strength_category
from games.engine.events import ActionTaken, StreetDealt
from games.engine.state import HandState

SMALL_BLIND = 25
BIG_BLIND = 50
TABLE_SIZE = 6
SESSION_HANDS = 40
REBUY_BELOW = 20 * BIG_BLIND
EPOCH = 1_769_904_000.0  # 2026-02-01 00:00 UTC
SECONDS_PER_HAND = 45.0
SESSION_GAP = 3 * 3600.0  # a session of 30 minutes every three hours

# ----------------------------------------------------------------------------------------------------------------------
# Reading the cards


def chen_points(cards: tuple[Card, ...]) -> float:
    """The Chen formula: the high card's points (A 10, K 8, Q 7, J 6, else half the rank), doubled for a pair
    (at least 5), +2 suited, minus the gap (0, 1, 2, 4, 5), +1 for connectors below a queen."""
    first, second = cards
    high, low = max(first.rank, second.rank), min(first.rank, second.rank)
    points = {14: 10.0, 13: 8.0, 12: 7.0, 11: 6.0}.get(high, high / 2.0)
    if high == low:
        return max(5.0, points * 2.0)
    if first.suit == second.suit:
        points += 2.0
    gap = high - low - 1
    points -= (0.0, 1.0, 2.0, 4.0)[gap] if gap < 4 else 5.0
    if gap <= 1 and high < 12:
        points += 1.0
    return points


NOTHING, DRAW_OR_WEAK, TOP_PAIR, TWO_PAIR_OR_SET, MONSTER = range(5)


def made_class(hole: tuple[Card, ...], board: tuple[Card, ...]) -> int:
    """What the hole cards made on the board (the classes above)."""
    category = int(strength_category(holdem_strength(hole + board)))
    board_category = int(strength_category(holdem_strength(board))) if len(board) >= 5 else 1
    if category >= 5 and category > board_category:
        return MONSTER
    if category >= 3 and category > board_category:
        return TWO_PAIR_OR_SET
    top = max(card.rank for card in board)
    ranks = [card.rank for card in board]
    for card in hole:
        if card.rank in ranks and card.rank == top:
            return TOP_PAIR
    if hole[0].rank == hole[1].rank and hole[0].rank > top:
        return TOP_PAIR
    if any(card.rank in ranks for card in hole) or hole[0].rank == hole[1].rank:
        return DRAW_OR_WEAK
    if len(board) < 5:
        suits = [card.suit for card in hole + board]
        if any(suits.count(card.suit) >= 4 for card in hole):
            return DRAW_OR_WEAK
        distinct = sorted({card.rank for card in hole + board})
        for start in distinct:
            if all(start + step in distinct for step in range(4)) and any(
                start <= card.rank <= start + 3 for card in hole
            ):
                return DRAW_OR_WEAK
    return NOTHING


def showdown_value(hole: tuple[Card, ...], board: tuple[Card, ...]) -> int:
    return holdem_strength(hole + board) if len(board) >= 3 else int(chen_points(hole) * 100)


# ----------------------------------------------------------------------------------------------------------------------
# Players


@dataclass(frozen=True)
class Style:
    name: str
    open_points: float
    call_raise_points: float
    reraise_points: float
    bet_class: int
    bet_frequency: float
    bluff: float
    call_small_class: int
    call_big_class: int
    size: float
    limper: bool = False


STYLES = (
    Style("nit", 9.0, 10.0, 12.0, TOP_PAIR, 0.7, 0.04, DRAW_OR_WEAK, TWO_PAIR_OR_SET, 0.6),
    Style("regular", 7.0, 8.0, 10.5, TOP_PAIR, 0.8, 0.2, DRAW_OR_WEAK, TOP_PAIR, 0.66),
    Style("station", 4.0, 5.0, 14.0, TWO_PAIR_OR_SET, 0.45, 0.02, NOTHING, DRAW_OR_WEAK, 0.5, limper=True),
    Style("maniac", 4.5, 5.0, 8.0, DRAW_OR_WEAK, 0.8, 0.45, DRAW_OR_WEAK, TOP_PAIR, 1.0),
)


def jittered(style: Style, rng: random.Random) -> Style:
    def vary(value: float, low: float = 0.85, high: float = 1.15) -> float:
        return value * rng.uniform(low, high)

    return Style(
        style.name,
        vary(style.open_points),
        vary(style.call_raise_points),
        vary(style.reraise_points),
        style.bet_class,
        min(0.95, vary(style.bet_frequency)),
        min(0.9, vary(style.bluff, 0.6, 1.4)),
        style.call_small_class,
        style.call_big_class,
        vary(style.size),
        style.limper,
    )


@dataclass
class Player:
    name: str
    style: Style
    buy_in: int
    role: str = "honest"  # honest, friend, colluder, dumper, receiver
    partner: str | None = None
    together: float = 0.0
    soft: float = 1.0
    method: str = ""
    budget: float = 0.0  # big blinds the dumper still means to transfer this session


@dataclass
class Population:
    players: dict[str, Player]
    colluding_pairs: list[tuple[str, str]]
    dumping_pairs: list[tuple[str, str]]
    friend_pairs: list[tuple[str, str]]

    @property
    def honest(self) -> set[str]:
        return {name for name, player in self.players.items() if player.role in ("honest", "friend")}


def build_population(rng: random.Random) -> Population:
    players: dict[str, Player] = {}
    numbers = list(range(100, 1000))
    rng.shuffle(numbers)
    counter = iter(numbers)

    def new(role: str, style: Style | None = None) -> Player:
        chosen = jittered(style or rng.choice(STYLES), rng)
        name = f"player-{next(counter)}"  # names say nothing about styles or roles
        player = Player(name, chosen, rng.randint(40, 150) * BIG_BLIND, role)
        players[name] = player
        return player

    for style in STYLES:
        for _ in range(20):
            new("honest", style)
    friend_pairs = []
    for index in range(4):
        first, second = new("friend", STYLES[index]), new("friend", STYLES[(index + 1) % 4])
        for one, other in ((first, second), (second, first)):
            one.partner, one.together = other.name, 0.7
        friend_pairs.append((first.name, second.name))
    colluding_pairs = []
    for index in range(8):
        first, second = new("colluder"), new("colluder")
        together = 0.25 if index < 2 else 0.7
        for one, other in ((first, second), (second, first)):
            one.partner, one.together, one.soft = other.name, together, rng.uniform(0.0, 0.3)
        colluding_pairs.append((first.name, second.name))
    dumping_pairs = []
    for index in range(8):
        dumper, receiver = new("dumper"), new("receiver")
        dumper.partner, receiver.partner = receiver.name, dumper.name
        dumper.together = receiver.together = 0.6
        dumper.method = "call_off" if index % 2 == 0 else "river_fold"
        dumping_pairs.append((dumper.name, receiver.name))
    return Population(players, colluding_pairs, dumping_pairs, friend_pairs)


# ----------------------------------------------------------------------------------------------------------------------
# A hand


@dataclass
class Tracker:
    """The street, the raises on it, the last voluntary aggressor, who called a bet on it."""

    street: str = "preflop"
    raises: int = 0
    aggressor: int | None = None
    callers: set[int] = field(default_factory=set)
    seen: int = 0

    def update(self, state: HandState) -> None:
        events = state.events
        for event in events[self.seen :]:
            if isinstance(event, StreetDealt):
                self.street, self.raises, self.aggressor, self.callers = event.street, 0, None, set()
            elif isinstance(event, ActionTaken):
                if event.resolved in ("bet", "raise"):
                    self.raises += 1
                    self.aggressor = event.seat
                    self.callers = set()
                elif event.resolved == "call":
                    self.callers.add(event.seat)
        self.seen = len(events)


def sized(legal: LegalActions, target: int) -> Action:
    """A bet or raise to about ``target`` chips (clamped to the legal range); all-in when that is most of the stack."""
    seat = legal.seat
    bounds = legal.bet_range or legal.raise_range
    if bounds is None:
        return Call(seat) if legal.call_amount is not None else Check(seat)
    low, high = bounds
    amount = min(max(int(target), low), high)
    if legal.all_in_amount is not None and amount >= 0.7 * high:
        return AllIn(seat)
    return Bet(seat, amount) if legal.bet_range is not None else RaiseTo(seat, amount)


def passive(legal: LegalActions, call: bool) -> Action:
    if legal.call_amount is None:
        return Check(legal.seat)
    return Call(legal.seat) if call else Fold(legal.seat)


def honest(state: HandState, legal: LegalActions, tracker: Tracker, player: Player, rng: random.Random) -> Action:
    style = player.style
    seat = legal.seat
    hole = state.hole_cards(seat)
    current = max(state.bets.values())
    pot = state.pot_total
    if tracker.street == "preflop":
        points = chen_points(hole) + rng.uniform(-1.0, 1.0)
        if tracker.raises == 0:
            if points >= style.open_points:
                if style.limper and points < style.reraise_points:
                    return passive(legal, True)
                return sized(legal, 3 * BIG_BLIND + len(tracker.callers) * BIG_BLIND)
            return passive(legal, False)
        if points >= style.reraise_points + 2.0 * (tracker.raises - 1):
            return sized(legal, 3 * current)
        if points >= style.call_raise_points + 1.5 * (tracker.raises - 1):
            return passive(legal, True)
        return passive(legal, False)
    made = made_class(hole, state.board)
    if legal.call_amount is None:
        if made >= style.bet_class and rng.random() < style.bet_frequency:
            return sized(legal, pot * style.size * rng.uniform(0.8, 1.2))
        if made <= DRAW_OR_WEAK and rng.random() < style.bluff:
            return sized(legal, pot * style.size)
        return Check(seat)
    share = legal.call_amount / max(1, pot)
    if made >= TWO_PAIR_OR_SET and rng.random() < style.bet_frequency * 0.6:
        return sized(legal, 3 * current)
    needed = style.call_small_class if share <= 0.4 else style.call_big_class
    if made >= needed:
        return Call(seat)
    if made == NOTHING and rng.random() < style.bluff * 0.15:
        return sized(legal, 3 * current)
    return Fold(seat)


def seat_of(players: dict[int, Player], name: str | None) -> int | None:
    for seat, player in players.items():
        if player.name == name:
            return seat
    return None


def colluder(
    state: HandState, legal: LegalActions, tracker: Tracker, players: dict[int, Player], rng: random.Random
) -> Action | None:
    seat = legal.seat
    player = players[seat]
    partner = seat_of(players, player.partner)
    live = state.live_seats
    if partner is None or partner not in live:
        return None
    board = state.board
    mine = showdown_value(state.hole_cards(seat), board)
    theirs = showdown_value(state.hole_cards(partner), board)
    others = [other for other in live if other not in (seat, partner)]
    if not others:
        # Heads-up against the partner: check and call, aggression only at a fraction of the usual.
        action = honest(state, legal, tracker, player, rng)
        if isinstance(action, Bet | RaiseTo | AllIn) and rng.random() >= player.soft:
            return Call(seat) if legal.call_amount is not None else Check(seat)
        if isinstance(action, Fold) and legal.call_amount is not None and legal.call_amount <= 4 * BIG_BLIND:
            return Call(seat)
        return action
    if tracker.aggressor in others and mine < theirs:
        return Fold(seat) if legal.call_amount is not None else Check(seat)
    if tracker.aggressor in others and partner in tracker.callers and mine > theirs and rng.random() < 0.6:
        return sized(legal, 3.5 * max(state.bets.values()))
    return None


def dumper(state: HandState, legal: LegalActions, tracker: Tracker, players: dict[int, Player]) -> Action | None:
    seat = legal.seat
    player = players[seat]
    partner = seat_of(players, player.partner)
    if partner is None or player.budget <= 0 or partner not in state.live_seats:
        return None
    live = state.live_seats
    if tracker.street == "preflop":
        if partner in tracker.callers or tracker.aggressor == partner:
            call = legal.call_amount
            if call is not None and call <= 6 * BIG_BLIND:
                return Call(seat)
        return None
    if len(live) != 2:
        return None
    if legal.call_amount is None:
        return Check(seat)
    board = state.board
    behind = showdown_value(state.hole_cards(seat), board) < showdown_value(state.hole_cards(partner), board)
    if player.method == "call_off":
        return Call(seat) if behind else Fold(seat)
    if tracker.street == "river":
        return Fold(seat)
    return Call(seat)


def receiver(state: HandState, legal: LegalActions, tracker: Tracker, players: dict[int, Player]) -> Action | None:
    seat = legal.seat
    player = players[seat]
    partner = seat_of(players, player.partner)
    if partner is None or partner not in state.live_seats or players[partner].budget <= 0:
        return None
    if tracker.street == "preflop" or len(state.live_seats) != 2:
        return None
    if legal.call_amount is not None:
        return Call(seat)
    dumper_player = players[partner]
    if dumper_player.method == "call_off" and tracker.street != "flop":
        return sized(legal, 10**9)
    return sized(legal, state.pot_total)


def choose(state: HandState, legal: LegalActions, tracker: Tracker, players: dict[int, Player], rng: random.Random):
    player = players[legal.seat]
    special: Action | None = None
    if player.role == "colluder":
        special = colluder(state, legal, tracker, players, rng)
    elif player.role == "dumper":
        special = dumper(state, legal, tracker, players)
    elif player.role == "receiver":
        special = receiver(state, legal, tracker, players)
    return special if special is not None else honest(state, legal, tracker, player, rng)


# ----------------------------------------------------------------------------------------------------------------------
# The room


class SecondRoom:
    """20 tables of six, re-seated every session of :data:`SESSION_HANDS` hands."""

    def __init__(self, population: Population, rng: random.Random) -> None:
        self.population = population
        self.rng = rng
        self.stacks: dict[str, int] = {name: player.buy_in for name, player in population.players.items()}
        self.hands_played = 0
        self.simulation_seconds = 0.0
        self.dumps_done: list[tuple[str, str, str]] = []
        self.session = 0

    def seating(self) -> list[list[Player]]:
        rng = self.rng
        players = self.population.players
        groups: list[list[Player]] = []
        placed: set[str] = set()
        for name in sorted(players):
            player = players[name]
            if name in placed:
                continue
            placed.add(name)
            partner = players.get(player.partner or "")
            if partner is not None and partner.name not in placed and rng.random() < player.together:
                placed.add(partner.name)
                groups.append([player, partner])
            else:
                groups.append([player])
        rng.shuffle(groups)
        tables: list[list[Player]] = []
        current: list[Player] = []
        singles = [group for group in groups if len(group) == 1]
        doubles = [group for group in groups if len(group) == 2]
        for group in doubles + singles:
            if len(current) + len(group) > TABLE_SIZE:
                tables.append(current)
                current = []
            current.extend(group)
        if len(current) >= 2:
            tables.append(current)
        return tables

    def sessions(self, hands_wanted: int) -> Iterator[list[HandRecord]]:
        while self.hands_played < hands_wanted:
            self.session += 1
            records: list[HandRecord] = []
            for number, seated in enumerate(self.seating()):
                if self.hands_played >= hands_wanted:
                    break
                records.extend(self.play_table(seated, f"table:{number + 1}", hands_wanted))
            yield records

    def play_table(self, seated: list[Player], place: str, hands_wanted: int) -> list[HandRecord]:
        rng = self.rng
        names = {player.name for player in seated}
        for player in seated:
            player.budget = rng.uniform(60, 200) if player.role == "dumper" and player.partner in names else 0.0
        seats = {index + 1: player for index, player in enumerate(seated)}
        count = len(seats)
        button = rng.randint(1, count)
        start = EPOCH + self.session * SESSION_GAP
        records = []
        for number in range(SESSION_HANDS):
            if self.hands_played >= hands_wanted:
                break
            began = clock.perf_counter()
            for player in seated:
                if self.stacks[player.name] < REBUY_BELOW:
                    self.stacks[player.name] = player.buy_in
            button = button % count + 1
            small, big = (button, button % count + 1) if count == 2 else (button % count + 1, (button + 1) % count + 1)
            config = HandConfig.create(
                variant=Variant.NO_LIMIT_HOLDEM,
                stacks={seat: self.stacks[player.name] for seat, player in seats.items()},
                button=button,
                small_blind_seat=small,
                big_blind_seat=big,
                small_blind=SMALL_BLIND,
                big_blind=BIG_BLIND,
                table_size=TABLE_SIZE,
            )
            state = HandState.create(config, shuffler=rng)
            tracker = Tracker()
            while (legal := state.legal_actions()) is not None:
                tracker.update(state)
                state.apply(choose(state, legal, tracker, seats, rng))
            hand_id = f"second:{self.session}:{place}#{number + 1}"
            for seat, player in seats.items():
                self.stacks[player.name] = state.stacks[seat]
            net = state.result.net
            for seat, player in seats.items():
                if player.role == "dumper" and player.budget > 0 and net.get(seat, 0) < 0:
                    partner = seat_of(seats, player.partner)
                    if partner is not None and net.get(partner, 0) > 0 and partner in state.live_seats:
                        player.budget += net[seat] / BIG_BLIND
                        self.dumps_done.append((player.name, players_name(seats, partner), hand_id))
            self.hands_played += 1
            self.simulation_seconds += clock.perf_counter() - began
            records.append(
                record_from_state(
                    state,
                    hand_id=hand_id,
                    players={seat: player.name for seat, player in seats.items()},
                    table_id=place,
                    started_at=start + number * SECONDS_PER_HAND,
                )
            )
        return records


def players_name(seats: dict[int, Player], seat: int) -> str:
    return seats[seat].name


__all__ = ["Population", "SecondRoom", "build_population", "chen_points", "made_class"]
