"""A full nine-seat tournament table (a nine-handed bounty Sit & Go, as its players see it, the tournament bar
included) is laid out without overlaps on a phone (390 × 844) and on a laptop (1366 × 768) (issue 28: "seats on one
side never overlap"; the player's own bet chip never covers the hand title; on the phone "own seat and cards visible
above the action bar; presets and slider all reachable; no overlap of seats and board"). Two of the nine players
watch, one on each screen: when each one's turn comes, with a bet in front of every player who acted before, no two
seats overlap, no seat covers the community cards, no bet chip covers a seat, the board or the hand's title line,
the title line covers no card, the tournament bar is on screen and clear of the felt and of the action bar, the
player's own seat and cards are above the action bar, and every action, the amount box, the presets and the slider
are on the screen. Screenshots in test-artifacts/."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.utils import timezone

from games.models import Seat, Table
from games.runtime.presence import STALE_SECONDS, cash_table_presence
from poker_site.core.redis_clients import blocking_client
from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import LAPTOP, PHONE, log_in, my_turn, wait_live, wait_until
from tests.browser.setup import act_until_seat_acts, player, running_hand
from tests.browser.test_a_full_cash_table_is_laid_out_without_overlaps import BOXES, assert_nothing_overlaps
from tournaments.models import BountyKind, TournamentEntry, TournamentKind
from tournaments.rules.levels import structure_from_rows
from tournaments.services import tournament_register
from tournaments.services.catalog import tournament_create

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]

NAMES = ("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan")
LEVELS = structure_from_rows("nine", 1_500, [(10, 20, 0), (15, 30, 0), (25, 50, 5)], 600)

TOURNAMENT_BOXES = """() => {
  const box = element => { const r = element.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const bar = document.getElementById('tournament-bar');
  return {
    bar: box(bar),
    barShown: !bar.hidden && bar.querySelector('[data-item]') !== null,
    myCards: Array.from(document.querySelectorAll('#my-cards [data-card]')).map(box),
    slider: box(document.getElementById('bet-slider')),
    sliderShown: getComputedStyle(document.getElementById('bet-slider')).display !== 'none',
    viewportHeight: window.innerHeight,
    scrollWidth: document.documentElement.scrollWidth,
  };
}"""


def seen_as_live(table: Table, users: list[Any]) -> None:
    """Every player's socket on the table is live as the first hand is dealt (as when nine people sit at their
    screens): no one is dealt in sitting out (TRN-04) and the test acts for those without a page through the domain."""
    client = blocking_client()
    for user in users:
        key = cash_table_presence.key(user.pk, table.pk)
        client.zadd(key, {f"browser-test-{user.pk}": time.time()})
        client.expire(key, int(STALE_SECONDS) * 2)


def assert_laid_out(pages: Pages, page: Any, label: str, *, phone: bool) -> None:
    my_turn(page)
    wait_until(page, "document.querySelectorAll('#my-cards [data-card]').length === 2")
    wait_until(page, "document.querySelector('#tournament-bar [data-item]') !== null")
    boxes = page.evaluate(BOXES)
    more = page.evaluate(TOURNAMENT_BOXES)
    pages.screenshot(page, label)

    assert len(boxes["seats"]) == len(NAMES)
    assert len(boxes["bets"]) == len(NAMES), "not a bet in front of every player (seven calls and the blinds)"
    assert_nothing_overlaps(boxes)
    for seat_box in boxes["seats"]:
        assert seat_box[0] >= -1, "a seat reaches off the left of the screen"
        assert seat_box[2] <= boxes["viewportWidth"] + 1, "a seat reaches off the right of the screen"
    assert more["scrollWidth"] <= boxes["viewportWidth"] + 1, "the page scrolls sideways"

    bar, felt, action_bar = more["bar"], boxes["felt"], boxes["actionBar"]
    assert more["barShown"], "the tournament bar is not shown"
    assert bar[0] >= -1, "the tournament bar is cut off at the left"
    assert bar[2] <= boxes["viewportWidth"] + 1, "the tournament bar is cut off at the right"
    assert bar[3] <= felt[1] + 1, "the tournament bar runs into the felt"
    my_seat = boxes["mySeat"]
    assert my_seat[1] >= 0, "the player's own seat is scrolled off the top"
    assert my_seat[3] <= felt[3] + 1, "the player's own seat reaches out of the felt"
    assert my_seat[3] <= action_bar[1] + 1, "the action bar covers the player's own seat"
    for card in more["myCards"]:
        assert card[1] >= 0, "the player's cards are scrolled off the top"
        assert card[3] <= action_bar[1] + 1, "the action bar covers the player's cards"
    assert boxes["controls"]
    for control in boxes["controls"]:  # scrolled sideways in their row at most, never off the page
        assert control[0] >= -1
        assert control[1] >= action_bar[1] - 1, "a control is out of the action bar"
        assert control[3] <= more["viewportHeight"] + 1, "a control is below the screen"
    if not phone:
        for control in boxes["controls"]:
            assert control[2] <= boxes["viewportWidth"] + 1
    assert more["sliderShown"], "there is no bet slider"
    slider = more["slider"]
    assert slider[0] >= -1, "the slider is off the left of the screen"
    assert slider[2] <= boxes["viewportWidth"] + 1, "the slider is off the right of the screen"
    assert slider[1] >= action_bar[1] - 1, "the slider is out of the action bar"
    assert slider[3] <= more["viewportHeight"] + 1, "the slider is below the screen"


def test_a_nine_handed_tournament_table_fits_a_phone_and_a_laptop_without_overlaps(site: Any, pages: Pages) -> None:
    tournament = tournament_create(
        name="Nine-handed Sit & Go",
        kind=TournamentKind.SIT_AND_GO,
        seats_to_start=9,
        table_size=9,
        buy_in=1_000,
        fee=100,
        bounty_kind=BountyKind.REGULAR,
        bounty=500,
        structure=LEVELS,
        decision_seconds=90,
    )
    users = [player(name, cash_cents=5_000) for name in NAMES]
    for user in users:
        tournament_register(user, tournament)  # the ninth fills the Sit & Go: it starts, one table of nine
    table_id = TournamentEntry.objects.get(tournament=tournament, user=users[0]).table_id
    table = Table.objects.get(pk=table_id)
    assert table.seat_count == 9
    seen_as_live(table, users)
    Table.objects.filter(pk=table.pk, current_hand__isnull=True).update(next_hand_at=timezone.now())
    hand = running_hand(table, timeout=30)
    by_seat = {
        seat.number: seat.user for seat in Seat.objects.filter(table=table, user__isnull=False).select_related("user")
    }
    assert len(by_seat) == 9
    # The small blind and the big blind act last before the flop: when each one's turn comes, the seven players
    # before them have called, a bet chip in front of each.
    small_blind, big_blind = int(hand.config["small_blind_seat"]), int(hand.config["big_blind_seat"])
    act_until_seat_acts(table, by_seat, small_blind)
    phone = pages.new(**PHONE)
    laptop = pages.new(**LAPTOP)
    for page, seat_number in ((phone, small_blind), (laptop, big_blind)):
        log_in(page, by_seat[seat_number].username)
        page.goto(f"/games/tables/{table.pk}/")
        wait_live(page)
    assert_laid_out(pages, phone, "phone", phone=True)
    act_until_seat_acts(table, by_seat, big_blind)
    wait_until(phone, "document.querySelectorAll('#action-buttons [data-act]:not([hidden])').length === 0")
    assert_laid_out(pages, laptop, "laptop", phone=False)
