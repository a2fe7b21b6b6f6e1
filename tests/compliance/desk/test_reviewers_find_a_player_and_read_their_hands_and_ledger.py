"""FRD-18: a reviewer finds a player by name (a bare name or ``player:name``) and the player's page lists their latest
hands (linked to the replayer) and the latest movements of their cash account with the balance after; support staff
do not open the desk's player search."""

from __future__ import annotations

from typing import Any

import pytest

from tests.compliance.desk.support import played_hand, player
from tests.tables.back_office import logged_in

pytestmark = pytest.mark.django_db


def test_a_reviewer_finds_players_by_a_part_of_their_name(reviewer: Any, support_agent: Any) -> None:
    annabel, anna = player("annabel"), player("anna")
    player("bea")
    client = logged_in(reviewer)

    bare = client.get("/compliance/players/?q=ann").content.decode()
    prefixed = client.get("/compliance/players/?q=player:anna").content.decode()

    assert f'href="/compliance/players/{annabel.pk}/"' in bare
    assert f'href="/compliance/players/{anna.pk}/"' in bare
    assert ">bea<" not in bare
    assert prefixed.index(f"/compliance/players/{anna.pk}/") < prefixed.index(f"/compliance/players/{annabel.pk}/")
    assert logged_in(support_agent).get("/compliance/players/?q=ann").status_code == 403


def test_the_players_page_lists_their_hands_and_their_ledger(reviewer: Any) -> None:
    ann, bea = player("ann"), player("bea")
    hand = played_hand([ann, bea])

    page = logged_in(reviewer).get(f"/compliance/players/{ann.pk}/").content.decode()

    hands = page.split('id="player-hands"', 1)[1].split("</table>", 1)[0]
    ledger = page.split('id="player-ledger"', 1)[1].split("</table>", 1)[0]
    assert f'href="/compliance/hands/{hand.pk}/"' in hands
    assert "cash_buy_in" in ledger
