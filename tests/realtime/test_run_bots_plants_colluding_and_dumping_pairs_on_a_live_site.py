"""``manage.py run_bots --colluding-pairs 1 --dumping-pairs 1`` (issue 31) plants two pairs among honest bots on a
live site: they play real hands over daphne's sockets with only the refusals any bot meets, the summary names the
pairs, and a request for more pairs than the tables seat is refused before any bot plays."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from tests.realtime.conftest import pause_between_hands, seed_catalog
from tests.realtime.live_site import live_site, run_bots, run_bots_until
from tests.realtime.test_run_bots_plays_hands_over_a_live_site import (
    assert_only_expected_refusals,
    wait_until_no_hand_runs,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

NO_SITE = "http://127.0.0.1:9"


def test_frd_19_planted_pairs_play_hands_among_honest_bots_and_are_listed(tmp_path: Path) -> None:
    from games.models import Hand, HandPlayer, HandStatus

    planted_names = ["bot001", "bot002", "bot003", "bot004"]

    def planted_dealt_in(finished: Any) -> int:
        planted = HandPlayer.objects.filter(hand__in=finished, user__username__in=planted_names)
        return int(planted.values("user_id").distinct().count())

    def enough_play(_summary: dict[str, int]) -> bool:
        """Twice the finished hands the checks below ask for, every planted bot dealt into one of them (the bots
        played a fixed 30 s before)."""
        finished = Hand.objects.filter(status=HandStatus.FINISHED)
        return finished.count() >= 2 * 3 and planted_dealt_in(finished) == 4

    seed_catalog()
    pause_between_hands(500)  # the bots' hands follow one another without the pause people need to read a result
    with ThreadPoolExecutor(1) as beside_the_site_start:
        # Refused before any bot connects anywhere (the address is never used), so it runs while the site starts.
        refusal = beside_the_site_start.submit(
            run_bots, NO_SITE, "--bots-per-table", "3", "--colluding-pairs", "1", "--dumping-pairs", "1"
        )
        with live_site(tmp_path) as base_url:
            refused = refusal.result()
            completed = run_bots_until(
                base_url,
                enough_play,
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
    assert planted_dealt_in(finished) == 4, "every planted bot was dealt in"
