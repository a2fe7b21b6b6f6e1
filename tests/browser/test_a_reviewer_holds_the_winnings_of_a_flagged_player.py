"""FRD-19, FRD-18, FRD-04: two accounts play a hand at one table and connect to it from one address; the incremental
detection flags them. A compliance reviewer opens the top flag on the desk, opens a case from it, replays its hand
with every player's cards, the deck and the equities, and withholds the winner's winnings with a reason; the winner's
withdrawal is then refused with that reason."""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from compliance.models import ConnectionKind, ConnectionRecord, Flag
from compliance.services import detection_advance
from games.models import Hand, HandEvent, HandPlayer, Table
from poker_site.accounts.roles import COMPLIANCE_REVIEWERS
from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import PASSWORD, log_in, wait_live
from tests.browser.setup import check_or_call_down, heads_up_table, in_thread, player, seat
from tests.foundation.staff_roles import staff_member
from wallet.models import CashierTransaction, Hold, HoldStatus

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]

REASON = "Your winnings from hand play are under review for collusion."


@pytest.fixture
def played(site: Any) -> tuple[Table, Hand]:
    table = heads_up_table()
    alice, bob = player("alice"), player("bob")
    seat(alice, table, 1000, number=1)
    seat(bob, table, 1000, number=4)
    hand = check_or_call_down(table, {1: alice, 4: bob})
    reviewer = staff_member(COMPLIANCE_REVIEWERS, "rita")
    reviewer.set_password(PASSWORD)
    reviewer.save()
    return table, hand


def wait_for_table_sockets(usernames: set[str], timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        seen = set(
            ConnectionRecord.objects.filter(kind=ConnectionKind.TABLE_SOCKET).values_list("user__username", flat=True)
        )
        if usernames <= seen:
            return
        time.sleep(0.1)
    raise AssertionError(f"no socket connect recorded for {usernames - seen}")


def test_a_reviewer_replays_the_top_flag_and_holds_the_winnings_so_the_withdrawal_is_refused(
    played: tuple[Table, Hand], pages: Pages
) -> None:
    table, hand = played
    players = {page_user: pages.new() for page_user in ("alice", "bob")}
    for username, page in players.items():
        log_in(page, username)
        page.goto(f"/games/tables/{table.pk}/")
        wait_live(page)
    wait_for_table_sockets({"alice", "bob"})
    # Both browsers reach the test site from the loopback address, which tells players apart no more than it would in
    # production (the shared-connection indicator ignores it): place them behind one public address, as two accounts
    # of one household would be.
    ConnectionRecord.objects.filter(user__username__in=["alice", "bob"]).update(ip="198.51.100.7")
    in_thread(lambda: detection_advance(now=timezone.now() + timedelta(minutes=1)))
    flag = Flag.objects.get(indicator="shared_connection")
    assert flag.hands == [hand.pk]
    rows = {row.user.username: row for row in HandPlayer.objects.filter(hand=hand).select_related("user")}
    winner = max(rows, key=lambda name: rows[name].net or 0)
    cards = {
        row.payload["seat"]: row.payload["cards"]
        for row in HandEvent.objects.filter(hand=hand, kind="hole_cards_dealt")
    }

    desk = pages.new()
    log_in(desk, "rita")
    desk.locator("#compliance-desk-link").click()
    top = desk.locator("#flag-queue tbody tr").first
    assert top.get_attribute("data-flag-id") == str(flag.pk)
    top.locator("a[href^='/compliance/flags/']").click()
    assert desk.locator("#flag-players").text_content().strip() in ("alice, bob", "bob, alice")
    desk.locator("#open-case").click()
    desk.wait_for_selector("#case-subjects")
    case_url = desk.url
    desk.locator("#case-hands a").first.click()

    desk.wait_for_selector("#replay-seats .seat")
    for seat_number, hole in cards.items():
        row = desk.locator(f"#review-holdings tr[data-seat='{seat_number}'] td.cards")
        assert row.get_attribute("data-cards") == " ".join(hole)
        drawn = desk.locator(f"#replay-seats .seat[data-seat='{seat_number}'] .hole [data-card]").evaluate_all(
            "cards => cards.map(card => card.dataset.card)"
        )
        assert drawn == hole
    assert desk.locator("#review-deck li").count() == 52
    assert desk.locator("#review-equities tr[data-street='preflop']").count() == 2
    assert "decided in" in desk.locator("#replay-steps").text_content()
    pages.screenshot(desk, "review-replay")

    desk.goto(case_url)
    desk.locator("#id_hold-player").select_option(label=winner)
    desk.locator("#id_hold-amount").fill("10.00")
    desk.locator("#id_hold-reason").fill(REASON)
    with desk.expect_navigation(wait_until="domcontentloaded"):
        desk.locator("#hold-form button[type=submit]").click()
    assert desk.locator("#case-holds tbody tr").count() == 1
    hold = Hold.objects.get()
    assert (hold.player.username, hold.amount, hold.status) == (winner, 1000, HoldStatus.HELD)
    pages.screenshot(desk, "case-with-hold")

    wallet = players[winner]
    wallet.goto("/wallet/")
    wallet.locator("#id_withdraw-amount").fill("10")
    with wallet.expect_navigation(wait_until="domcontentloaded"):
        wallet.get_by_role("button", name="Withdraw", exact=True).click()
    refusal = wallet.locator(".notice-error").first.text_content()
    assert "Withdrawals are on hold while your account is under review" in refusal
    assert REASON in refusal
    assert not CashierTransaction.objects.filter(direction="withdrawal").exists()
    pages.screenshot(wallet, "withdrawal-refused")
