"""A full six-seat cash table is laid out without overlaps on laptops and on a phone (390 × 844) (issue 28: "the
player's own bet chip never covers the hand title; waiting messages never cover hole cards; seats on one side never
overlap"; on the phone "own seat and cards visible above the action bar; presets and slider all reachable; no overlap
of seats and board"): no two seats overlap, no seat covers the community cards, no bet chip covers a seat, the board
or the hand's title line, and the title line (with the waiting messages, above the felt) covers no card; on the phone
the player's own seat is inside the felt and above the action bar when their turn comes, and every action, the amount
box and the presets are within the screen's width."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Table
from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import log_in, my_turn, wait_live, wait_until
from tests.browser.setup import act_until_seat_acts, heads_up_table, player, running_hand, seat

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]

NAMES = ("alice", "bob", "carol", "dave", "erin", "frank")
SIZES = {
    "laptop": {"width": 1366, "height": 768},
    "wide laptop": {"width": 1600, "height": 900},
    "phone": {"width": 390, "height": 844},
}

BOXES = """() => {
  const box = element => { const r = element.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const visible = element => element.offsetParent !== null && element.getBoundingClientRect().width > 0;
  return {
    seats: Array.from(document.querySelectorAll('#seats .seat .seat-box')).filter(visible).map(box),
    bets: Array.from(document.querySelectorAll('#seats .seat-bet')).filter(visible).map(box),
    cards: Array.from(document.querySelectorAll('#seats [data-card]')).filter(visible).map(box),
    board: Array.from(document.querySelectorAll('#community-cards > *')).filter(visible).map(box),
    title: box(document.getElementById('hand-info')),
    mySeat: box(document.querySelector('#seats .seat.me')),
    felt: box(document.getElementById('felt')),
    actionBar: box(document.getElementById('action-bar')),
    controls: Array.from(document.querySelectorAll(
      '#action-buttons [data-act]:not([hidden]), #bet-amount, #bet-control [data-preset]:not([hidden])'
    )).map(box),
    viewportWidth: window.innerWidth,
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


def assert_nothing_overlaps(boxes: dict[str, Any]) -> None:
    """No seat on another seat or on the board; no bet chip on a seat, the board or the hand's title line; the title
    line on no card (``boxes`` as :data:`BOXES` measures them)."""
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
    assert_nothing_overlaps(boxes)
    if size == "phone":
        my_seat, felt, bar = boxes["mySeat"], boxes["felt"], boxes["actionBar"]
        assert my_seat[3] <= felt[3] + 1, "the player's own seat reaches out of the felt"
        assert my_seat[3] <= bar[1] + 1, "the action bar covers the player's own seat"
        assert my_seat[1] >= 0, "the player's own seat is scrolled off the top"
        for control in boxes["controls"]:  # scrolled sideways in their row at most, never off the page
            assert control[0] >= -1
        assert boxes["controls"]
