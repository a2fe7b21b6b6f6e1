"""The simulated poker room of the fraud-detection benchmark (benchmarks/bench_detection.py).

Players of four honest styles (tight/loose x aggressive/passive) play No-Limit Hold'em 6-max (blinds 5/10, 100 big
blinds, topped up to 100 BB below 50 BB) with the engine, table by table, in rounds of ``hands_per_round`` hands. Each
player decides from what a player can know: a preflop hand ranking (equity of each of the 169 starting hands against a
random hand, computed at start) and, after the flop, the share of random opposing hands they beat on the board so far.

Planted cases (each with a documented profile; see docs/benchmarks.md "bench_detection.py"):

* **colluding pairs** always sit together, see each other's hole cards (the one behind gets out of the way when a
  third player is in; the one ahead gets raised for when a third player bets) and soft-play each other: against the
  partner they bet and raise with a small fraction (0 to 25 %) of their usual aggression and never bluff;
* **chip dumpers** sit with their partner and transfer chips once in every session they play: seven in ten wait
  until they are heads-up with the partner holding a weak hand far behind the partner's (whose cards they know) and
  then shove or call the partner's shove; three in ten raise a third of their stack preflop and fold to the partner's
  all-in re-raise;
* **bots** play a sound tight-aggressive game with machine timing: a near-fixed delay, a very fast reaction, a jittered
  uniform delay, or human-looking times over marathon sessions.

Honest look-alikes keep the test fair: **friend pairs** who always sit together but play honestly, **households** who
share an IP address (and sometimes meet at a table by chance), players behind shared carrier addresses, fast players,
and occasional long sessions.

Timing: honest players' decision times are log-normal around a personal median (1.2 to 8 s) with a personal spread,
longer when facing a bet and for big pots, shorter for preflop folds. Sessions last one to three rounds (about two
hours each), rarely four, then a rest of one to six rounds.

Connections: every player logs in to each table at the start of the round (and reconnects once in a while) from their
address and device. Counter records (ratholing returns, Banzai Resets) are generated over a 30-day calendar for
everyone at low daily rates, and at the daily limit on most days for the planted counter abusers.
"""

from __future__ import annotations

import math
import random
import time as clock
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import combinations

from compliance.detection.records import ConnectionRecord, CounterRecord, HandRecord, record_from_state
from games.engine.actions import Action, AllIn, Bet, Call, Check, Fold, LegalActions, RaiseTo
from games.engine.cards import FULL_DECK, Card
from games.engine.config import HandConfig, Variant
from games.engine.equity import all_in_equity
from games.engine.evaluation import holdem_strength
from games.engine.events import ActionTaken, StreetDealt
from games.engine.state import HandState

SMALL_BLIND = 5
BIG_BLIND = 10
START_STACK = 100 * BIG_BLIND
TOP_UP_BELOW = 50 * BIG_BLIND
TABLE_SIZE = 6
EPOCH = 1_767_225_600.0  # 2026-01-01 00:00 UTC
DAY = 86_400.0

# ----------------------------------------------------------------------------------------------------------------------
# Hand strength as a player sees it


def preflop_percentiles(rng: random.Random, samples: int = 400) -> dict[tuple[int, int, bool], float]:
    """(high rank, low rank, suited) -> share of starting hands (by combinations) this hand is at least as good as,
    ranked by equity against one random hand (Monte-Carlo, ``samples`` per class)."""
    equities: dict[tuple[int, int, bool], float] = {}
    for high in range(2, 15):
        for low in range(2, high + 1):
            for suited in (True, False) if high != low else (False,):
                first = Card(high, "s")
                second = Card(low, "s" if suited else "h")
                deck = [card for card in FULL_DECK if card not in (first, second)]
                score = 0.0
                for _ in range(samples):
                    drawn = rng.sample(deck, 7)
                    mine = holdem_strength((first, second, *drawn[2:]))
                    theirs = holdem_strength(drawn)
                    score += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
                equities[(high, low, suited)] = score / samples
    weights = {key: 6 if key[0] == key[1] else 4 if key[2] else 12 for key in equities}
    ordered = sorted(equities, key=equities.__getitem__)
    total = sum(weights.values())
    percentiles: dict[tuple[int, int, bool], float] = {}
    running = 0
    for key in ordered:
        running += weights[key]
        percentiles[key] = running / total
    return percentiles


