"""FRD-04, FRD-19: the reviewers' replayer shows what a review needs of an ended hand — every player's hole cards,
the deck in dealing order, each decision's time and each player's equity on each street — while a hand in play shows
nobody its cards, reviewers included; support staff cannot open it at all."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from compliance.replay import review_replay
from games.models import HandEvent
from tests.compliance.desk.support import played_hand, player, running_hand
from tests.tables.back_office import logged_in

pytestmark = pytest.mark.django_db


def dealt_cards(hand: Any) -> dict[int, list[str]]:
    return {
        row.payload["seat"]: row.payload["cards"]
        for row in HandEvent.objects.filter(hand=hand, kind="hole_cards_dealt")
    }


def replay_data(page: bytes) -> dict[str, Any]:
    found = re.search(rb'<script id="replay-data" type="application/json">(.*?)</script>', page, re.S)
    assert found is not None
    return json.loads(found.group(1))


def test_every_hole_card_and_the_deck_are_on_the_page_of_an_ended_hand(reviewer: Any) -> None:
    hand = played_hand([player("alice"), player("bob"), player("carol")])
    response = logged_in(reviewer).get(f"/compliance/hands/{hand.pk}/")
    assert response.status_code == 200
    data = replay_data(response.content)
    cards = dealt_cards(hand)
    assert len(cards) == 3
    assert data["hand"]["hole_cards"] == {str(seat): value for seat, value in cards.items()}
    text = response.content.decode()
    for value in cards.values():
        assert f'data-cards="{" ".join(value)}"' in text
    assert [entry["card"] for entry in data["hand"]["deck"]] == hand.deck
    assert text.count('<li data-card="') == 52
    used = {entry["card"]: entry["use"] for entry in data["hand"]["deck"]}
    for seat, value in cards.items():
        assert all(used[card] == f"seat {seat}" for card in value)


def test_each_decision_carries_its_time_and_each_street_its_equities(reviewer: Any) -> None:
    hand = played_hand([player("alice"), player("bob"), player("carol")])
    replay = review_replay(hand)
    actions = [step for step in replay["steps"] if step["kind"] == "action_taken"]
    assert actions
    assert all("decision_ms" in step for step in actions)
    assert all(step["decision_ms"] is None or step["decision_ms"] >= 0 for step in actions)
    equities = replay["hand"]["equities"]
    assert list(equities) == ["preflop", "flop", "turn", "river"]
    for street, seats in equities.items():
        assert len(seats) == 3, street
        assert sum(entry["equity"] for entry in seats) == pytest.approx(1.0, abs=1e-3)
    assert all(entry["exact"] for entry in equities["river"])
    assert replay["steps"][0]["equities"] == equities["preflop"]
    flop = next(step for step in replay["steps"] if step["kind"] == "street_dealt" and step["street"] == "flop")
    assert flop["equities"] == equities["flop"]


def test_a_hand_in_play_shows_its_cards_to_nobody_not_even_a_reviewer(reviewer: Any) -> None:
    hand = running_hand([player("alice"), player("bob"), player("carol")])
    response = logged_in(reviewer).get(f"/compliance/hands/{hand.pk}/")
    assert response.status_code == 409
    text = response.content.decode()
    assert "replay-data" not in text
    for value in dealt_cards(hand).values():
        for card in value:  # as a word of its own (a random token on the page may hold the two letters)
            assert not re.search(rf"(?<![A-Za-z0-9]){card}(?![A-Za-z0-9])", text), card


def test_support_staff_cannot_see_the_hole_cards_of_a_hand_in_play_anywhere(support_agent: Any) -> None:
    hand = running_hand([player("alice"), player("bob"), player("carol")])
    client = logged_in(support_agent)
    assert client.get(f"/compliance/hands/{hand.pk}/").status_code == 403
    admin_page = client.get(f"/admin/games/hand/{hand.pk}/change/")
    assert admin_page.status_code == 200
    text = admin_page.content.decode()
    for value in dealt_cards(hand).values():
        assert " ".join(value) not in text
        assert json.dumps(value) not in text
    assert "Hidden until the hand ends" in text
