"""Play the same hand (same deck, same actions) in our engine and in pokerkit, for the differential test.

Position mapping: pokerkit's player ``i`` is our ``i``-th seat clockwise from the first seat after the button (so
pokerkit's player 0 posts the small blind, or the big blind heads-up, exactly like ours).
"""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from random import Random
from typing import Any

from pokerkit import Automation, Card, NoLimitTexasHoldem, OmahaHoldemHand, PotLimitOmahaHoldem, StandardHighHand
from pokerkit import State as PokerkitState
from pokerkit.lookups import Lookup

from games.engine.config import HandConfig, Variant
from games.engine.events import ActionTaken
from games.engine.simulation import choose_random_action
from games.engine.state import HandState

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)


@contextlib.contextmanager
def pokerkit_hands_remembered() -> Iterator[None]:
    """Within the block, pokerkit evaluates each (hand type, hole cards, board) once.

    pokerkit's state evaluates the same players' hands again and again in one hand (whether each can still win, when
    it kills hands, when it shows or mucks, when it pushes chips): about nine tenths of the differential test's time
    was pokerkit's hand evaluation, most of it repeated. The evaluation is a pure function of the cards, so remembering
    it changes no result; the memory is dropped with the block, and our engine's evaluation is not touched.
    """
    hand_types = (StandardHighHand, OmahaHoldemHand)
    assert all("from_game" not in vars(hand_type) for hand_type in hand_types)  # inherited; restored by deleting
    remembered: dict[tuple[Any, ...], Any] = {}

    def remembering(hand_type: Any) -> Any:
        evaluate = hand_type.from_game  # the inherited classmethod, bound to this hand type

        def from_game(cls: type, hole_cards: Any, board_cards: Any = ()) -> Any:
            key = (cls, Card.clean(hole_cards), Card.clean(board_cards))
            if key not in remembered:
                remembered[key] = evaluate(key[1], key[2])
            return remembered[key]

        return classmethod(from_game)

    try:
        for hand_type in hand_types:
            hand_type.from_game = remembering(hand_type)  # type: ignore[method-assign]  # patched for the block only
        yield
    finally:
        for hand_type in hand_types:
            if "from_game" in vars(hand_type):
                delattr(hand_type, "from_game")


@contextlib.contextmanager
def pokerkit_lookup_keys_remembered() -> Iterator[None]:
    """Within the block, pokerkit computes the lookup key of each (lookup, five cards in one order) once.

    pokerkit's ``calculate_equities`` builds every five-card combination of every sampled board (sixty per Omaha
    player) and computes each one's lookup key again for every comparison; the key (a product of rank primes and the
    suitedness) was most of its time, and combinations repeat across samples (the hole cards are fixed). The key is a
    pure function of the cards for a lookup, so remembering it changes no result; the memory is dropped with the block.
    The five pokerkit equity tests: 47 s -> 34 s of CPU (a set of cards as the key, order-free, was no faster).
    """
    assert "_get_key" in vars(Lookup)
    original = Lookup._get_key
    remembered: dict[tuple[Any, ...], Any] = {}

    def get_key(lookup: Any, cards: Any) -> Any:
        if not isinstance(cards, tuple):
            return original(lookup, cards)
        key = (type(lookup), cards)
        found = remembered.get(key)
        if found is None:
            found = remembered[key] = original(lookup, cards)
        return found

    Lookup._get_key = get_key  # type: ignore[method-assign]  # patched for the block only
    try:
        yield
    finally:
        Lookup._get_key = original  # type: ignore[method-assign]


@dataclass
class DifferentialHand:
    ours: HandState
    theirs: PokerkitState
    actions: list[str]


