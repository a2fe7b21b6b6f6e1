"""TRN-44 / AMB-48: when several players win the pot(s) holding the eliminated player's last chips, the bounty is split
in the same proportion as those chips were split, each share rounded down and the odd cents given in ENG-27 order
(clockwise from the first seat after the button); all credited at once."""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.core.management import call_command

from tests.tournaments.bounty_support import (
    FIRST_HAND_AT,
    bounty_events,
    bounty_sit_and_go,
    entry_of,
    play_hand,
    shove,
    the_table,
    user_at,
)
from tests.tournaments.support import cash, register_players
from tournaments.models import TournamentBountyAward
from tournaments.rules.bounties import (
    BountyError,
    PotTaken,
    knock_out_awards,
    knock_out_fractions,
    pots_taken,
    progressive_parts,
    split_cents,
)

# Two players tie with the same straight on the board A K Q 2 3; the third player has no straight.
TIED = {1: "JcTc", 2: "JdTs", 3: "9h8h"}
BOARD = "AsKdQh2c3d"


@pytest.mark.django_db
def test_a_regular_bounty_of_10_01_split_between_two_tied_winners_gives_the_odd_cent_clockwise_from_the_button() -> (
    None
):
    tournament = bounty_sit_and_go(3, kind="regular", bounty=1_001)
    register_players(tournament, 3)
    table = the_table(tournament)
    first, second, out = user_at(table, 1), user_at(table, 2), user_at(table, 3)
    # Button at seat 3: everyone all in for 1,000 chips; seats 1 and 2 split the one pot, seat 3 is out.
    play_hand(table, TIED, BOARD, shove(), now=FIRST_HAND_AT, button=3)
    assert entry_of(tournament, out).bounty == 0
    paid = 100_000 - (1_000 + 1_001 + 100)
    assert cash(first) == paid + 501  # seat 1 is the first seat clockwise from the button: the odd cent
    assert cash(second) == paid + 500
    awards = {award.winner.user: award.cash for award in TournamentBountyAward.objects.filter(tournament=tournament)}
    assert awards == {first: 501, second: 500}
    (event,) = bounty_events(table)
    assert [winner["seat"] for winner in event["winners"]] == [1, 2]
    call_command("wallet_reconcile")


@pytest.mark.django_db
def test_a_progressive_split_bounty_is_split_first_then_each_share_50_50() -> None:
    tournament = bounty_sit_and_go(3, kind="progressive", bounty=1_001)
    register_players(tournament, 3)
    table = the_table(tournament)
    first, second = user_at(table, 1), user_at(table, 2)
    play_hand(table, TIED, BOARD, shove(), now=FIRST_HAND_AT, button=3)
    paid = 100_000 - (1_000 + 1_001 + 100)
    # Shares 501 / 500; of 501 the credited half is rounded down (250) and 251 joins the bounty.
    assert (cash(first), entry_of(tournament, first).bounty) == (paid + 250, 1_001 + 251)
    assert (cash(second), entry_of(tournament, second).bounty) == (paid + 250, 1_001 + 250)
    call_command("wallet_reconcile")


def test_the_eng_27_example_split_between_seats_2_and_5_button_at_4() -> None:
    shares = split_cents(1_001, {2: Fraction(1, 2), 5: Fraction(1, 2)}, button=4, table_size=9)
    assert shares == {5: 501, 2: 500}


def test_chips_in_the_main_pot_and_a_side_pot_won_by_different_players_split_the_bounty_by_those_chips() -> None:
    # Seat 1 all in for 100, seat 2 (eliminated) all in for 500, seat 3 calls 500: main pot 300 (won by seat 1),
    # side pot 800 (won by seat 3). Seat 2's chips: 100 in the main pot, 400 in the side pot.
    pots = pots_taken({1: 100, 2: 500, 3: 500}, folded=[], pot_winners=[[1], [3]], eliminated=2)
    assert pots == (PotTaken(100, (1,)), PotTaken(400, (3,)))
    assert knock_out_fractions(pots) == {1: Fraction(1, 5), 3: Fraction(4, 5)}
    awards = knock_out_awards(kind="regular", bounty=1_003, pots=pots, button=3, table_size=6)
    # Exact 200.6 / 802.4 → 200 / 802; the odd cent clockwise from the button at 3: seat 1 comes before seat 3.
    assert [(award.seat, award.cash) for award in awards] == [(1, 201), (3, 802)]
    assert sum(award.cash for award in awards) == 1_003


def test_a_side_pot_split_between_tied_winners_and_a_main_pot_to_one() -> None:
    pots = (PotTaken(100, (1,)), PotTaken(300, (3, 4)))
    awards = knock_out_awards(kind="regular", bounty=1_000, pots=pots, button=2, table_size=6, vip_bounty=0)
    # 1/4, 3/8, 3/8 of €10.00 → 250, 375, 375 exactly.
    assert {award.seat: award.cash for award in awards} == {1: 250, 3: 375, 4: 375}


def test_nobody_gets_more_than_their_exact_share_rounded_up() -> None:
    fractions = {1: Fraction(1, 3), 2: Fraction(1, 3), 3: Fraction(1, 3)}
    assert split_cents(100, fractions, button=3, table_size=3) == {1: 34, 2: 33, 3: 33}
    assert split_cents(100, fractions, button=1, table_size=3) == {2: 34, 3: 33, 1: 33}
    assert split_cents(0, fractions, button=1, table_size=3) == {1: 0, 2: 0, 3: 0}


def test_progressive_parts_round_the_credited_part_down() -> None:
    assert progressive_parts(1_000, 50, 50) == (500, 500)
    assert progressive_parts(1_001, 50, 50) == (500, 501)
    assert progressive_parts(999, 30, 70) == (299, 700)
    with pytest.raises(BountyError, match="add up to 100"):
        progressive_parts(1_000, 50, 40)


def test_a_pot_won_by_the_eliminated_player_is_refused() -> None:
    with pytest.raises(BountyError):
        pots_taken({1: 100, 2: 100}, folded=[], pot_winners=[[2]], eliminated=2)
