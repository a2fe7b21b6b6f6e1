"""A hand cut off by a crash is cancelled at start-up and every stack is what it was when the hand began
(CASH-23, CASH-24, GEN-04). The crash is real: a process playing the hand is killed with SIGKILL."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from django.conf import settings

from games.models import Hand, HandEvent, HandPlayer, HandStatus, Seat
from games.runtime.recovery import CRASH_REASON
from games.services import hand_cancel, hands_recover_unfinished, seat_leave, table_snapshot
from tests.conftest import site_database_url
from tests.tables.support import START, act, deal, money_in_table_accounts, open_table, player, seat_players, stack
from wallet.models import Transfer
from wallet.services import ledger_reconcile

PROJECT = Path(__file__).resolve().parents[2]

PLAY_THEN_HANG = textwrap.dedent(
    """
    import os, random, time
    from django.db import transaction
    from games.models import Table, Seat
    from games.services import hand_act, hand_start
    from games.runtime.engine_state import hand_engine_state
    from games.runtime.locking import table_lock

    table = Table.objects.get(pk=int(os.environ["CRASH_TEST_TABLE"]))
    hand = hand_start(table, shuffler=random.Random(11))
    for action, amount in (("raise_to", 30), ("call", None)):
        hand.refresh_from_db()
        user = Seat.objects.get(table=table, number=hand.acting_seat).user
        hand_act(table, user, action, amount)
    with transaction.atomic():
        table_lock(table.pk)  # in the middle of the next change when the process dies
        print("PLAYING", hand.pk, flush=True)
        time.sleep(120)
    """
)


def play_in_a_process_and_kill_it(table_id: int) -> int:
    environment = {
        **os.environ,
        "DATABASE_URL": site_database_url(),
        "REDIS_URL": settings.REDIS_URL,
        "REDIS_KEY_PREFIX": f"{settings.REDIS_KEY_PREFIX}-crash",
        "ENVIRONMENT": "test",
        "CRASH_TEST_TABLE": str(table_id),
    }
    child = subprocess.Popen(
        [sys.executable, "manage.py", "shell", "--no-imports", "-c", PLAY_THEN_HANG],
        cwd=PROJECT,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None
        line = child.stdout.readline()
        if not line.startswith("PLAYING"):
            child.kill()
            _out, errors = child.communicate(timeout=30)
            pytest.fail(f"the playing process did not start a hand: {line!r} {errors[-2000:]}")
        os.kill(child.pid, signal.SIGKILL)
        child.wait(timeout=30)
        assert child.returncode == -signal.SIGKILL
        return int(line.split()[1])
    finally:
        if child.poll() is None:
            child.kill()


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_cash_24_a_hand_cut_off_by_sigkill_is_rolled_back_to_the_starting_stacks() -> None:
    table = open_table("holdem", "NL10")
    users = [player(cash=5_000) for _ in range(3)]
    seat_players(table, users, 1000)
    before = {user.pk: stack(table, user) for user in users}

    hand_id = play_in_a_process_and_kill_it(table.pk)

    hand = Hand.objects.get(pk=hand_id)
    assert hand.status == HandStatus.RUNNING  # the dead process left it in play
    assert HandEvent.objects.filter(hand=hand, kind="action_taken").count() == 2
    assert hands_recover_unfinished(now=START) == [hand_id]
    hand.refresh_from_db()
    assert hand.status == HandStatus.CANCELLED
    assert hand.cancellation_reason == CRASH_REASON  # CASH-24, in plain words
    cancelled = HandEvent.objects.get(hand=hand, kind="hand_cancelled")
    assert cancelled.payload["stacks"] == {str(seat): data["stack"] for seat, data in hand.participants.items()}
    assert {user.pk: stack(table, user) for user in users} == before
    assert all(player.end_stack == player.start_stack for player in HandPlayer.objects.filter(hand=hand))
    assert not Transfer.objects.filter(reference=f"hand:{hand_id}").exists()
    assert money_in_table_accounts() == 3000
    assert ledger_reconcile() == []
    assert table_snapshot(table, None)["hand"] is None
    assert hands_recover_unfinished(now=START) == []  # idempotent


@pytest.mark.django_db
def test_cash_23_cancelling_a_hand_returns_all_bets_and_the_table_plays_on() -> None:
    table = open_table("holdem", "NL10")
    users = [player() for _ in range(3)]
    seat_players(table, users, 1000)
    hand = deal(table)
    act(table, "raise_to", 50)
    hand.refresh_from_db()
    leaving = next(seat.user for seat in Seat.objects.filter(table=table) if seat.number != hand.acting_seat)
    seat_leave(leaving, table, now=START)
    assert hand_cancel(hand.pk, reason="Server error (test)", now=START) is True
    assert hand_cancel(hand.pk, now=START) is False
    assert money_in_table_accounts() == 2000  # the leaving player was paid out in full
    assert not Seat.objects.filter(user=leaving).exists()
    assert {user.pk: stack(table, user) for user in users if user != leaving} == {
        user.pk: 1000 for user in users if user != leaving
    }
    assert deal(table).players_dealt_in == 2  # CASH-06: the cancelled hand had three players
