"""A full six-seat cash table on a laptop (1366 × 768) is laid out without overlaps (issue 28: "the player's own bet
chip never covers the hand title; waiting messages never cover hole cards; seats on one side never overlap"): no two
seats overlap, no seat covers the community cards, no bet chip covers a seat, the board or the hand's title line, and
the title line (with the waiting messages, above the felt) covers no card. The phone's portrait table is not yet laid
out this way (its side seats reach the board and the sticky action bar covers the player's own seat)."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Table
from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import log_in, my_turn, wait_live, wait_until
from tests.browser.setup import act_until_seat_acts, heads_up_table, player, running_hand, seat

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]

NAMES = ("alice", "bob", "carol", "dave", "erin", "frank")
SIZES = {"laptop": {"width": 1366, "height": 768}, "wide laptop": {"width": 1600, "height": 900}}

BOXES = """() => {
  const box = element => { const r = element.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const visible = element => element.offsetParent !== null && element.getBoundingClientRect().width > 0;
  return {
    seats: Array.from(document.querySelectorAll('#seats .seat .seat-box')).filter(visible).map(box),
    bets: Array.from(document.querySelectorAll('#seats .seat-bet')).filter(visible).map(box),
    cards: Array.from(document.querySelectorAll('#seats [data-card]')).filter(visible).map(box),
    board: Array.from(document.querySelectorAll('#community-cards > *')).filter(visible).map(box),
    title: box(document.getElementById('hand-info')),
  };
}"""


def overlap(first: list[float], second: list[float]) -> bool:
    """Whether two boxes (left, top, right, bottom) share more than a pixel each way."""
    return (
        min(first[2], second[2]) - max(first[0], second[0]) > 1
        and min(first[3], second[3]) - max(first[1], second[1]) > 1
    )


def overlapping(group: list[list[float]], others: list[list[float]]) -> list[tuple[list[float], list[float]]]:
    return [(one, other) for one in group for other in others if one is not other and overlap(one, other)]


@pytest.fixture
def full_table(site: Any) -> tuple[Table, dict[int, Any]]:
    table = heads_up_table()
    users = {}
    for number, name in enumerate(NAMES, start=1):
        users[number] = player(name)
        seat(users[number], table, 1_000, number=number)
    running_hand(table)
    return table, users


@pytest.mark.parametrize("size", sorted(SIZES))
def test_seats_bets_cards_board_and_title_never_overlap(
    full_table: tuple[Table, dict[int, Any]], pages: Pages, size: str
) -> None:
    table, users = full_table
    hand = running_hand(table)
    players = {int(number): users[int(number)] for number in hand.participants}
    viewer_seat = sorted(players)[0]
    act_until_seat_acts(table, players, viewer_seat)  # the others call: bet chips all round the table
    page = pages.new(**SIZES[size])
    log_in(page, players[viewer_seat].username)
    page.goto(f"/games/tables/{table.pk}/")
    wait_live(page)
    my_turn(page)
    wait_until(page, "document.querySelectorAll('#seats .seat-bet').length >= 2")
    boxes = page.evaluate(BOXES)
    pages.screenshot(page, f"full-table-{size}")

    assert len(boxes["seats"]) == len(NAMES)
    seats_overlapping = [
        (one, other)
        for index, one in enumerate(boxes["seats"])
        for other in boxes["seats"][index + 1 :]
        if overlap(one, other)
    ]
    assert seats_overlapping == [], "two seats overlap"
    assert overlapping(boxes["seats"], boxes["board"]) == [], "a seat covers the community cards"
    assert overlapping(boxes["bets"], boxes["seats"]) == [], "a bet chip covers a seat"
    assert overlapping(boxes["bets"], boxes["board"] + [boxes["title"]]) == [], "a bet chip covers the board or title"
    assert overlapping([boxes["title"]], boxes["cards"]) == [], "the hand's title line covers a card"
