"""TRN-23 / TRN-24 (seed 002 #43): when hand-for-hand switches on while other tables are still playing a hand, a table
that has finished waits: the first synchronized round is dealt only once every table has finished the hand it was
playing. Knock-outs of a hand begun before the switch are ordinary eliminations (placed hand by hand), not part of the
first round; the knock-outs of one synchronized round, at different tables, are placed together by the chips their
players started the hand with, even when hand-for-hand is switched off while the round is in play."""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from games.models import Table
from games.services import hand_start
from tests.tournaments.bounty_support import deal_hand, hand_play_out, play_hand, shove, user_at
from tests.tournaments.support import fresh, open_tables, register_players, scheduled
from tournaments.models import EntryStatus, HandForHandMode, Tournament, TournamentEntry
from tournaments.services import tournament_hand_for_hand_set, tournaments_advance_all

pytestmark = pytest.mark.django_db

LOSER = "7c2d"
BOARD = "3s8h9dJcQs"
EVERYONE_FOLDS = shove(99)  # nobody calls: check or fold


def coordinate(now: datetime) -> None:
    tournaments_advance_all(now=now, randomness=random.Random(3))


def started_tournament(tables: int) -> tuple[Tournament, list[Table], datetime]:
    """A tournament of three-seat tables, full, with hand-for-hand left to staff; started and ready to deal."""
    tournament = scheduled(table_size=3, hand_for_hand_mode=HandForHandMode.OFF)
    register_players(tournament, 3 * tables)
    assert tournament.starts_at is not None
    coordinate(tournament.starts_at)
    first_deal = tournament.starts_at + timedelta(seconds=10)
    coordinate(first_deal)
    found = open_tables(tournament)
    assert len(found) == tables
    return tournament, found, first_deal


def staff_switch(tournament: Tournament, mode: str, now: datetime) -> None:
    staff, _ = get_user_model().objects.get_or_create(username="floor", defaults={"is_staff": True})
    tournament_hand_for_hand_set(tournament, mode, actor=staff, reason="the floor's call", now=now)
    coordinate(now)


def switch_on(tournament: Tournament, now: datetime) -> None:
    staff_switch(tournament, HandForHandMode.ON, now)
    assert fresh(tournament).hand_for_hand


def entry(tournament: Tournament, user: Any) -> TournamentEntry:
    return TournamentEntry.objects.get(tournament=tournament, user=user)


def refuses_to_deal(table: Table, now: datetime) -> bool:
    return hand_start(table, now=now) is None


def test_with_two_tables_the_first_round_waits_for_the_hand_still_in_play_and_its_knock_out_is_ordinary() -> None:
    tournament, (table_a, table_b), now = started_tournament(2)
    a_busted, b_busted = user_at(table_a, 3), user_at(table_b, 3)
    # Table B deals and is still playing when table A's hand ends with a knock-out (before the switch).
    hand_b = deal_hand(table_b, {1: "KcKd", 2: "AsAh", 3: LOSER}, BOARD, now=now, button=3)
    play_hand(table_a, {1: "AsAh", 2: "KcKd", 3: LOSER}, BOARD, shove(3, 1), now=now, button=3)
    coordinate(now)
    assert entry(tournament, a_busted).place == 6

    now += timedelta(seconds=5)
    switch_on(tournament, now)
    assert fresh(tournament).hand_for_hand_round == 1
    # Table A has finished; it waits for table B's hand, begun before the switch (TRN-23).
    assert refuses_to_deal(table_a, now)

    now += timedelta(seconds=5)
    hand_play_out(table_b, hand_b, shove(3, 2), now=now)  # table B's knock-out, in a hand dealt before the switch
    knocked_out = entry(tournament, b_busted)
    assert knocked_out.status == EntryStatus.BUSTED
    assert knocked_out.hand_for_hand_round is None  # not part of the first synchronized round (TRN-24)
    coordinate(now)
    assert entry(tournament, b_busted).place == 5  # placed at once, as an ordinary elimination

    # Now round 1 is dealt at both tables; each then waits for the other to finish it.
    now += timedelta(seconds=5)
    a_small, b_small = user_at(table_a, 2), user_at(table_b, 1)  # 980 and 990 chips at the start of the round
    play_hand(table_a, {1: "AsAh", 2: LOSER}, BOARD, shove(), now=now, button=2)
    assert entry(tournament, a_small).hand_for_hand_round == 1
    coordinate(now)
    assert entry(tournament, a_small).place is None  # the round is still in play at table B
    assert refuses_to_deal(table_a, now)
    now += timedelta(seconds=5)
    play_hand(table_b, {1: LOSER, 2: "AsAh"}, BOARD, shove(), now=now, button=1)
    coordinate(now)
    # TRN-24: the player who busted first, with fewer chips at the start of the hand, finishes lower.
    assert (entry(tournament, a_small).chips_at_hand_start, entry(tournament, b_small).chips_at_hand_start) == (
        980,
        990,
    )
    assert (entry(tournament, a_small).place, entry(tournament, b_small).place) == (4, 3)


