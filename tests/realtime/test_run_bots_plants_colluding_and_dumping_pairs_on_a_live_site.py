"""``manage.py run_bots --colluding-pairs 1 --dumping-pairs 1`` (issue 31) plants two pairs among honest bots on a
live site: they play real hands over daphne's sockets with only the refusals any bot meets, the summary names the
pairs, and a request for more pairs than the tables seat is refused before any bot plays."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.realtime.conftest import seed_catalog
from tests.realtime.live_site import live_site, run_bots
from tests.realtime.test_run_bots_plays_hands_over_a_live_site import (
    assert_only_expected_refusals,
    wait_until_no_hand_runs,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def test_frd_19_planted_pairs_play_hands_among_honest_bots_and_are_listed(tmp_path: Path) -> None:
    from games.models import Hand, HandPlayer, HandStatus

    seed_catalog()
    with live_site(tmp_path) as base_url:
        refused = run_bots(base_url, "--bots-per-table", "3", "--colluding-pairs", "1", "--dumping-pairs", "1")
        completed = run_bots(
            base_url,
            "--tables",
            "1",
            "--bots-per-table",
            "6",
            "--colluding-pairs",
            "1",
            "--dumping-pairs",
            "1",
            "--styles",
            "tight,random",
            "--login",
            "session",
            "--duration",
            "30",
            "--think",
            "0.05",
            "0.2",
            "--seed",
            "31",
        )
        wait_until_no_hand_runs()
    assert refused.returncode != 0
    assert "two seats" in refused.stderr
    assert completed.returncode == 0, completed.stderr[-3000:]
    summary = json.loads(completed.stdout.strip().splitlines()[-1])
    assert summary["planted"] == [
        {"kind": "colluding", "players": ["bot001", "bot002"]},
        {"kind": "dumping", "players": ["bot003", "bot004"]},
    ]
    assert summary["actions"] > 0
    assert_only_expected_refusals(summary["errors"])
    finished = Hand.objects.filter(status=HandStatus.FINISHED)
    assert finished.count() >= 3
    planted = HandPlayer.objects.filter(hand__in=finished, user__username__in=["bot001", "bot002", "bot003", "bot004"])
    assert planted.values("user_id").distinct().count() == 4, "every planted bot was dealt in"
