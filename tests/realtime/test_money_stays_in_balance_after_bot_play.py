"""Money soak over the sockets: after many bot hands with random joins, leaves and dropped connections the ledger
reconciles, chips at the tables equal the money in the table accounts, and every cent is accounted for (GEN-06).

(The domain's soak drives the services directly; this one goes through daphne, the consumers and the ticker.)
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.db.models import Sum

from tests.realtime.conftest import pause_between_hands, seed_catalog
from tests.realtime.live_site import live_site, run_bots_until
from tests.realtime.test_run_bots_plays_hands_over_a_live_site import (
    assert_only_expected_refusals,
    wait_until_no_hand_runs,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

HANDS_PLAYED = 12
"""The bots play until this many hands have finished (and some bot has left and some dropped its connection): twice
the hands the checks below ask for, and more than the 45 s of play this test ran before gave on a loaded machine."""


def test_ledger_reconciles_and_table_chips_match_table_accounts_after_bot_play(tmp_path: Path) -> None:
    from games.models import Hand, HandStatus, TableSession
    from games.services import table_snapshot
    from wallet.models import Account, AccountKind
    from wallet.services.reconcile import ledger_reconcile

    def enough_play(summary: dict[str, int]) -> bool:
        return (
            summary["leaves"] > 0
            and summary["disconnects"] > 0
            and Hand.objects.filter(status=HandStatus.FINISHED).count() >= HANDS_PLAYED
        )

    seed_catalog()
    pause_between_hands(500)  # the bots' hands follow one another without the pause people need to read a result
    with live_site(tmp_path) as base_url:
        completed = run_bots_until(
            base_url,
            enough_play,
            "--tables",
            "2",
            "--bots-per-table",
            "4",
            "--think",
            "0.02",
            "0.15",
            "--leave-probability",
            "0.15",
            "--disconnect-probability",
            "0.04",
            "--seed",
            "7",
        )
        wait_until_no_hand_runs()
    assert completed.returncode == 0, completed.stderr[-3000:]
    summary = json.loads(completed.stdout.strip().splitlines()[-1])
    assert_only_expected_refusals(summary["errors"])
    assert summary["leaves"] > 0
    assert summary["disconnects"] > 0
    finished = Hand.objects.filter(status=HandStatus.FINISHED)
    assert finished.count() >= 6, summary

    assert ledger_reconcile() == []

    # Chips at the tables are exactly the money in the open table accounts; closed ones are empty.
    for session in TableSession.objects.select_related("account", "table"):
        if session.ended_at is not None:
            assert session.account.balance == 0, session
            continue
        snapshot = table_snapshot(session.table, session.user)
        seat = next(seat for seat in snapshot["seats"] if seat.get("user_id") == session.user_id)
        assert seat["stack"] == session.account.balance, session

    def total(kind: str) -> int:
        return int(Account.objects.filter(kind=kind).aggregate(total=Sum("balance"))["total"] or 0)

    deposited = -total(AccountKind.OUTSIDE_WORLD)
    rake = int(finished.aggregate(total=Sum("rake"))["total"] or 0)
    assert total(AccountKind.HOUSE_RAKE) == rake
    assert total(AccountKind.PLAYER_CASH) + total(AccountKind.TABLE_SESSION) + rake == deposited
