"""ENG-07 / TRN-29 acceptance: in a simulated tournament table with random eliminations no player posts the big blind
twice in a row and no player still in the event is skipped for the big blind within an orbit (TRN-05 start)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.positions import next_hand_positions, tournament_first_button


@st.composite
def tournaments(draw: st.DrawFn) -> tuple[int, list[int], list[list[int]]]:
    table_size = draw(st.integers(2, 10))
    seats = sorted(draw(st.lists(st.integers(1, table_size), min_size=2, max_size=table_size, unique=True)))
    # For each hand, which players bust during it (any of them, including the blinds and the button).
    eliminations = draw(st.lists(st.lists(st.sampled_from(seats), max_size=2, unique=True), min_size=5, max_size=60))
    return table_size, seats, eliminations


@settings(max_examples=300, deadline=None)
@given(tournament=tournaments())
def test_eng_07_the_big_blind_never_skips_a_player_and_never_falls_twice_in_a_row(
    tournament: tuple[int, list[int], list[list[int]]],
) -> None:
    table_size, seats, eliminations = tournament
    remaining = set(seats)
    positions = next_hand_positions(
        table_size=table_size, previous=None, ready=remaining, first_button=tournament_first_button(remaining)
    )
    assert positions.button == max(seats)  # TRN-05
    for busted in eliminations:
        previous = positions
        remaining -= set(busted)
        if len(remaining) < 2:
            break
        positions = next_hand_positions(table_size=table_size, previous=previous.as_previous(), ready=remaining)
        assert set(positions.dealt_in) == remaining  # tournament players are always dealt in
        big_blind = positions.big_blind
        assert big_blind != previous.big_blind, "no player gets the big blind twice in a row"
        # Nobody still in the tournament sits strictly between the previous big blind and this one (no skip).
        distance = (big_blind - previous.big_blind) % table_size
        skipped = [seat for seat in remaining if 0 < (seat - previous.big_blind) % table_size < distance]
        assert skipped == [], f"big blind moved {previous.big_blind} -> {big_blind} skipping {skipped}"
        if positions.small_blind is not None and len(remaining) > 2:
            assert positions.small_blind == previous.big_blind
        if len(remaining) == 2:
            assert positions.small_blind == positions.button != big_blind  # ENG-04 / TRN-29


@settings(max_examples=100, deadline=None)
@given(tournament=tournaments())
def test_eng_07_over_an_orbit_every_remaining_player_posts_the_big_blind_exactly_once(
    tournament: tuple[int, list[int], list[list[int]]],
) -> None:
    table_size, seats, _ = tournament
    remaining = set(seats)
    positions = next_hand_positions(
        table_size=table_size, previous=None, ready=remaining, first_button=tournament_first_button(remaining)
    )
    big_blinds = [positions.big_blind]
    for _ in range(len(remaining) - 1):
        positions = next_hand_positions(table_size=table_size, previous=positions.as_previous(), ready=remaining)
        big_blinds.append(positions.big_blind)
    assert sorted(big_blinds) == sorted(remaining)
