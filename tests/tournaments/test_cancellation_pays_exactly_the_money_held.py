"""Property (CXL-01..CXL-10): in every state, money paid + tickets re-credited + what stays with the house equals the
money held for the tournament (prize pool + added money + fees + bounties − what was already paid), to the cent;
no amount is negative and no pool share is a cent or more away from its exact value (AMB-17)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.rules.cancellation import (
    CancellationCalculation,
    CancellationState,
    HexaProAtCancellation,
    PaidWith,
    Purchase,
    PurchaseKind,
    RemainingPlayer,
    TournamentAtCancellation,
    cancel,
)

LATER_PURCHASES = [PurchaseKind.RE_ENTRY, PurchaseKind.RE_BUY, PurchaseKind.ADD_ON]


@st.composite
def purchases(draw: st.DrawFn, players: list[str]) -> list[Purchase]:
    bought = []
    for player in players:
        for number in range(draw(st.integers(1, 3))):
            bought.append(
                Purchase(
                    reference=f"{player}-{number}",
                    player=player,
                    kind=PurchaseKind.ENTRY if number == 0 else draw(st.sampled_from(LATER_PURCHASES)),
                    prize_contribution_cents=draw(st.integers(0, 50_000)),
                    fee_cents=draw(st.integers(0, 5_000)),
                    bounty_cents=draw(st.integers(0, 2_000)),
                    paid_with=draw(st.sampled_from(PaidWith)),
                )
            )
    return bought


@st.composite
def prize_table(draw: st.DrawFn, total: int, places: int) -> tuple[int, ...]:
    """``places`` positive prizes, never increasing, adding up to ``total`` (≥ places)."""
    if places <= 1:
        return (total,) * places
    cuts = sorted(draw(st.lists(st.integers(1, total - 1), min_size=places - 1, max_size=places - 1, unique=True)))
    bounds = [0, *cuts, total]
    return tuple(sorted((bounds[i + 1] - bounds[i] for i in range(places)), reverse=True))


@st.composite
def tournaments(draw: st.DrawFn, state: CancellationState) -> TournamentAtCancellation:
    players = [f"p{number}" for number in range(1, draw(st.integers(2, 14)) + 1)]
    bought = draw(purchases(players))
    freeroll = draw(st.booleans())
    added = draw(st.integers(0, 100_000))
    if state is CancellationState.BEFORE_START:
        return TournamentAtCancellation(tuple(bought), started=False, added_money_cents=added, freeroll=freeroll)
    count = draw(st.integers(1, min(len(players), 8)))
    names = draw(st.permutations(players))[:count]
    seats = draw(st.permutations(range(1, count + 1)))
    stacks = draw(st.lists(st.integers(1, 200_000), min_size=count, max_size=count))
    if state is CancellationState.STARTED_NOT_IN_THE_MONEY:
        places = draw(st.integers(0, count - 1))
    else:
        places = draw(st.integers(count, count + 5))
    prize_money = sum(purchase.prize_contribution_cents for purchase in bought) + added
    if prize_money < places:
        added += places - prize_money
        prize_money = places
    bounty_money = sum(purchase.bounty_cents for purchase in bought)
    paid_bounties = draw(st.integers(0, bounty_money))
    split = sorted(draw(st.lists(st.integers(0, bounty_money - paid_bounties), min_size=count - 1, max_size=count - 1)))
    bounds = [0, *split, bounty_money - paid_bounties]
    remaining = tuple(
        RemainingPlayer(name, stack, seat, bounty_cents=bounds[i + 1] - bounds[i])
        for i, (name, stack, seat) in enumerate(zip(names, stacks, seats, strict=True))
    )
    return TournamentAtCancellation(
        purchases=tuple(bought),
        started=True,
        remaining=remaining,
        prizes=draw(prize_table(prize_money, places)),
        at_final_table=state is CancellationState.FINAL_TABLE,
        added_money_cents=added,
        freeroll=freeroll,
        bounties_paid_cents=paid_bounties,
    )


def assert_pays_exactly_the_money_held(calculation: CancellationCalculation) -> None:
    paid = calculation.paid_in_money_cents + calculation.tickets_recredited_cents + calculation.kept_by_house_cents
    assert paid == calculation.money_held.total_cents
    for compensation in calculation.compensations:
        assert compensation.money_cents >= 0
        assert abs(compensation.pool_share_cents - compensation.pool_share_exact) < 1
    assert all(kept.cents > 0 for kept in calculation.kept_by_house)


STATES = [
    CancellationState.BEFORE_START,
    CancellationState.STARTED_NOT_IN_THE_MONEY,
    CancellationState.IN_THE_MONEY,
    CancellationState.FINAL_TABLE,
]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data(), state=st.sampled_from(STATES))
def test_cxl02_to_cxl10_any_cancelled_tournament_pays_out_exactly_the_money_held(
    data: st.DataObject, state: CancellationState
) -> None:
    tournament = data.draw(tournaments(state))
    calculation = cancel(tournament)
    assert calculation.state is state
    assert_pays_exactly_the_money_held(calculation)


HEXAPRO_PAYOUTS = [(100,), (80, 12, 8), (80, 16, 4)]
HEXAPRO_BUY_INS = [20, 50, 100, 200, 500, 1_000, 2_500, 5_000, 10_000]
HEXAPRO_MULTIPLIERS_IN_TENTHS = [10, 15, 30, 40, 50, 100, 200, 250, 1_000, 1_250, 10_000]


@settings(max_examples=200, deadline=None)
@given(
    buy_in=st.sampled_from(HEXAPRO_BUY_INS),
    multiplier_in_tenths=st.sampled_from(HEXAPRO_MULTIPLIERS_IN_TENTHS),
    payout=st.sampled_from(HEXAPRO_PAYOUTS),
    left=st.integers(1, 3),
    stacks=st.lists(st.integers(1, 3_000), min_size=3, max_size=3),
)
def test_cxl09_any_cancelled_hexapro_game_pays_out_exactly_the_money_held(
    buy_in: int, multiplier_in_tenths: int, payout: tuple[int, ...], left: int, stacks: list[int]
) -> None:
    pool = buy_in * multiplier_in_tenths // 10
    already_paid = sum(pool * share for share in payout[left:])
    if already_paid % 100:
        return  # such a game's lower prizes would not be whole cents (HEX-09 tables never do this)
    names = ["anna", "bert", "cleo"]
    game = HexaProAtCancellation(
        remaining=tuple(RemainingPlayer(names[i], stacks[i], i + 1) for i in range(left)),
        eliminated=tuple(names[left:]),
        prize_pool_cents=pool,
        payout_percentages=payout,
        fee_component_cents=(buy_in * 6_853 + 50_000) // 100_000,
    )
    calculation = cancel(game)
    assert_pays_exactly_the_money_held(calculation)
    assert sum(share.pool_share_cents for share in calculation.compensations) == pool - already_paid // 100
