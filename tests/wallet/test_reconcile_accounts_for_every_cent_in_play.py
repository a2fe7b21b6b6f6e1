"""Issue 30 (LOB-09, GEN-01): ``wallet_reconcile`` accounts for all money in play. With money planted in every place it
can be — players' cash, a cash table in a hand, a running tournament's prize pool and its bounty pool after a
knock-out, UTH bets in play, a ticket, a hold, an unresolved game and a pending withdrawal — every place's ledger total
equals what its own records say, the places sum to zero and the command passes; a record or a balance that differs
is reported, naming the account and the place."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from io import StringIO
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from games.services import seed_stakes
from games.uth.models import UthHand, UthTable
from games.uth.services import uth_bet_place, uth_seat_take
from games.uth.ticks import advance_uth_tables
from tests.tables.support import deal, open_table, seat_players
from tests.tournaments.bounty_support import FIRST_HAND_AT, bounty_sit_and_go, play_hand, shove, the_table
from tests.tournaments.support import START, player, register_players
from tests.tournaments.tickets_support import series, ticket_for
from tournaments.models import TournamentEntry, TournamentTicket
from tournaments.services.money import bounty_pool_account, prize_pool_account
from wallet.models import AccountKind
from wallet.services import (
    TransferLeg,
    hold_create,
    ledger_reconcile,
    player_cash_account,
    reference_account,
    system_account,
    transfer_create,
    unresolved_game_open,
    withdrawal_request,
)
from wallet.services.reconcile import StatementLine, money_statement

pytestmark = pytest.mark.django_db(transaction=False)


@pytest.fixture(autouse=True)
def played_without_sockets(monkeypatch: pytest.MonkeyPatch) -> None:
    """As the table and tournament tests play: no Redis publishing, the sockets' presence unknown."""
    from games.runtime import presence, realtime
    from tournaments import realtime as tournament_realtime
    from tournaments import tasks

    monkeypatch.setattr(realtime, "table_events_committed", lambda *args: None)
    monkeypatch.setattr(realtime, "lobby_table_changed", lambda *args: None)
    monkeypatch.setattr(presence, "has_live_socket", lambda user_id, table_id: None)
    monkeypatch.setattr(tournament_realtime, "tournament_changed", lambda *args: None)
    monkeypatch.setattr(tasks, "tournament_coordinate_later", lambda *args: None)
    monkeypatch.setattr(tasks, "entry_prize_credit_later", lambda *args: None)


PLACES_WITH_MONEY = (
    "players' cash",
    "withheld for review",
    "unresolved game funds",
    "withdrawals awaiting payout",
    "the house and charity",
    "the outside world (deposits less withdrawals)",
    "cash tables (chips of the seated players)",
    "UTH bets in play",
    "tournament prize pools and HexaPro waiting buy-ins",
    "tournament bounty pools",
    "tournament tickets outstanding",
)


def _money_everywhere() -> dict[str, Any]:
    """Plant money in every place, each through its own service."""
    seed_stakes()
    table = open_table()
    seat_players(table, [player(), player(), player()], buy_in=1_000)
    deal(table)  # a hand in play: the table accounts hold the start stacks

    tournament = bounty_sit_and_go(3, kind="regular", bounty=500)
    register_players(tournament, 3)  # full: it starts, the prize pool is fixed
    play_hand(
        the_table(tournament), {1: "AsAh", 2: "KcKd", 3: "7c2d"}, "3s8h9dJcQs", shove(3, 1), now=FIRST_HAND_AT, button=3
    )

    uth = UthTable.objects.create(name="Reconciled UTH", next_round_at=START)
    gambler = player()
    uth_seat_take(gambler, uth.pk, now=START)
    advance_uth_tables(START)
    hand = uth_bet_place(gambler, uth.pk, "ante", 500, now=START)

    holder = player()
    ticket = ticket_for(holder, series_row=series(), now=START, expires_at=START + timedelta(days=3650))
    hold_create(player_cash_account(holder), 2_500, "Collusion review", "case:1")
    withdrawal_request(holder, 3_000, "w-reconcile")
    unresolved_game_open(
        game_reference="hand:991",
        contributions=[TransferLeg(player_cash_account(holder), 700)],
        idempotency_key="hand:991:unresolved",
    )
    return {"tournament": tournament, "uth_hand": hand, "ticket": ticket}


def _lines() -> dict[str, StatementLine]:
    return {line.label: line for line in money_statement()}


