"""Provably fair hands (issue 29): ``manage.py verify_hand`` checks a stored hand and ``docs/verify_hand.py`` (standard
library only) an exported PHH history; both say "verified" for an honest hand and name what does not match when the
server seed, the deck or a dealt card was altered after the commitment."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from games.models import Hand, HandEvent
from games.services import hand_start
from tests.tables.support import START, fold_to_the_end, open_table, player, seat_players

pytestmark = pytest.mark.django_db

SCRIPT = Path(__file__).resolve().parents[2] / "docs" / "verify_hand.py"


def ended_hand() -> tuple[Hand, Client]:
    table = open_table()
    users = [player() for _ in range(3)]
    seat_players(table, users, 1000)
    hand = hand_start(table, now=START)
    assert hand is not None
    fold_to_the_end(table, now=START)
    hand.refresh_from_db()
    client = Client()
    client.force_login(users[0])
    return hand, client


def verify_command(hand_id: int) -> str:
    output = io.StringIO()
    call_command("verify_hand", str(hand_id), stdout=output)
    return output.getvalue()


def run_script(tmp_path: Path, text: str) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "hand.phh"
    path.write_text(text, encoding="utf-8")
    return subprocess.run([sys.executable, str(SCRIPT), str(path)], capture_output=True, text=True, check=False)


def test_an_honest_hand_verifies_with_the_command_and_the_script(tmp_path: Path) -> None:
    hand, client = ended_hand()
    assert verify_command(hand.pk) == f"hand {hand.pk}: verified (commitment {hand.deck_commitment})\n"
    phh = client.get(f"/api/games/hands/{hand.pk}/phh/").content.decode()
    result = run_script(tmp_path, phh)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip().endswith("verified")


def test_a_server_seed_altered_after_the_commitment_fails_both(tmp_path: Path) -> None:
    hand, client = ended_hand()
    phh = client.get(f"/api/games/hands/{hand.pk}/phh/").content.decode()
    altered = ("0" if hand.server_seed[0] != "0" else "1") + hand.server_seed[1:]
    Hand.objects.filter(pk=hand.pk).update(server_seed=altered)
    with pytest.raises(CommandError, match="do not verify"):
        verify_command(hand.pk)
    result = run_script(tmp_path, phh.replace(hand.server_seed, altered))
    assert result.returncode == 1
    assert "is not SHA-256 of the revealed seed" in result.stdout


def test_a_deck_or_a_dealt_card_changed_after_the_commitment_is_caught(tmp_path: Path) -> None:
    hand, client = ended_hand()
    deck = list(hand.deck)
    deck[0], deck[1] = deck[1], deck[0]
    Hand.objects.filter(pk=hand.pk).update(deck=deck)
    output = io.StringIO()
    with pytest.raises(CommandError):
        call_command("verify_hand", str(hand.pk), stdout=output)
    assert f"card 1 of the deck is {deck[0]}, the seeds give {deck[1]}" in output.getvalue()
    # The PHH history with another hole card for the player than the seeds give.
    phh = client.get(f"/api/games/hands/{hand.pk}/phh/").content.decode()
    event = HandEvent.objects.get(hand=hand, kind="hole_cards_dealt", private_to_user__isnull=False, private_to_seat=1)
    mine = "".join(event.payload["cards"])
    other = next(card for card in ("As", "Ks", "Qs") if card not in mine)
    result = run_script(tmp_path, phh.replace(mine, other + mine[2:]))
    assert result.returncode == 1
    assert "the seeds give" in result.stdout


def test_a_hand_in_play_is_refused() -> None:
    table = open_table()
    seat_players(table, [player() for _ in range(3)], 1000)
    hand = hand_start(table, now=START)
    assert hand is not None
    with pytest.raises(CommandError, match="still in play"):
        verify_command(hand.pk)
