"""docs/verify_hand.py, run as a player would (a subprocess, standard library only), verifies a UTH round's proof
downloaded from ``GET /api/uth/rounds/<game number>/verification/`` (issue 29, docs/fairness.md "Verifying a UTH
round", UTH-34), and rejects the file when a card, the seed or the commitment was changed, or when the commitment does
not match the one the player noted before the deal (``--commitment``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from games.uth.services import uth_bet_place, uth_seat_take
from tests.uth.conftest import current_round

pytestmark = pytest.mark.django_db

VERIFY_HAND = Path(__file__).resolve().parents[2] / "docs" / "verify_hand.py"


def run(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(VERIFY_HAND), *arguments], capture_output=True, text=True, timeout=60, check=False
    )


def test_a_downloaded_round_verifies_and_a_tampered_one_does_not(
    table: Any, clock: Any, make_player: Any, tmp_path: Path
) -> None:
    alice = make_player("alice", 100_000)
    uth_seat_take(alice, table.pk, now=clock.now)
    clock.tick()
    noted = current_round(table).deck_commitment  # what the page showed before the deal
    uth_bet_place(alice, table.pk, "ante", 100, now=clock.now)
    for seconds in (15, 10, 10, 10):
        clock.tick(seconds)
    round_ = current_round(table)
    assert round_.phase == "settled"
    client = Client()
    client.force_login(alice)
    download = client.get(f"/api/uth/rounds/{round_.game_number}/verification/")
    assert download.status_code == 200
    proof = download.json()
    original = tmp_path / f"uth-{round_.game_number}.json"
    original.write_bytes(download.content)

    verified = run(str(original), "--commitment", noted)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert verified.stdout.strip().endswith("verified")
    assert round_.game_number in verified.stdout

    deck = [str(card) for card in round_.deck_cards]
    swapped_board = [deck[9], *proof["board"][1:]]
    tampered_versions = {
        "board": {**proof, "board": swapped_board},
        "dealer": {**proof, "dealer_cards": list(reversed(proof["dealer_cards"]))},
        "player": {**proof, "player_cards": [proof["player_cards"][0], deck[20]]},
        "seed": {**proof, "server_seed": "00" * 32},
        "commitment": {**proof, "commitment": "0" * 64},
    }
    for name, tampered in tampered_versions.items():
        path = tmp_path / f"tampered-{name}.json"
        path.write_text(json.dumps(tampered))
        result = run(str(path))
        assert result.returncode == 1, (name, result.stdout)
        assert "verified" not in result.stdout.split(": ")[-1], (name, result.stdout)

    other = run(str(original), "--commitment", "ab" * 32)
    assert other.returncode == 1
    assert "noted before the deal" in other.stdout