def test_with_money_in_every_place_each_place_matches_its_records_and_all_sum_to_zero() -> None:
    _money_everywhere()

    lines = _lines()
    for label in PLACES_WITH_MONEY:
        assert lines[label].ledger != 0, f"no money planted in {label}"
    for line in lines.values():
        assert line.difference == 0, line
    assert lines["UTH bets in play"].ledger == lines["UTH bets in play"].records == 1_000  # ANTE + BLIND
    assert lines["tournament bounty pools"].records == 1_000  # two players still in, €5.00 each
    assert lines["tournament prize pools and HexaPro waiting buy-ins"].records == 3_000  # running, nothing paid yet
    assert lines["tournament tickets outstanding"].records == 1_100
    assert not any(label.startswith("other:") for label in lines)
    assert sum(line.ledger for line in lines.values()) == 0
    assert ledger_reconcile() == []

    output = StringIO()
    call_command("wallet_reconcile", "--statement", stdout=output)
    text = output.getvalue()
    assert "UTH bets in play" in text
    assert "tournament bounty pools" in text
    assert "Ledger reconciled" in text


def _book(source: Any, target: Any, cents: int) -> None:
    """A booking by hand, balanced (as a one-person adjustment could have done before issue 30)."""
    transfer_create(
        kind="staff_adjustment",
        legs=[TransferLeg(source, -cents), TransferLeg(target, cents)],
        idempotency_key=f"by-hand:{target.pk}",
        reference="test-tampering",
    )


def _sql(statement: str, *params: Any) -> None:
    with connection.cursor() as cursor:
        cursor.execute(statement, list(params))


TAMPERING: dict[str, tuple[Callable[[dict[str, Any]], Any], str, str]] = {
    "running prize pool booked by hand": (
        lambda planted: _book(
            system_account(AccountKind.HOUSE_GUARANTEE), prize_pool_account(planted["tournament"]), 200
        ),
        "tournament prize pools and HexaPro waiting buy-ins",
        "the prize pool of the running tournament less the prizes paid total €30.00: €2.00 more than it must.",
    ),
    "a bounty changed behind the ledger's back": (
        lambda planted: TournamentEntry.objects.filter(
            pk=TournamentEntry.objects.filter(tournament=planted["tournament"], bounty__gt=0).order_by("pk")[0].pk
        ).update(bounty=600),
        "tournament bounty pools",
        "the current bounties of the players still in total €11.00: €1.00 less than it must.",
    ),
    "a UTH stake changed behind the ledger's back": (
        lambda planted: UthHand.objects.filter(pk=planted["uth_hand"].pk).update(ante=400),
        "UTH bets in play",
        "the stakes of its round's hands in play total €8.00: €2.00 more than it must.",
    ),
    "a ticket's value changed behind the ledger's back": (
        lambda planted: TournamentTicket.objects.filter(pk=planted["ticket"].pk).update(value=1_000),
        "tournament tickets outstanding",
        "should hold 1000 cents; its account holds 1100.",
    ),
}


@pytest.mark.parametrize("tampering", list(TAMPERING))
def test_a_place_whose_money_and_records_differ_is_reported(tampering: str) -> None:
    planted = _money_everywhere()
    tamper, place, sentence = TAMPERING[tampering]

    tamper(planted)

    problems = ledger_reconcile()
    assert any(sentence in problem for problem in problems), problems
    assert _lines()[place].difference != 0
    errors = StringIO()
    with pytest.raises(CommandError, match="does not reconcile"):
        call_command("wallet_reconcile", "--statement", stdout=StringIO(), stderr=errors)
    assert sentence in errors.getvalue()


def test_the_bounty_pool_account_is_named_in_the_report() -> None:
    planted = _money_everywhere()
    pool = bounty_pool_account(planted["tournament"])
    _book(pool, system_account(AccountKind.HOUSE_SEIZED), 100)
    (problem, *_rest) = [p for p in ledger_reconcile() if f"#{pool.pk}" in p]
    assert "holds €9.00 but the current bounties of the players still in total €10.00" in problem


def test_money_on_a_pool_no_tournament_owns_is_reported_by_the_statement() -> None:
    """The accounts of a place are checked against their records one by one; an account no record names (a prize
    pool of no tournament) is caught by the place's total."""
    _money_everywhere()
    orphan = reference_account(AccountKind.TOURNAMENT_PRIZE_POOL, "tournament:nobody")
    _book(system_account(AccountKind.HOUSE_GUARANTEE), orphan, 300)

    assert ledger_reconcile() == [
        "Money in play: tournament prize pools and HexaPro waiting buy-ins hold €33.00 in the ledger but their records "
        "say €30.00: €3.00 more than they must."
    ]
