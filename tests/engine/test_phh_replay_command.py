"""``manage.py replay_phh FILE...``: one JSON line per hand; a bad hand names file, hand and action and fails."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

FIXTURES = Path(__file__).parent / "fixtures"
PROJECT = Path(__file__).resolve().parents[2]


def run(*files: Path) -> tuple[list[dict[str, object]], str, CommandError | None]:
    out, err = StringIO(), StringIO()
    failure = None
    try:
        call_command("replay_phh", *map(str, files), stdout=out, stderr=err)
    except CommandError as error:
        failure = error
    return [json.loads(line) for line in out.getvalue().splitlines()], err.getvalue(), failure


def test_a_good_file_prints_one_json_line_per_hand_with_stacks_in_player_order() -> None:
    path = FIXTURES / "pokerkit_nlhe_6max.phhs"
    lines, errors, failure = run(path, FIXTURES / "sx02_side_pot.phh")
    assert failure is None
    assert errors == ""
    assert [line["hand"] for line in lines] == [1, 2, 3, 4, 5, 6, 1]
    assert lines[0] == {"file": str(path), "hand": 1, "finishing_stacks": [0, 199, 21]}
    assert lines[-1] == {"file": str(FIXTURES / "sx02_side_pot.phh"), "hand": 1, "finishing_stacks": [1800, 4000, 300]}


def test_an_illegal_hand_names_the_file_hand_and_action_and_the_command_fails() -> None:
    path = FIXTURES / "illegal_hands.phhs"
    lines, errors, failure = run(path)
    assert isinstance(failure, CommandError)
    assert [line["hand"] for line in lines] == [1]  # the good hand is still replayed
    assert f"{path}: hand 2, action 'p3 cbr 24': minimum raise is to 25" in errors
    assert f"{path}: hand 3, action 'p1 cc': it is seat 3's turn, not seat 1's" in errors


def test_an_unreadable_file_is_reported(tmp_path: Path) -> None:
    broken = tmp_path / "broken.phh"
    broken.write_text("variant = 'NT\n")
    lines, errors, failure = run(broken, tmp_path / "missing.phh")
    assert isinstance(failure, CommandError)
    assert lines == []
    assert f"{broken}: not valid TOML" in errors
    assert f"{tmp_path / 'missing.phh'}: cannot read the file" in errors


@pytest.mark.slow
def test_the_command_line_exits_non_zero_on_an_illegal_hand() -> None:
    good = subprocess.run(
        [sys.executable, "manage.py", "replay_phh", str(FIXTURES / "unknown_cards.phh")],
        cwd=PROJECT,
        env=os.environ.copy(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert good.returncode == 0, good.stderr
    assert json.loads(good.stdout) == {
        "file": str(FIXTURES / "unknown_cards.phh"),
        "hand": 1,
        "finishing_stacks": [9950, 11750, 8300, 10000],
    }
    bad = subprocess.run(
        [sys.executable, "manage.py", "replay_phh", str(FIXTURES / "illegal_hands.phhs")],
        cwd=PROJECT,
        env=os.environ.copy(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert bad.returncode != 0
    assert "illegal_hands.phhs: hand 2, action 'p3 cbr 24'" in bad.stderr
