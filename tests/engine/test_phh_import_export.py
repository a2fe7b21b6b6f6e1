"""PHH (Poker Hand History) import and export: pokerkit's own files replay to pokerkit's finishing stacks, our exports
replay in our engine and in pokerkit, and broken histories are refused with the hand and action named."""

from __future__ import annotations

import random
import tomllib
import warnings
from pathlib import Path

import pytest
from pokerkit import HandHistory

from games.engine.config import Variant
from games.engine.phh import (
    PhhError,
    config_from_phh,
    dumps_phh,
    dumps_phhs,
    hand_to_phh,
    load_phh_file,
    loads_phh,
    replay_phh,
    replay_phh_text,
)
from games.engine.simulation import play_random_hand
from tests.engine.pokerkit_bridge import DifferentialHand, our_stacks_in_pokerkit_convention, random_config

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.mark.parametrize(
    "name", ["pokerkit_nlhe_6max.phhs", "pokerkit_nlhe_antes.phhs", "pokerkit_plo_heads_up.phh", "engine_exported.phhs"]
)
def test_fixture_files_replay_to_their_recorded_finishing_stacks(name: str) -> None:
    hands = load_phh_file(FIXTURES / name)
    assert hands
    for number, fields in hands:
        replayed = replay_phh(fields, number=number)  # raises if the stacks differ from finishing_stacks
        assert replayed.finishing_stacks == fields["finishing_stacks"]


def test_sx_02_written_as_phh_gives_main_pot_300_and_side_pot_1800() -> None:
    ((number, fields),) = load_phh_file(FIXTURES / "sx02_side_pot.phh")
    replayed = replay_phh(fields, number=number)
    assert replayed.finishing_stacks == [1800, 4000, 300]
    assert [(pot.amount, pot.winners) for pot in replayed.state.result.pots] == [(300, (3,)), (1800, (1,))]


def test_unknown_hole_cards_are_fine_for_folded_players_and_revealed_cards_are_used_at_showdown() -> None:
    ((number, fields),) = load_phh_file(FIXTURES / "unknown_cards.phh")
    assert replay_phh(fields, number=number).finishing_stacks == [9950, 11750, 8300, 10000]


def test_unknown_hole_cards_at_showdown_cannot_be_settled() -> None:
    ((_, fields),) = load_phh_file(FIXTURES / "unknown_cards.phh")
    fields = dict(fields, actions=[action for action in fields["actions"] if not action.startswith("p2 sm")])
    with pytest.raises(PhhError, match="hole cards of p2 are unknown at showdown"):
        replay_phh(fields)


def test_illegal_hands_are_refused_naming_the_hand_and_the_action() -> None:
    hands = load_phh_file(FIXTURES / "illegal_hands.phhs")
    assert replay_phh(hands[0][1], number=hands[0][0]).finishing_stacks == [99, 98, 103]
    with pytest.raises(PhhError, match=r"hand 2, action 'p3 cbr 24': minimum raise is to 25"):
        replay_phh(hands[1][1], number=hands[1][0])
    with pytest.raises(PhhError, match=r"hand 3, action 'p1 cc': it is seat 3's turn, not seat 1's"):
        replay_phh(hands[2][1], number=hands[2][0])


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"variant": "FT"}, "unsupported variant"),
        ({"blinds_or_straddles": [1, 2, 4]}, "straddles"),
        ({"starting_stacks": [100] * 11, "antes": [0] * 11, "blinds_or_straddles": [1, 2]}, "2 to 10 players"),
        ({"starting_stacks": [100, 100.5, 100]}, "whole numbers"),
        ({"blinds_or_straddles": [0, 0, 0]}, "no big blind"),
        ({"antes": [1, 2, 1]}, "antes of different sizes"),
    ],
)
def test_unsupported_structures_are_refused(changes: dict[str, object], message: str) -> None:
    fields: dict[str, object] = {
        "variant": "NT",
        "antes": [0, 0, 0],
        "blinds_or_straddles": [1, 2, 0],
        "min_bet": 2,
        "starting_stacks": [100, 100, 100],
        "actions": [],
    }
    fields.update(changes)
    with pytest.raises(PhhError, match=message):
        config_from_phh(fields)


@pytest.mark.parametrize(
    ("actions", "message"),
    [
        (["p3 cbr 6.5"], "not a whole number"),
        (["p3 cbr lots"], "not an amount"),
        (["p3 xx"], "unsupported action"),
        (["p9 f"], "no player p9"),
        (["d dh p1 AsAs"], "dealt twice"),
        (["d dh p1 Zz2c"], "not a card"),
        (["p3 cc", "d db 2c3c4c"], "board is dealt while seat 1 is still to act"),
        (["p3 cc"], "stops before the hand is over"),
    ],
)
def test_broken_histories_are_refused(actions: list[str], message: str) -> None:
    fields = {
        "variant": "NT",
        "antes": [0, 0, 0],
        "blinds_or_straddles": [1, 2, 0],
        "min_bet": 2,
        "starting_stacks": [100, 100, 100],
        "actions": actions,
    }
    with pytest.raises(PhhError, match=message):
        replay_phh(fields)


def test_invalid_toml_is_refused() -> None:
    with pytest.raises(PhhError, match="not valid TOML"):
        loads_phh("variant = 'NT\n")


@pytest.mark.parametrize("variant", list(Variant))
def test_hands_exported_by_the_engine_replay_identically_in_the_engine(variant: Variant) -> None:
    for seed in range(60):
        rng = random.Random(seed)
        state = play_random_hand(random_config(rng, variant), rng, timeouts=True)
        fields = hand_to_phh(state, metadata={"hand": seed})
        text = dumps_phh(fields)
        assert tomllib.loads(text) == fields
        (replayed,) = replay_phh_text(text)
        assert replayed.finishing_stacks == [state.stacks[seat] for seat in state.seats]
        assert replayed.state.result.pots == state.result.pots


@pytest.mark.parametrize("variant", list(Variant))
def test_hands_exported_by_the_engine_replay_in_pokerkit(variant: Variant) -> None:
    for seed in range(60):
        rng = random.Random(seed)
        state = play_random_hand(random_config(rng, variant), rng, timeouts=True)
        fields = hand_to_phh(state)
        expected = our_stacks_in_pokerkit_convention(DifferentialHand(state, None, []))  # type: ignore[arg-type]
        del fields["finishing_stacks"]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            final = list(HandHistory.loads(dumps_phh(fields)))[-1]
        assert list(final.stacks) == expected, f"seed {seed}: {fields}"


def test_several_hands_make_a_phhs_file() -> None:
    rng = random.Random(1)
    states = [play_random_hand(random_config(rng, Variant.NO_LIMIT_HOLDEM), rng) for _ in range(3)]
    text = dumps_phhs(hand_to_phh(state) for state in states)
    assert [number for number, _ in loads_phh(text)] == [1, 2, 3]
    assert [hand.finishing_stacks for hand in replay_phh_text(text)] == [
        [state.stacks[seat] for seat in state.seats] for state in states
    ]


def test_export_names_players_by_position_and_keeps_seat_numbers() -> None:
    rng = random.Random(4)
    state = play_random_hand(random_config(rng, Variant.NO_LIMIT_HOLDEM), rng)
    fields = hand_to_phh(state, players=[f"player-{seat}" for seat in state.seats])
    assert fields["seats"] == list(state.seats)
    assert fields["players"][0] == f"player-{state.seats[0]}"
    assert fields["actions"][0].startswith("d dh p1 ")
