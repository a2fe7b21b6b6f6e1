"""A raked cash hand's PHH export (ENG-28, GEN-07, RAKE-01/07) finishes with the stacks the players had after the rake
(as the ledger, the replayer and the hand list have them) and states the rake in the user-defined field ``_rake``
(PHH has no rake field; its ``finishing_stacks`` are meant to include "the rake applied in the end"). The file stays
valid PHH: our engine replays it to those stacks, pokerkit reads and plays it, and ``docs/verify_hand.py`` verifies
its deck (QA report G, finding 3: the export's stacks were one rake too high)."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from django.test import Client

from games.engine.phh import PhhError, replay_phh
from games.models import HandPlayer, HandStatus
from games.services import hand_start
from tests.tables.support import START, check_or_call_down, open_table, player, seat_players, stack

pytestmark = pytest.mark.django_db

VERIFY_HAND = Path(__file__).resolve().parents[2] / "docs" / "verify_hand.py"


def test_the_phh_of_a_raked_hand_finishes_with_the_stacks_after_the_rake_and_names_the_rake(tmp_path: Path) -> None:
    table = open_table("holdem", "NL10")
    users = [player() for _ in range(3)]
    seat_players(table, users, 1000)
    assert hand_start(table, now=START) is not None  # the production deal: a committed deck, so verifiable
    hand = check_or_call_down(table)
    hand.refresh_from_db()
    assert hand.status == HandStatus.FINISHED
    assert hand.rake == 1  # RAKE-02/05: 30 cents at 3.5 % to the nearest cent

    client = Client()
    client.force_login(users[0])
    response = client.get(f"/api/games/hands/{hand.pk}/phh/")
    assert response.status_code == 200
    text = response.content.decode()
    fields = tomllib.loads(text)

    # What the players had after the rake: the hand's settled rows and the table stacks the ledger holds.
    settled = {row.seat_number: row.end_stack for row in HandPlayer.objects.filter(hand=hand)}
    by_seat = dict(zip(fields["seats"], fields["finishing_stacks"], strict=True))
    assert by_seat == settled
    at_table = {seat: stack(table, user) for seat, user in zip(sorted(settled), _users_by_seat(hand), strict=True)}
    assert by_seat == at_table
    assert sum(fields["finishing_stacks"]) == sum(fields["starting_stacks"]) - hand.rake
    assert fields["_rake"] == hand.rake

    # The replayer's result says the same.
    replay = client.get(f"/api/games/hands/{hand.pk}/").json()
    result = replay["steps"][-1]["result"]
    assert {row["seat"]: row["end_stack"] for row in result["players"]} == by_seat

    # Our engine replays the actions and accepts exactly the rake between its result and the file's stacks ...
    assert replay_phh(fields).finishing_stacks == fields["finishing_stacks"]
    one_cent_off = dict(
        fields,
        finishing_stacks=[value + 1 for value in fields["finishing_stacks"][:1]] + fields["finishing_stacks"][1:],
    )
    with pytest.raises(PhhError, match="before a rake of 1"):
        replay_phh(one_cent_off)

    # ... pokerkit reads the file and plays it to the end: its stacks (it takes no rake) are the rake more ...
    from pokerkit import HandHistory

    history = HandHistory.loads(text)
    final = list(history)[-1]
    assert sum(final.stacks) - sum(fields["finishing_stacks"]) == fields["_rake"]

    # ... and the standalone script still verifies the deck.
    path = tmp_path / f"hand-{hand.pk}.phh"
    path.write_text(text, encoding="utf-8")
    run = subprocess.run([sys.executable, str(VERIFY_HAND), str(path)], capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.strip().endswith("verified")


def _users_by_seat(hand: object) -> list[object]:
    return [row.user for row in HandPlayer.objects.filter(hand=hand).select_related("user").order_by("seat_number")]