def test_with_three_tables_the_first_round_waits_for_every_hand_begun_before_the_switch() -> None:
    tournament, (table_a, table_b, table_c), now = started_tournament(3)
    a_busted, b_busted = user_at(table_a, 3), user_at(table_b, 3)
    hand_b = deal_hand(table_b, {1: "KcKd", 2: "AsAh", 3: LOSER}, BOARD, now=now, button=3)
    hand_c = deal_hand(table_c, {1: "KcKd", 2: "AsAh", 3: LOSER}, BOARD, now=now, button=3)
    play_hand(table_a, {1: "AsAh", 2: "KcKd", 3: LOSER}, BOARD, shove(3, 1), now=now, button=3)
    coordinate(now)
    assert entry(tournament, a_busted).place == 9

    now += timedelta(seconds=5)
    switch_on(tournament, now)
    assert refuses_to_deal(table_a, now)

    now += timedelta(seconds=5)
    hand_play_out(table_b, hand_b, shove(3, 2), now=now)
    coordinate(now)
    assert entry(tournament, b_busted).hand_for_hand_round is None
    assert entry(tournament, b_busted).place == 8
    # Table C is still playing its hand begun before the switch: neither finished table deals.
    assert refuses_to_deal(table_a, now)
    assert refuses_to_deal(table_b, now)

    now += timedelta(seconds=5)
    hand_play_out(table_c, hand_c, EVERYONE_FOLDS, now=now)  # no knock-out: 2, 2 and 3 players left
    coordinate(now)

    # Round 1 at all three tables, with a knock-out at tables C and A (table A's hand ends last).
    now += timedelta(seconds=5)
    c_busted, a_small = user_at(table_c, 3), user_at(table_a, 2)
    hand_a = deal_hand(table_a, {1: "AsAh", 2: LOSER}, BOARD, now=now, button=2)
    play_hand(table_b, {1: "KcKd", 2: "AsAh"}, BOARD, EVERYONE_FOLDS, now=now, button=2)
    coordinate(now)
    assert refuses_to_deal(table_b, now)
    play_hand(table_c, {1: "KcKd", 2: "AsAh", 3: LOSER}, BOARD, shove(3, 2), now=now, button=1)
    coordinate(now)  # six players left: table B or C, between hands, is broken up
    assert entry(tournament, c_busted).place is None  # table A is still playing the round
    # Switched off now (as when the bubble bursts): the round in play is finished first, its knock-outs together.
    staff_switch(tournament, HandForHandMode.OFF, now)
    assert fresh(tournament).hand_for_hand
    hand_play_out(table_a, hand_a, shove(), now=now)
    coordinate(now)
    assert not fresh(tournament).hand_for_hand
    busted = (entry(tournament, c_busted), entry(tournament, a_small))
    assert [knocked_out.hand_for_hand_round for knocked_out in busted] == [1, 1]
    assert [knocked_out.chips_at_hand_start for knocked_out in busted] == [1_000, 980]
    assert [knocked_out.place for knocked_out in busted] == [6, 7]