def random_config(rng: Random, variant: Variant) -> HandConfig:
    """A random table of 2..10 players with mixed stacks (some very short), blinds 1/2 or 5/10, sometimes antes.

    The big blind always covers its blind: when it is all-in for less, we make callers pay the full blind while
    pokerkit lets them call the short amount (a documented difference).
    """
    players = rng.randint(2, 10)
    small_blind, big_blind = rng.choice([(1, 2), (5, 10), (2, 5)])
    ante = rng.choice([0, 0, 0, 1, big_blind // 2])
    stacks = {}
    for seat in range(1, players + 1):
        kind = rng.random()
        if kind < 0.25:
            stacks[seat] = rng.randint(1, big_blind * 4)
        elif kind < 0.6:
            stacks[seat] = rng.randint(big_blind * 4, big_blind * 40)
        else:
            stacks[seat] = rng.randint(big_blind * 40, big_blind * 200)
    button = players
    small_blind_seat: int | None
    if players == 2:
        small_blind_seat, big_blind_seat = 2, 1
    elif rng.random() < 0.15:
        small_blind_seat, big_blind_seat = None, 1  # dead small blind (ENG-05)
    else:
        small_blind_seat, big_blind_seat = 1, 2
    stacks[big_blind_seat] = max(stacks[big_blind_seat], ante + big_blind + 1)
    return HandConfig.create(
        variant=variant,
        stacks=stacks,
        button=button,
        small_blind_seat=small_blind_seat,
        big_blind_seat=big_blind_seat,
        small_blind=small_blind,
        big_blind=big_blind,
        ante=ante,
        table_size=10,
    )


def pokerkit_state_for(config: HandConfig) -> PokerkitState:
    game_type = PotLimitOmahaHoldem if config.variant is Variant.POT_LIMIT_OMAHA else NoLimitTexasHoldem
    stacks = config.stacks
    seats = config.seats_clockwise
    if len(seats) == 2:
        blinds = [config.small_blind, config.big_blind]  # pokerkit swaps them heads-up
    else:
        blinds = [0] * len(seats)
        if config.small_blind_seat is not None:
            blinds[seats.index(config.small_blind_seat)] = config.small_blind
        blinds[seats.index(config.big_blind_seat)] = config.big_blind
    return game_type.create_state(
        AUTOMATIONS,
        True,
        config.ante,
        tuple(blinds),
        config.minimum_bet,
        tuple(stacks[seat] for seat in config.seats_clockwise),
        len(config.players),
    )


def play_both(config: HandConfig, rng: Random, *, timeouts: bool = True) -> DifferentialHand:
    """Play a random hand in both engines; raise AssertionError at the first disagreement on whose turn it is."""
    ours = HandState.create(config, shuffler=rng)
    theirs = pokerkit_state_for(config)
    seats = config.seats_clockwise
    index_of = {seat: index for index, seat in enumerate(seats)}
    deck = ours.deck
    count = len(seats)
    holes = [ours.hole_cards(seat) for seat in seats]
    for round_ in range(config.variant.hole_card_count):
        for index in range(count):
            theirs.deal_hole(str(holes[index][round_]), index)
    board_cards = list(deck[count * config.variant.hole_card_count : count * config.variant.hole_card_count + 5])
    log: list[str] = []

    def catch_up() -> None:
        """Deal pokerkit's board cards and take its no-choice checks.

        pokerkit asks a player for a check even when nobody else can bet any more (e.g. the big blind after the
        small blind called all-in); we skip such turns, as the player has no decision to make.
        """
        while True:
            if theirs.can_deal_board():
                size = 3 if not theirs.board_cards else 1
                cards = "".join(map(str, board_cards[len(theirs.board_cards) : len(theirs.board_cards) + size]))
                theirs.deal_board(cards)
            elif (
                theirs.actor_index is not None
                and theirs.checking_or_calling_amount == 0
                and not theirs.can_complete_bet_or_raise_to()
            ):
                theirs.check_or_call()
            else:
                return

    with warnings.catch_warnings(), pokerkit_hands_remembered():
        warnings.simplefilter("ignore")
        while not ours.is_complete:
            catch_up()
            legal = ours.legal_actions()
            assert legal is not None
            action = choose_random_action(legal, rng, timeouts=timeouts)
            assert theirs.actor_index == index_of[legal.seat], (
                f"pokerkit has player {theirs.actor_index} to act, we have seat {legal.seat}; actions {log}"
            )
            taken = ours.apply(action)[0]
            assert isinstance(taken, ActionTaken)
            log.append(f"{action} -> {taken.resolved}")
            if taken.resolved == "fold":
                theirs.fold()
            elif taken.resolved in ("check", "call"):
                theirs.check_or_call()
            else:
                theirs.complete_bet_or_raise_to(taken.total_bet)
        catch_up()
        if theirs.status:
            raise AssertionError(f"pokerkit hand did not finish; actions {log}")
    return DifferentialHand(ours, theirs, log)


def our_stacks_in_pokerkit_convention(hand: DifferentialHand) -> list[int]:
    """Our final stacks (pokerkit player order) with the pots' odd chips re-dealt the way pokerkit 0.7 deals them.

    ENG-27 splits each pot on its own and gives the chips that do not divide evenly one at a time to the tied winners
    clockwise from the button. pokerkit first mucks and kills every hand that cannot win anything, which merges
    consecutive pots whose remaining contenders are the same, and then gives a pot's whole remainder to its first
    winner. Both engines agree on who wins which chips up to that rounding; this function applies pokerkit's rounding
    to our pots (their amounts, eligible seats and winners), so the comparison stays exact about everything else.
    """
    stacks = dict(hand.ours.stacks)
    pots = hand.ours.pots
    for pot in pots:
        for seat, share in pot.shares:
            stacks[seat] -= share
    contenders = {seat for pot in pots for seat in pot.winners}
    merged: list[tuple[tuple[int, ...], int, tuple[int, ...]]] = []
    for pot in pots:
        key = tuple(seat for seat in pot.eligible if seat in contenders)
        if merged and merged[-1][0] == key:
            merged[-1] = (key, merged[-1][1] + pot.amount, merged[-1][2])
        else:
            merged.append((key, pot.amount, pot.winners))
    for _, amount, winners in merged:
        share, odd = divmod(amount, len(winners))
        for seat in winners:
            stacks[seat] += share
        stacks[winners[0]] += odd
    return [stacks[seat] for seat in hand.ours.seats]
