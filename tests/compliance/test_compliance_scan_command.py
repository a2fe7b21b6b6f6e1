"""FRD-19: ``manage.py compliance_scan FILE...`` runs the indicators over PHH files with player names and prints one
JSON line per flag; a file or hand it cannot read is refused with a clear error naming file and hand, the rest are
scanned and flagged, and the exit status is 2. It needs no database
(these tests have no database access: pytest-django refuses any query)."""

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

from tests.compliance.phh_files import dumping_session, write_phhs

PROJECT = Path(__file__).resolve().parents[2]


def scan(*arguments: str) -> tuple[list[str], str, CommandError | None]:
    out, err = StringIO(), StringIO()
    failure = None
    try:
        call_command("compliance_scan", *arguments, stdout=out, stderr=err)
    except CommandError as error:
        failure = error
    return out.getvalue().splitlines(), err.getvalue(), failure


def test_a_planted_dump_prints_one_sorted_json_line_naming_the_indicator_players_score_and_hands(
    tmp_path: Path,
) -> None:
    path = write_phhs(tmp_path / "session.phhs", dumping_session())
    lines, errors, failure = scan(str(path))
    assert failure is None
    assert len(lines) == 1
    flag = json.loads(lines[0])
    assert lines[0] == json.dumps(flag, sort_keys=True)
    assert flag["indicator"] == "chip_dumping"
    assert flag["players"] == ["dee", "rob"]
    assert flag["score"] >= flag["threshold"]
    assert flag["hands"] == [f"{path}#{number}" for number in range(41, 45)]
    assert flag["evidence"]["weak_commitments"] == 4
    assert "scanned 44 hand(s) of 10 player(s) in 1 file(s): 1 flag(s)" in errors
    assert "bot_timing: not judged" in errors
    assert "shared_connection: not judged" in errors


def test_thresholds_can_be_tuned_on_the_command_line(tmp_path: Path) -> None:
    path = write_phhs(tmp_path / "session.phhs", dumping_session())
    lines, _, failure = scan(str(path), "--set", "chip_dumping.minimum_weak_decisions=5")
    assert failure is None
    assert lines == []
    _, _errors, failure = scan(str(path), "--set", "chip_dumping.minimum=5")
    assert isinstance(failure, CommandError)
    assert failure.returncode == 2
    assert "unknown parameter 'minimum'" in str(failure)


def test_malformed_files_and_hands_are_refused_by_file_and_hand_and_the_rest_are_scanned(tmp_path: Path) -> None:
    good = write_phhs(tmp_path / "good.phhs", dumping_session())
    broken = tmp_path / "broken.phh"
    broken.write_text("variant = 'NT\n")
    hands = dumping_session(1)
    hands[3] = hands[3].replace('"p1 cc"', '"p1 cbr 5"')
    hands[5] = hands[5].replace('players = ["regular0", "regular5"]\n', "")
    illegal = write_phhs(tmp_path / "illegal.phhs", hands)
    lines, errors, failure = scan(str(good), str(broken), str(illegal), str(tmp_path / "missing.phh"))
    assert isinstance(failure, CommandError)
    assert failure.returncode == 2
    assert "4 file(s) or hand(s) could not be read and were not scanned" in str(failure)
    assert f"refused: {broken}: not valid TOML" in errors
    assert f"refused: {illegal}: hand 4, action 'p1 cbr 5'" in errors
    assert f"refused: {illegal}: hand 6: the hand needs a 'players' field" in errors
    assert f"refused: {tmp_path / 'missing.phh'}: cannot read the file" in errors
    total = len(dumping_session()) + len(hands) - 2
    assert f"scanned {total} hand(s)" in errors
    flags = [json.loads(line) for line in lines]
    assert [flag["indicator"] for flag in flags] == ["chip_dumping"]
    assert f"{illegal}#4" not in flags[0]["hands"]
    assert f"{illegal}#6" not in flags[0]["hands"]


def test_a_hand_whose_toml_is_broken_costs_only_that_hand(tmp_path: Path) -> None:
    hands = dumping_session()
    hands[2] = hands[2].replace("variant = ", "variant = = ", 1)
    path = write_phhs(tmp_path / "session.phhs", hands)
    assert "variant = = " in path.read_text()

    lines, errors, failure = scan(str(path))

    assert isinstance(failure, CommandError)
    assert failure.returncode == 2
    assert f"refused: {path}: hand 3: not valid TOML" in errors
    assert f"scanned {len(hands) - 1} hand(s)" in errors
    assert [json.loads(line)["indicator"] for line in lines] == ["chip_dumping"]


@pytest.mark.slow
def test_the_command_line_exits_with_status_2_on_bad_input_and_0_with_flags(tmp_path: Path) -> None:
    bad = tmp_path / "bad.phh"
    bad.write_text("variant = 'NT'\n")
    good = write_phhs(tmp_path / "good.phhs", dumping_session())
    results = [
        subprocess.run(
            [sys.executable, "manage.py", "compliance_scan", str(path)],
            cwd=PROJECT,
            env=os.environ.copy(),
            capture_output=True,
            text=True,
            timeout=300,
        )
        for path in (bad, good)
    ]
    assert results[0].returncode == 2
    assert results[0].stdout == ""
    assert str(bad) in results[0].stderr
    assert results[1].returncode == 0, results[1].stderr
    assert json.loads(results[1].stdout)["indicator"] == "chip_dumping"
