"""UTH-35 Game History (QA G finding 8): "My UTH games" (/uth/history/) lists every finished round the player played,
newest first and paginated, not only the table page's last ten; each row labels the cards (your cards, dealer, board)
with the suit symbols the table uses, says the outcome ("Dealer does not qualify, you win") and what each bet (Ante,
Blind, Play, Trips) staked and returned, and carries the round's proof for Verify and Download."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client

from games.uth import views
from games.uth.services import uth_bet_place, uth_decide, uth_seat_take
from tests.uth.conftest import current_round

pytestmark = pytest.mark.django_db

# Player A♥ K♦, dealer 7♣ 2♦ (no pair: the dealer does not qualify), board 9♠ 8♥ 4♣ 3♦ J♥: the player wins on Ace high.
TOP = "Ah Kd 7c 2d 9s 8h 4c 3d Jh"


def play_a_round(alice: Any, table: Any, clock: Any) -> str:
    """Ante €1 with Trips €1, PLAY 4x before the flop; returns the round's game number once it is settled."""
    clock.rig(TOP)
    clock.tick()
    uth_bet_place(alice, table.pk, "ante", 100, now=clock.now)
    uth_bet_place(alice, table.pk, "trips", 100, now=clock.now)
    clock.tick(15)
    round_ = current_round(table)
    uth_decide(alice, table.pk, "play_4x", now=clock.now)
    for _phase in ("flop", "river", "settlement"):
        clock.tick(10)
    round_.refresh_from_db()
    assert round_.phase == "settled"
    clock.tick(6)  # the result time: the next round opens
    return str(round_.game_number)


def test_my_uth_games_lists_rounds_newest_first_with_labelled_cards_outcome_and_bets(
    table: Any, clock: Any, make_player: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(views, "GAMES_PER_PAGE", 1)
    alice = make_player("alice", 100_000)
    uth_seat_take(alice, table.pk, now=clock.now)
    first = play_a_round(alice, table, clock)
    second = play_a_round(alice, table, clock)
    client = Client()
    client.force_login(alice)

    newest = client.get("/uth/history/")
    assert newest.status_code == 200
    page = newest.content.decode()
    assert f'data-game-number="{second}"' in page
    assert f'data-game-number="{first}"' not in page  # on the next page
    assert 'href="?page=2"' in page
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))
    assert "Your cards: A♥ K♦" in text
    assert "Dealer: 7♣ 2♦" in text
    assert "Board: 9♠ 8♥ 4♣ 3♦ J♥" in text
    assert "Dealer does not qualify, you win" in text
    for line in (
        "ANTE: staked €1.00, returned €1.00",
        "BLIND: staked €1.00, returned €1.00",
        "PLAY: staked €4.00, returned €8.00",
        "TRIPS: staked €1.00, returned €0.00",
    ):
        assert line in text, line
    assert "+€3.00" in text
    proofs = json.loads(re.search(r'<script id="uth-proofs" type="application/json">(.*?)</script>', page, re.S)[1])
    assert proofs[second]["server_seed"]
    assert proofs[second]["commitment"] == current_round_commitment(second)

    older = client.get("/uth/history/?page=2").content.decode()
    assert f'data-game-number="{first}"' in older
    assert f'data-game-number="{second}"' not in older


def current_round_commitment(game_number: str) -> str:
    from games.uth.models import UthRound

    return str(UthRound.objects.get(game_number=game_number).deck_commitment)


def test_my_uth_games_asks_a_visitor_to_log_in(db: None) -> None:
    response = Client().get("/uth/history/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/log-in/")
