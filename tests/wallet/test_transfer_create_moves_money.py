"""transfer_create moves money between accounts in balanced, recorded transfers."""

from __future__ import annotations

from poker_site.accounts.models import User
from tests.wallet.conftest import new_key
from wallet.models import AccountKind, Leg, Transfer
from wallet.services import (
    TransferLeg,
    balance_of,
    player_cash_account,
    reference_account,
    system_account,
    transfer_create,
)


def test_a_buy_in_moves_cents_from_cash_to_the_table_session(alice: User) -> None:
    cash = player_cash_account(alice)
    session = reference_account(AccountKind.TABLE_SESSION, "table-session:1", owner=alice)

    transfer = transfer_create(
        kind="cash_buy_in",
        legs=[TransferLeg(cash, -2_500), TransferLeg(session, 2_500)],
        idempotency_key=new_key(),
        reference="table-session:1",
        description="Buy-in at NL10 table 1",
        created_by=alice,
    )

    assert balance_of(cash) == 7_500
    assert balance_of(session) == 2_500
    legs = {leg.account_id: (leg.amount, leg.balance_after) for leg in transfer.legs.all()}
    assert legs == {cash.pk: (-2_500, 7_500), session.pk: (2_500, 2_500)}
    assert transfer.kind == "cash_buy_in"
    assert transfer.reference == "table-session:1"
    assert transfer.created_by == alice
    assert transfer.currency == "EUR"


def test_a_hand_settlement_with_rake_has_many_legs_and_sums_to_zero(alice: User, bob: User) -> None:
    alice_session = reference_account(AccountKind.TABLE_SESSION, "table-session:a", owner=alice)
    bob_session = reference_account(AccountKind.TABLE_SESSION, "table-session:b", owner=bob)
    for player, session in ((alice, alice_session), (bob, bob_session)):
        transfer_create(
            kind="cash_buy_in",
            legs=[TransferLeg(player_cash_account(player), -1_000), TransferLeg(session, 1_000)],
            idempotency_key=new_key(),
            reference=session.reference,
        )
    rake = system_account(AccountKind.HOUSE_RAKE)

    transfer_create(
        kind="hand_settlement",
        legs=[TransferLeg(alice_session, -400), TransferLeg(bob_session, 380), TransferLeg(rake, 20)],
        idempotency_key=new_key(),
        reference="hand:1",
    )

    assert (balance_of(alice_session), balance_of(bob_session), balance_of(rake)) == (600, 1_380, 20)
    assert sum(Leg.objects.values_list("amount", flat=True)) == 0


def test_house_uth_result_may_go_negative_when_the_house_loses_a_round(alice: User) -> None:
    bets = reference_account(AccountKind.UTH_BETS_IN_PLAY, "uth-round:55", owner=alice)
    house = system_account(AccountKind.HOUSE_UTH_RESULT)
    cash = player_cash_account(alice)
    transfer_create(
        kind="uth_bet",
        legs=[TransferLeg(cash, -2_000), TransferLeg(bets, 2_000)],
        idempotency_key=new_key(),
        reference="uth-round:55",
    )

    transfer_create(
        kind="uth_settlement",
        legs=[TransferLeg(bets, -2_000), TransferLeg(house, -1_500), TransferLeg(cash, 3_500)],
        idempotency_key=new_key(),
        reference="uth-round:55",
    )

    assert balance_of(house) == -1_500
    assert balance_of(cash) == 10_000 - 2_000 + 3_500
    assert balance_of(bets) == 0


def test_account_helpers_return_the_same_account_each_time(alice: User) -> None:
    assert player_cash_account(alice) == player_cash_account(alice)
    assert system_account(AccountKind.HOUSE_RAKE) == system_account(AccountKind.HOUSE_RAKE)
    assert reference_account(AccountKind.TOURNAMENT_PRIZE_POOL, "tournament:7") == reference_account(
        AccountKind.TOURNAMENT_PRIZE_POOL, "tournament:7"
    )
    assert system_account(AccountKind.OUTSIDE_WORLD).may_go_negative
    assert not system_account(AccountKind.CHARITY).may_go_negative
    assert not player_cash_account(alice).may_go_negative
    assert Transfer.objects.filter(kind="deposit").count() == 1
