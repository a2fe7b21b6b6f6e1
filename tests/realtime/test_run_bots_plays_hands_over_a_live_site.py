"""``manage.py run_bots`` logs bots in through the log-in page and plays real hands over daphne's sockets."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from tests.realtime.conftest import pause_between_hands, seed_catalog
from tests.realtime.live_site import live_site, run_bots_until

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def assert_only_expected_refusals(errors: dict[str, int]) -> None:
    """No protocol or server error; an action refused only because the turn had passed (a clock ran out under load);
    seat requests refused only by table rules (sitting in while a hand is dealt, say)."""
    for key in errors:
        message_type, code = key.split(":", 1)
        assert code != "server_error", errors
        assert not code.startswith("bad_"), errors
        assert code not in {"unknown_type", "unexpected_field", "missing_field", "not_authenticated"}, errors
        if message_type == "act":
            assert code == "not_your_turn", errors


def wait_until_no_hand_runs(timeout: float = 90) -> None:
    from games.models import Hand, HandStatus

    deadline = time.monotonic() + timeout
    while Hand.objects.filter(status=HandStatus.RUNNING).exists():
        assert time.monotonic() < deadline, "a hand is still running"
        time.sleep(0.5)


def finished_hands() -> int:
    from games.models import Hand, HandStatus

    return Hand.objects.filter(status=HandStatus.FINISHED).count()


def test_bots_play_a_few_hands_and_leave_with_the_ledger_in_balance(tmp_path: Path) -> None:
    from games.models import Hand, HandStatus, TableSession
    from wallet.services.reconcile import ledger_reconcile

    def enough_play(summary: dict[str, int]) -> bool:
        """Every bot saw two hands end, and twice the finished hands the checks below ask for (the bots played a fixed
        25 s before)."""
        return summary["hands_ended_seen"] >= 3 * 2 and finished_hands() >= 4

    seed_catalog()
    pause_between_hands(500)  # the bots' hands follow one another without the pause people need to read a result
    with live_site(tmp_path) as base_url:
        completed = run_bots_until(
            base_url,
            enough_play,
            "--tables",
            "1",
            "--bots-per-table",
            "3",
            "--think",
            "0.05",
            "0.2",
            "--seed",
            "3",
        )
        wait_until_no_hand_runs()  # a bot that left mid-hand is folded by the clock; its session ends with the hand
    assert completed.returncode == 0, completed.stderr[-3000:]
    summary = json.loads(completed.stdout.strip().splitlines()[-1])
    assert summary["bots"] == 3
    assert summary["actions"] > 0
    assert summary["hands_ended_seen"] >= 3 * 2  # every bot saw at least two hands end
    assert_only_expected_refusals(summary["errors"])
    finished = Hand.objects.filter(status=HandStatus.FINISHED).count()
    assert finished >= 2
    assert not TableSession.objects.filter(ended_at__isnull=True).exists(), "every bot left its seat at the end"
    assert ledger_reconcile() == []
