"""``manage.py icm`` (CXL-11): one JSON object with each player's exact share and cents; bad input exits 2."""

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

PROJECT = Path(__file__).resolve().parents[2]


def run(*arguments: str) -> dict[str, object]:
    out = StringIO()
    call_command("icm", *arguments, stdout=out)
    result: dict[str, object] = json.loads(out.getvalue())
    return result


def test_cxl07_the_worked_example_prints_exact_fractions_and_cents() -> None:
    assert run("--stacks", "5000", "3000", "2000", "--prizes", "5000", "3000", "2000") == {
        "method": "exact",
        "players": [
            {"seat": 1, "stack": 5000, "share": "26875/7", "share_decimal": "3839.285714", "cents": 3839},
            {"seat": 2, "stack": 3000, "share": "3275/1", "share_decimal": "3275.000000", "cents": 3275},
            {"seat": 3, "stack": 2000, "share": "20200/7", "share_decimal": "2885.714286", "cents": 2886},
        ],
        "total_cents": 10000,
    }


def test_cxl11_seats_decide_who_gets_the_odd_cent() -> None:
    printed = run("--stacks", "10", "10", "10", "--prizes", "100", "--seats", "3", "1", "2")
    assert [player["cents"] for player in printed["players"]] == [33, 34, 33]  # type: ignore[index]


def test_cxl11_the_approximation_prints_estimates_with_standard_errors() -> None:
    printed = run("--stacks", "500", "300", "200", "100", "--prizes", "50", "30", "20", "--approximate")
    assert printed["method"] == "monte-carlo"
    assert printed["samples"] == 10_000
    assert printed["seed"] == 0
    assert "4 standard errors" in str(printed["error_bound"])
    players = printed["players"]
    assert isinstance(players, list)
    assert sum(player["cents"] for player in players) == printed["total_cents"] == 100
    assert all(player["standard_error_cents"] > 0 for player in players[:3])


def test_cxl11_bad_input_is_a_command_error_with_exit_status_2() -> None:
    with pytest.raises(CommandError, match="3 prizes for 2 players") as raised:
        call_command("icm", "--stacks", "10", "20", "--prizes", "3", "2", "1", stdout=StringIO())
    assert raised.value.returncode == 2


def manage_py(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", "icm", *arguments],
        cwd=PROJECT,
        env=os.environ.copy(),
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.slow
def test_cxl11_the_command_line_prints_one_json_object() -> None:
    done = manage_py("--stacks", "50", "30", "20", "--prizes", "70", "30")
    assert done.returncode == 0, done.stderr
    assert [player["share"] for player in json.loads(done.stdout)["players"]] == ["1265/28", "129/4", "158/7"]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--stacks", "10", "0", "--prizes", "100"], "stack 2 is 0"),
        (["--stacks", "10", "x", "--prizes", "100"], "invalid int value: 'x'"),
        (["--stacks", "10", "20", "--prizes", "30", "60"], "list prizes from first place down"),
    ],
)
def test_cxl11_bad_input_on_the_command_line_exits_2_with_a_message_on_stderr(
    arguments: list[str], message: str
) -> None:
    done = manage_py(*arguments)
    assert done.returncode == 2
    assert done.stdout == ""
    assert message in done.stderr
