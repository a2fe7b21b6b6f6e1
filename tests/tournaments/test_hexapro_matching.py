"""HEX-04 matching: three waiting registrations of three distinct players at one buy-in form a game at once, oldest
first; a player's several registrations always go to different games and never hold up other players' games."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.rules.common import RuleError
from tournaments.rules.hexapro_matching import Matching, WaitingRegistration, form_games


def queue(*players: int) -> list[WaitingRegistration]:
    """Registrations 1, 2, 3, ... (in arrival order) of the given players."""
    return [WaitingRegistration(number, player) for number, player in enumerate(players, start=1)]


def ids(registrations: Sequence[WaitingRegistration]) -> list[int]:
    return [registration.registration for registration in registrations]


def test_hex_04_three_registrations_of_three_players_form_a_game_at_once() -> None:
    matching = form_games(queue(7, 8, 9))
    assert [ids(game) for game in matching.games] == [[1, 2, 3]]
    assert matching.waiting == ()


def test_hex_04_two_players_wait() -> None:
    assert form_games(queue(7, 8)) == Matching((), tuple(queue(7, 8)))


def test_hex_04_a_player_with_several_registrations_gets_them_in_different_games_oldest_first() -> None:
    """Player 7 registers three games (HEX-03); players 8 and 9 one each, then 8 and 9 again."""
    matching = form_games(queue(7, 7, 7, 8, 9, 8, 9))
    assert [ids(game) for game in matching.games] == [[1, 4, 5], [2, 6, 7]]
    assert ids(matching.waiting) == [3]


def test_hex_04_a_players_surplus_registrations_do_not_hold_up_other_players() -> None:
    """Registration 2 (player 7 again) is skipped for the first game and keeps its place for the next one."""
    matching = form_games(queue(7, 7, 8, 9, 10))
    assert [ids(game) for game in matching.games] == [[1, 3, 4]]
    assert ids(matching.waiting) == [2, 5]


def test_hex_04_registrations_of_only_two_players_wait_however_many_there_are() -> None:
    matching = form_games(queue(7, 7, 7, 8, 8, 8))
    assert matching.games == ()
    assert len(matching.waiting) == 6


def test_hex_04_the_game_size_is_the_products_seats() -> None:
    assert [ids(game) for game in form_games(queue(1, 2, 3, 4), seats=2).games] == [[1, 2], [3, 4]]


def test_hex_04_bad_queues_are_refused() -> None:
    with pytest.raises(RuleError, match="twice"):
        form_games([WaitingRegistration(1, 7), WaitingRegistration(1, 8)])
    with pytest.raises(RuleError):
        form_games([(1, 7)])  # type: ignore[list-item]
    with pytest.raises(RuleError):
        form_games(queue(1, 2, 3), seats=1)
    with pytest.raises(RuleError):
        WaitingRegistration(-1, 7)


batches = st.lists(st.tuples(st.integers(1, 6), st.integers(1, 4)), max_size=25)


@settings(max_examples=300, deadline=None)
@given(batches)
def test_hex_04_registering_batch_by_batch_forms_every_possible_game_and_never_seats_a_player_twice(
    arrivals: list[tuple[int, int]],
) -> None:
    """Each arrival is (player, number of games); the service matches after each. Every registration is in one game
    or waiting; no game has a player twice; afterwards fewer than three players are waiting (else a game would have
    been possible); and each game's first registration is the oldest one waiting when it was formed."""
    waiting: list[WaitingRegistration] = []
    formed: list[tuple[WaitingRegistration, ...]] = []
    next_id = 1
    for player, games in arrivals:
        for _ in range(games):
            waiting.append(WaitingRegistration(next_id, player))
            next_id += 1
        matching = form_games(waiting)
        remaining = list(waiting)
        for game in matching.games:
            assert game[0] == remaining[0]
            assert len({registration.player for registration in game}) == 3
            assert ids(game) == sorted(ids(game))
            remaining = [registration for registration in remaining if registration not in game]
        assert list(matching.waiting) == remaining
        assert len({registration.player for registration in matching.waiting}) < 3
        formed.extend(matching.games)
        waiting = list(matching.waiting)
    seated = [registration.registration for game in formed for registration in game] + ids(waiting)
    assert sorted(seated) == list(range(1, next_id))