def starting_hand_key(cards: tuple[Card, ...]) -> tuple[int, int, bool]:
    first, second = cards
    high, low = max(first.rank, second.rank), min(first.rank, second.rank)
    return high, low, first.suit == second.suit and high != low


def board_strength(hole: tuple[Card, ...], board: tuple[Card, ...], rng: random.Random, samples: int = 24) -> float:
    """Share of random opposing hands the player beats on the board so far (ties count half)."""
    used = set(hole) | set(board)
    deck = [card for card in FULL_DECK if card not in used]
    mine = holdem_strength(hole + board)
    score = 0.0
    samples = min(samples, len(deck) // 2)
    drawn = rng.sample(deck, 2 * samples)
    for index in range(samples):
        theirs = holdem_strength((drawn[2 * index], drawn[2 * index + 1], *board))
        score += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
    return score / samples


# ----------------------------------------------------------------------------------------------------------------------
# Players


@dataclass(frozen=True)
class Style:
    name: str
    vpip: float
    raise_share: float
    aggression: float
    bluff: float
    call_margin: float


STYLES = (
    Style("tight_aggressive", vpip=0.22, raise_share=0.75, aggression=0.75, bluff=0.12, call_margin=0.12),
    Style("loose_aggressive", vpip=0.38, raise_share=0.6, aggression=0.8, bluff=0.22, call_margin=0.06),
    Style("tight_passive", vpip=0.16, raise_share=0.3, aggression=0.35, bluff=0.03, call_margin=0.15),
    Style("loose_passive", vpip=0.45, raise_share=0.2, aggression=0.3, bluff=0.06, call_margin=0.0),
)


def jittered_style(style: Style, rng: random.Random) -> Style:
    def vary(value: float) -> float:
        return min(0.95, value * rng.uniform(0.8, 1.2))

    return Style(
        style.name,
        vary(style.vpip),
        vary(style.raise_share),
        vary(style.aggression),
        vary(style.bluff),
        style.call_margin * rng.uniform(0.7, 1.3),
    )


@dataclass
class Timing:
    """Decision-time model: ``kind`` "human" (log-normal, slower for hard decisions), "fixed" (log-normal with a tiny
    spread), "uniform" (a uniform delay between ``low`` and ``high`` seconds)."""

    kind: str
    median: float
    spread: float = 0.0
    low: float = 0.0
    high: float = 0.0
    facing_factor: float = 1.0

    def sample(self, rng: random.Random, facing_bet: bool, big_pot: bool, easy_fold: bool) -> int:
        if self.kind == "uniform":
            seconds = rng.uniform(self.low, self.high)
        elif self.kind == "fixed":
            seconds = self.median * math.exp(rng.gauss(0.0, self.spread))
        else:
            seconds = self.median * math.exp(rng.gauss(0.0, self.spread))
            if facing_bet:
                seconds *= self.facing_factor
            if big_pot:
                seconds *= 1.6
            if easy_fold:
                seconds *= 0.5
        return max(150, round(seconds * 1000))


def human_timing(rng: random.Random) -> Timing:
    return Timing(
        "human",
        median=math.exp(rng.uniform(math.log(1.2), math.log(8.0))),
        spread=rng.uniform(0.45, 0.95),
        facing_factor=rng.uniform(1.2, 2.0),
    )


@dataclass
class Player:
    name: str
    style: Style
    timing: Timing
    pool: int
    role: str = "honest"  # honest, friend, colluder, dumper, receiver, bot, counter_abuser
    partner: str | None = None
    soft_factor: float = 1.0
    dump_method: str = ""
    marathon: bool = False
    ip: str = ""
    device: str = ""
    schedule_playing: int = 0
    schedule_resting: int = 0


# ----------------------------------------------------------------------------------------------------------------------
# One hand


@dataclass
class HandContext:
    """What the policy tracks while a hand is played: the voluntary aggressor and raises on the street, and each
    player's strength read per street."""

    state: HandState
    players: dict[int, Player]
    percentiles: dict[tuple[int, int, bool], float]
    rng: random.Random
    street: str = "preflop"
    aggressor: int | None = None
    raises: int = 0
    strengths: dict[tuple[int, str], float] = field(default_factory=dict)
    dumps: list[tuple[str, str]] = field(default_factory=list)

    def seen(self, events: tuple[object, ...]) -> None:
        for event in events:
            if isinstance(event, StreetDealt):
                self.street = event.street
                self.aggressor = None
                self.raises = 0
            elif isinstance(event, ActionTaken) and event.resolved in ("bet", "raise"):
                self.aggressor = event.seat
                self.raises += 1

    def strength(self, seat: int) -> float:
        key = (seat, self.street)
        value = self.strengths.get(key)
        if value is None:
            hole = self.state.hole_cards(seat)
            board = self.state.board
            value = self.percentiles[starting_hand_key(hole)] if not board else board_strength(hole, board, self.rng)
            self.strengths[key] = value
        return value

    def seat_of(self, name: str | None) -> int | None:
        for seat, player in self.players.items():
            if player.name == name:
                return seat
        return None


def to_amount(legal: LegalActions, target: int, rng_all_in: bool) -> Action:
    """A bet or raise to about ``target`` (clamped to the legal range); all-in when that is most of the stack."""
    seat = legal.seat
    low_high = legal.bet_range or legal.raise_range
    if low_high is None:
        return Call(seat) if legal.call_amount is not None else Check(seat)
    low, high = low_high
    amount = min(max(target, low), high)
    if legal.all_in_amount is not None and (rng_all_in or amount >= 0.6 * high):
        return AllIn(seat)
    return Bet(seat, amount) if legal.bet_range is not None else RaiseTo(seat, amount)


def honest_action(context: HandContext, legal: LegalActions, player: Player, strength: float) -> Action:
    state, rng, style = context.state, context.rng, player.style
    seat = legal.seat
    pot = state.pot_total
    current = max(state.bets.values())
    can_raise = legal.bet_range is not None or legal.raise_range is not None
    facing = legal.call_amount is not None
    if context.street == "preflop":
        if context.raises == 0:
            if strength >= 1 - style.vpip:
                if strength >= 1 - style.vpip * style.raise_share and can_raise:
                    return to_amount(legal, 3 * BIG_BLIND + (current - BIG_BLIND), False)
                return Call(seat) if facing else Check(seat)
            return Fold(seat) if facing else Check(seat)
        if context.raises == 1:
            if strength >= 1 - 0.12 * style.vpip / 0.3 and can_raise and rng.random() < style.aggression:
                return to_amount(legal, 3 * current, False)
            if strength >= 1 - style.vpip * 0.55:
                return Call(seat)
            if can_raise and rng.random() < style.bluff * 0.2:
                return to_amount(legal, 3 * current, False)
            return Fold(seat)
        if strength >= 0.975 and can_raise:
            return to_amount(legal, 3 * current, True)
        if strength >= 0.94 or (strength >= 0.88 and legal.call_amount is not None and legal.call_amount < pot / 3):
            return Call(seat)
        return Fold(seat)
    if not facing:
        if strength >= 0.75 and can_raise and rng.random() < style.aggression:
            return to_amount(legal, int(pot * rng.uniform(0.5, 0.9)), strength >= 0.95 and rng.random() < 0.3)
        if can_raise and rng.random() < style.bluff:
            return to_amount(legal, int(pot * 0.5), False)
        return Check(seat)
    assert legal.call_amount is not None
    price = legal.call_amount / (pot + legal.call_amount)
    if strength >= 0.9 and can_raise and rng.random() < style.aggression:
        return to_amount(legal, 3 * current, strength >= 0.97)
    if strength >= min(0.97, price + 0.3 + style.call_margin):
        return Call(seat)
    if can_raise and rng.random() < style.bluff * 0.3:
        return to_amount(legal, 3 * current, False)
    return Fold(seat)


def colluder_action(context: HandContext, legal: LegalActions, player: Player, strength: float) -> Action | None:
    """The colluding pair's changes to honest play, or ``None`` to play honestly."""
    state, rng = context.state, context.rng
    seat = legal.seat
    partner = context.seat_of(player.partner)
    live = state.live_seats
    if partner is None or partner not in live:
        return None
    facing = legal.call_amount is not None
    others = [other for other in live if other not in (seat, partner)]
    aimed_at_partner = context.aggressor == partner or (context.aggressor is None and not others)
    if aimed_at_partner:
        if facing:
            if strength >= 0.92 and rng.random() < player.soft_factor and legal.raise_range is not None:
                return to_amount(legal, 3 * max(state.bets.values()), False)
            return Call(seat) if strength >= 0.55 else Fold(seat)
        if strength >= 0.75 and rng.random() < player.style.aggression * player.soft_factor:
            return to_amount(legal, int(state.pot_total * 0.5), False)
        return Check(seat)
    if others:
        partner_strength = context.strength(partner)
        if partner_strength > strength and strength < 0.85:
            return Fold(seat) if facing else Check(seat)
        if partner_strength >= 0.8 and facing and legal.raise_range is not None and rng.random() < 0.5:
            return to_amount(legal, 3 * max(state.bets.values()), False)
    return None


def junk_behind(context: HandContext, seat: int, partner: int) -> bool:
    """The dumper's hand is weak by its own read and far behind the partner's (whose cards the dumper knows)."""
    state = context.state
    if context.strength(seat) >= 0.5:
        return False
    hands = [state.hole_cards(seat), state.hole_cards(partner)]
    result = all_in_equity(Variant.NO_LIMIT_HOLDEM, hands, state.board, samples=150, exact_limit=1_000, seed=seat)
    return result.players[0].equity < 0.35


def stay_in(legal: LegalActions, limit: int) -> Action | None:
    """Check, or call a bet of at most ``limit`` chips; ``None`` (play normally) for a bigger bet."""
    if legal.call_amount is None:
        return Check(legal.seat)
    return Call(legal.seat) if legal.call_amount <= limit else None


def dumper_action(context: HandContext, legal: LegalActions, player: Player, pending: set[str]) -> Action | None:
    """A dumper with a transfer pending loses chips to the partner; ``None`` to play honestly.

    ``all_in_junk``: heads-up with the partner and holding a weak hand that is far behind the partner's, the dumper
    shoves (or calls the partner's shove); until then they stay in cheaply. ``bet_fold``: raise a third of the stack
    preflop and fold to the partner's all-in re-raise."""
    state, seat = context.state, legal.seat
    partner = context.seat_of(player.partner)
    if player.name not in pending or partner is None or partner not in state.live_seats:
        return None
    if player.dump_method == "all_in_junk":
        if set(state.live_seats) == {seat, partner} and junk_behind(context, seat, partner):
            if context.aggressor == partner and state.stacks[partner] == 0 and legal.call_amount is not None:
                action: Action = Call(seat)
            elif legal.all_in_amount is not None:
                action = AllIn(seat)
            else:
                return stay_in(legal, 5 * BIG_BLIND)
            context.dumps.append((player.name, player.partner or ""))
            pending.discard(player.name)
            return action
        return stay_in(legal, 5 * BIG_BLIND)
    if context.street != "preflop":
        return None
    if context.aggressor == partner and state.bets[seat] >= START_STACK // 5:
        context.dumps.append((player.name, player.partner or ""))
        pending.discard(player.name)
        return Fold(seat)
    if context.aggressor != seat and (legal.raise_range is not None or legal.bet_range is not None):
        return to_amount(legal, state.stacks[seat] // 3 + state.bets[seat], False)
    return stay_in(legal, 5 * BIG_BLIND)


def receiver_action(context: HandContext, legal: LegalActions, player: Player, pending: set[str]) -> Action | None:
    """The dumper's partner takes what is offered: calls the dumper's all-in when ahead of the dumper's cards (which
    the partner knows), shoves when heads-up with the dumper's weak hand (for the dumper to call), re-raises all-in
    over a bet-fold dumper's big preflop raise, and stays in cheaply while a transfer is pending."""
    state, seat, rng = context.state, legal.seat, context.rng
    dumper_seat = context.seat_of(player.partner)
    if dumper_seat is None or dumper_seat not in state.live_seats:
        return None
    dumper = context.players[dumper_seat]
    if context.aggressor == dumper_seat and state.stacks[dumper_seat] == 0 and legal.call_amount is not None:
        hands = [state.hole_cards(seat), state.hole_cards(dumper_seat)]
        result = all_in_equity(Variant.NO_LIMIT_HOLDEM, hands, state.board, samples=150, exact_limit=1_000, seed=seat)
        return Call(seat) if result.players[0].equity >= 0.5 else None  # the partner knows the dumper's cards
    if dumper.name not in pending:
        return None
    if dumper.dump_method == "bet_fold":
        preflop_raise = context.street == "preflop" and context.aggressor == dumper_seat
        if preflop_raise and legal.all_in_amount is not None and state.bets[dumper_seat] >= START_STACK // 5:
            return AllIn(seat)
        return stay_in(legal, 5 * BIG_BLIND) if context.street == "preflop" else None
    heads_up = set(state.live_seats) == {seat, dumper_seat}
    if heads_up and legal.all_in_amount is not None and rng.random() < 0.5 and junk_behind(context, dumper_seat, seat):
        return AllIn(seat)
    return stay_in(legal, 5 * BIG_BLIND)


def choose(context: HandContext, legal: LegalActions, pending: set[str]) -> Action:
    player = context.players[legal.seat]
    strength = context.strength(legal.seat)
    special: Action | None = None
    if player.role == "colluder":
        special = colluder_action(context, legal, player, strength)
    elif player.role == "dumper":
        special = dumper_action(context, legal, player, pending)
    elif player.role == "receiver":
        special = receiver_action(context, legal, player, pending)
    action = special if special is not None else honest_action(context, legal, player, strength)
    if not context.state.can(action):
        action = Call(legal.seat) if legal.call_amount is not None else Check(legal.seat)
    return action


def play_hand(
    config: HandConfig,
    players: dict[int, Player],
    percentiles: dict[tuple[int, int, bool], float],
    rng: random.Random,
    pending_dumps: set[str],
) -> tuple[HandState, list[int], list[tuple[str, str]]]:
    state = HandState.create(config, shuffler=rng)
    context = HandContext(state, players, percentiles, rng)
    times: list[int] = []
    big_pot = 30 * BIG_BLIND
    while (legal := state.legal_actions()) is not None:
        action = choose(context, legal, pending_dumps)
        facing = legal.call_amount is not None
        easy_fold = context.street == "preflop" and isinstance(action, Fold) and context.raises == 0
        times.append(players[legal.seat].timing.sample(rng, facing, state.pot_total >= big_pot, easy_fold))
        context.seen(state.apply(action))
    return state, times, context.dumps


# ----------------------------------------------------------------------------------------------------------------------
# The room


@dataclass
class Population:
    players: dict[str, Player]
    colluding_pairs: list[tuple[str, str]]
    dumping_pairs: list[tuple[str, str]]
    friend_pairs: list[tuple[str, str]]
    bots: dict[str, str]  # name -> bot kind
    sharing_pairs: list[tuple[str, str]]
    household_pairs: list[tuple[str, str]]
    counter_abusers: list[str]

    @property
    def honest(self) -> set[str]:
        return {name for name, player in self.players.items() if player.role in ("honest", "friend")}


@dataclass(frozen=True)
class PopulationSize:
    honest: int = 400
    friend_pairs: int = 20
    colluding_pairs: int = 25
    dumping_pairs: int = 25
    bots: int = 24
    counter_abusers: int = 15
    households: int = 12
    pools: int = 4


BOT_KINDS = ("fixed_delay", "fast", "jittered", "marathon")


def build_population(size: PopulationSize, rng: random.Random) -> Population:
    players: dict[str, Player] = {}
    counter = iter(range(1, 100_000))

    def new(role: str, pool: int, style: Style | None = None, timing: Timing | None = None) -> Player:
        name = f"{role}-{next(counter):04d}"
        player = Player(
            name=name,
            style=jittered_style(style or rng.choice(STYLES), rng),
            timing=timing or human_timing(rng),
            pool=pool,
            role=role,
            ip=f"10.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(1, 255)}",
            device=f"device-{name}",
        )
        players[name] = player
        return player

    def pool() -> int:
        return rng.randrange(size.pools)

    for _ in range(size.honest):
        new("honest", pool())
    friend_pairs = []
    for _ in range(size.friend_pairs):
        shared_pool = pool()
        first, second = new("friend", shared_pool), new("friend", shared_pool)
        first.partner, second.partner = second.name, first.name
        friend_pairs.append((first.name, second.name))
    colluding_pairs = []
    sharing_pairs = []
    for index in range(size.colluding_pairs):
        shared_pool = pool()
        first, second = new("colluder", shared_pool), new("colluder", shared_pool)
        first.partner, second.partner = second.name, first.name
        first.soft_factor = second.soft_factor = rng.uniform(0.0, 0.25)
        colluding_pairs.append((first.name, second.name))
        if index % 2 == 0:
            second.ip = first.ip  # half of them play from one address (one of those from one device)
            if index % 4 == 0:
                second.device = first.device
            sharing_pairs.append((first.name, second.name))
    dumping_pairs = []
    for index in range(size.dumping_pairs):
        shared_pool = pool()
        dumper, receiver = new("dumper", shared_pool), new("receiver", shared_pool)
        dumper.partner, receiver.partner = receiver.name, dumper.name
        dumper.dump_method = "all_in_junk" if index % 10 < 7 else "bet_fold"
        dumping_pairs.append((dumper.name, receiver.name))
        if index % 2 == 1:
            receiver.ip = dumper.ip
            sharing_pairs.append((dumper.name, receiver.name))
    bots: dict[str, str] = {}
    tight = STYLES[0]
    for index in range(size.bots):
        kind = BOT_KINDS[index % len(BOT_KINDS)]
        if kind == "fixed_delay":
            timing = Timing("fixed", median=rng.uniform(1.0, 2.5), spread=rng.uniform(0.05, 0.2))
        elif kind == "fast":
            timing = Timing("fixed", median=rng.uniform(0.3, 0.7), spread=rng.uniform(0.3, 0.5))
        elif kind == "jittered":
            low = rng.uniform(0.8, 1.6)
            timing = Timing("uniform", median=0.0, low=low, high=low + rng.uniform(1.0, 2.0))
        else:
            timing = human_timing(rng)
        bot = new("bot", pool(), tight, timing)
        bot.marathon = kind == "marathon"
        bots[bot.name] = kind
    abusers = [new("counter_abuser", pool()).name for _ in range(size.counter_abusers)]
    # Honest look-alikes for the connection indicator: households (one address, two devices) and carrier addresses
    # shared by many players.
    honest_names = [name for name, player in players.items() if player.role == "honest"]
    rng.shuffle(honest_names)
    household_pairs = []
    for index in range(size.households):
        first, second = players[honest_names[2 * index]], players[honest_names[2 * index + 1]]
        second.ip = first.ip
        household_pairs.append((first.name, second.name))
    carrier_start = 2 * size.households
    for group in range(3):
        address = f"100.64.{group}.1"
        for name in honest_names[carrier_start + 25 * group : carrier_start + 25 * (group + 1)]:
            players[name].ip = address
    return Population(
        players, colluding_pairs, dumping_pairs, friend_pairs, bots, sharing_pairs, household_pairs, abusers
    )


def groups_of(population: Population) -> list[list[Player]]:
    """Players who sit together (pairs) or alone."""
    seen: set[str] = set()
    groups = []
    for name, player in population.players.items():
        if name in seen:
            continue
        group = [player]
        if player.partner is not None:
            group.append(population.players[player.partner])
        seen.update(member.name for member in group)
        groups.append(group)
    return groups


def plays_this_round(group: list[Player], rng: random.Random) -> bool:
    """Advance the group's schedule by one round: people play 1-3 rounds (rarely 4) then rest 1-6; marathon bots play
    6-9 rounds and rest 1-2."""
    leader = group[0]
    if leader.schedule_playing > 0:
        leader.schedule_playing -= 1
        return True
    if leader.schedule_resting > 0:
        leader.schedule_resting -= 1
        return False
    if rng.random() < 0.35:
        if leader.marathon:
            leader.schedule_playing = rng.randint(6, 9) - 1
            leader.schedule_resting = rng.randint(1, 2)
        else:
            leader.schedule_playing = rng.choices([1, 2, 3, 4], weights=[50, 35, 12, 3])[0] - 1
            leader.schedule_resting = rng.randint(1, 6)
        return True
    return False


@dataclass
class Room:
    """Plays rounds until the wanted number of hands; yields hand records and connection records as they happen."""

    population: Population
    hands_per_round: int
    seconds_per_hand: float
    rng: random.Random
    percentiles: dict[tuple[int, int, bool], float]
    dump_probability: float = 1.0
    dumps_done: list[tuple[str, str, str]] = field(default_factory=list)
    hands_played: int = 0
    simulation_seconds: float = 0.0

    def rounds(self, hands_wanted: int) -> Iterator[tuple[list[HandRecord], list[ConnectionRecord]]]:
        groups = groups_of(self.population)
        round_number = 0
        while self.hands_played < hands_wanted:
            start = EPOCH + round_number * self.hands_per_round * self.seconds_per_hand
            tables = self._tables(groups)
            records: list[HandRecord] = []
            connections: list[ConnectionRecord] = []
            for table_number, seated in enumerate(tables):
                if self.hands_played >= hands_wanted:
                    break
                place = f"table:{round_number}-{table_number}"
                records.extend(self._play_table(seated, place, start, connections, hands_wanted))
            round_number += 1
            yield records, connections

    def _tables(self, groups: list[list[Player]]) -> list[list[Player]]:
        tables: list[list[Player]] = []
        by_pool: dict[int, list[list[Player]]] = {}
        for group in groups:
            if plays_this_round(group, self.rng):
                by_pool.setdefault(group[0].pool, []).append(group)
        for pool in sorted(by_pool):
            active = by_pool[pool]
            self.rng.shuffle(active)
            current: list[Player] = []
            for group in active:
                if len(current) + len(group) > TABLE_SIZE:
                    tables.append(current)
                    current = []
                current.extend(group)
            if len(current) >= 2:
                tables.append(current)
        return tables

    def _play_table(
        self,
        seated: list[Player],
        place: str,
        start: float,
        connections: list[ConnectionRecord],
        hands_wanted: int,
    ) -> list[HandRecord]:
        rng = self.rng
        count = len(seated)
        seats = {index + 1: player for index, player in enumerate(seated)}
        stacks = dict.fromkeys(seats, START_STACK)
        for player in seated:
            at = start + rng.uniform(0, 60)
            connections.append(ConnectionRecord(player.name, place, at, player.ip, player.device))
            if rng.random() < 0.3:  # a reconnect later in the session
                reconnect = start + rng.uniform(600, self.hands_per_round * self.seconds_per_hand)
                connections.append(ConnectionRecord(player.name, place, reconnect, player.ip, player.device))
        pending = {player.name for player in seated if player.role == "dumper" and rng.random() < self.dump_probability}
        button = rng.randint(1, count)
        records = []
        for number in range(self.hands_per_round):
            if self.hands_played >= hands_wanted:
                break
            began = clock.perf_counter()
            for seat in stacks:
                if stacks[seat] < TOP_UP_BELOW:
                    stacks[seat] = START_STACK
            button = button % count + 1
            if count == 2:
                small, big = button, button % count + 1
            else:
                small, big = button % count + 1, (button + 1) % count + 1
            config = HandConfig.create(
                variant=Variant.NO_LIMIT_HOLDEM,
                stacks=stacks,
                button=button,
                small_blind_seat=small,
                big_blind_seat=big,
                small_blind=SMALL_BLIND,
                big_blind=BIG_BLIND,
                table_size=TABLE_SIZE,
            )
            state, times, dumps = play_hand(config, seats, self.percentiles, rng, pending)
            self.dumps_done.extend((dumper, receiver, f"{place}#{number + 1}") for dumper, receiver in dumps)
            stacks = dict(state.stacks)
            started_at = start + number * self.seconds_per_hand + rng.uniform(0, 5)
            self.hands_played += 1
            self.simulation_seconds += clock.perf_counter() - began
            records.append(
                record_from_state(
                    state,
                    hand_id=f"{place}#{number + 1}",
                    players={seat: player.name for seat, player in seats.items()},
                    decision_ms=times,
                    table_id=place,
                    started_at=started_at,
                )
            )
        return records


def counter_records(population: Population, rng: random.Random, days: int = 30) -> list[CounterRecord]:
    """A month of ratholing returns and Banzai Resets: everyone now and then, the abusers at the limit most days."""
    records = []
    abusers = set(population.counter_abusers)
    for name in sorted(population.players):
        for day in range(days):
            if name in abusers:
                if rng.random() < 0.45:
                    kind = rng.choice(["ratholing", "banzai_reset"])
                    uses = rng.randint(5, 7)
                else:
                    kind, uses = "ratholing", rng.choice([0, 1, 2])
            else:
                kind = rng.choice(["ratholing", "banzai_reset"])
                uses = min(rng.choices([0, 1, 2, 3, 4, 5], weights=[80, 10, 5, 3, 1.6, 0.4])[0], 5)
            for _ in range(uses):
                at = EPOCH + day * DAY + rng.uniform(8 * 3600, 23 * 3600)
                records.append(CounterRecord(name, kind, at, place=f"table:{rng.randrange(40)}"))
    records.sort(key=lambda record: record.at)
    return records


def pairs_of(names: list[str]) -> list[tuple[str, str]]:
    return list(combinations(sorted(names), 2))


# ----------------------------------------------------------------------------------------------------------------------
# Tournament sit-outs (TRN-32)

TOURNAMENT_SECONDS = 4 * 3_600.0
HAND_END_EVERY = 30.0


def tournament_sit_outs(
    population: Population, rng: random.Random, *, tournaments: int = 300, field_size: int = 60
) -> Iterator[tuple[str, list[str], dict[str, float]]]:
    """What each tournament hand's end sees (TRN-32), every ``HAND_END_EVERY`` seconds: the place, the players sitting
    out by choice at the tables whose hand ended (all of them here: every table ends a hand in that time) and every
    player of the tournament sitting out by choice, with since when.

    Fields of ``field_size`` players are drawn from the honest players, the friend pairs and the colluding pairs (a pair
    enters together). Honest players — friends included — sit out by choice once in a tournament with probability 0.3,
    at a uniform moment, for 1 to 10 minutes (a break of their own; friends decide independently). Planted: each
    **colluding pair** in a tournament together agrees to sit out with probability 0.5: the second starts 0 to 40 s
    after the first, both for 3 to 15 minutes."""
    honest = sorted(population.honest)
    pairs = list(population.colluding_pairs)
    for number in range(tournaments):
        place = f"tournament:{number}"
        chosen_pairs = [pair for pair in pairs if rng.random() < 0.25]
        members = [name for pair in chosen_pairs for name in pair]
        field = members + rng.sample(honest, max(0, field_size - len(members)))
        intervals: dict[str, tuple[float, float]] = {}
        for name in field:
            if name not in members and rng.random() < 0.3:
                start = rng.uniform(0.0, TOURNAMENT_SECONDS - 600.0)
                intervals[name] = (start, start + rng.uniform(60.0, 600.0))
        for first, second in chosen_pairs:
            if rng.random() < 0.5:
                start = rng.uniform(0.0, TOURNAMENT_SECONDS - 900.0)
                length = rng.uniform(180.0, 900.0)
                intervals[first] = (start, start + length)
                later = start + rng.uniform(0.0, 40.0)
                intervals[second] = (later, later + length)
        moment = 0.0
        while moment < TOURNAMENT_SECONDS:
            sitting = {name: since for name, (since, until) in intervals.items() if since <= moment < until}
            if sitting:
                yield place, sorted(sitting), sitting
            moment += HAND_END_EVERY
