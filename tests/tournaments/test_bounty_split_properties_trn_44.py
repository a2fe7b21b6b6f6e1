"""Properties of the bounty split (TRN-44, AMB-48, ENG-27): whatever the pots, every cent of the bounty (and of a VIP
bounty) is paid, to the winners only, nobody more than a cent from their exact share; with one pot the split is
exactly ENG-27's odd-chip rule; a progressive award keeps every cent (credited + added = the share)."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from games.engine.odd_chips import split_amount
from games.engine.pots import layer_pots
from tournaments.rules.bounties import knock_out_awards, knock_out_fractions, pots_taken, split_cents

SEATS = 9


@st.composite
def knock_outs(draw: st.DrawFn) -> tuple[dict[int, int], list[list[int]], int, int]:
    """A hand where the eliminated seat put all its chips in and won nothing: contributions, each pot's winners
    (drawn among its eligible seats other than the eliminated one), the eliminated seat and the button."""
    seats = draw(st.lists(st.integers(1, SEATS), min_size=2, max_size=6, unique=True))
    eliminated = seats[0]
    contributions = {seat: draw(st.integers(1, 5_000)) for seat in seats}
    pots = layer_pots([contributions[seat] for seat in seats], [False] * len(seats))
    winners = []
    for _amount, eligible in pots:
        candidates = [seats[index] for index in eligible if seats[index] != eliminated]
        if not candidates:  # only the eliminated seat reached this level: it would have won it back
            return draw(knock_outs())
        chosen = draw(st.lists(st.sampled_from(candidates), min_size=1, max_size=len(candidates), unique=True))
        winners.append(sorted(chosen))
    return contributions, winners, eliminated, draw(st.integers(1, SEATS))


@given(knock_outs(), st.integers(0, 100_000), st.integers(0, 50_000), st.sampled_from(["regular", "progressive"]))
def test_every_cent_is_paid_to_the_winners_within_a_cent_of_their_exact_share(
    hand: tuple[dict[int, int], list[list[int]], int, int], bounty: int, vip: int, kind: str
) -> None:
    contributions, winners, eliminated, button = hand
    pots = pots_taken(contributions, folded=[], pot_winners=winners, eliminated=eliminated)
    fractions = knock_out_fractions(pots)
    assert sum(fractions.values()) == 1
    awards = knock_out_awards(kind=kind, bounty=bounty, pots=pots, button=button, table_size=SEATS, vip_bounty=vip)
    assert sum(award.cash + award.added_to_bounty for award in awards) == bounty
    assert sum(award.vip for award in awards) == vip
    for award in awards:
        assert award.seat in fractions
        exact = bounty * fractions[award.seat]
        assert abs(award.cash + award.added_to_bounty - exact) < 1
        if kind == "progressive":
            assert award.cash == (award.cash + award.added_to_bounty) // 2
        else:
            assert award.added_to_bounty == 0


@given(
    st.integers(0, 100_000),
    st.lists(st.integers(1, SEATS), min_size=1, max_size=SEATS, unique=True),
    st.integers(1, SEATS),
)
def test_one_pot_split_equally_is_exactly_eng_27(bounty: int, winners: list[int], button: int) -> None:
    share = Fraction(1, len(winners))
    assert split_cents(bounty, dict.fromkeys(winners, share), button, SEATS) == split_amount(
        bounty, winners, button, SEATS
    )
