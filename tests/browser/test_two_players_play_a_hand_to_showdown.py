"""Two players sign up, deposit, sit at one table and play a hand to showdown through the real buttons, while a third
person watches. Afterwards the pot, stacks and balances the pages show match the ledger; a reload mid-hand restores
the table; the spectator never receives or sees a hole card before showdown.

Requirements: LOB-01 (lobby), LOB-04 (table controls), CASH-07/10 (buy-in), ENG-02/26 (betting rounds, showdown),
RAKE-03/06 (no-flop-no-drop does not apply: the hand reaches the river), GEN-07 (hand recorded), architecture rule 4
(hole cards reach their owner alone).
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from django.utils import timezone

from games.models import Hand, HandStatus, Stake, Table, TableSession
from games.services import table_open
from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import (
    FrameRecorder,
    board,
    deposit,
    header_balance,
    my_cards,
    seat_me_from_lobby,
    seat_stacks,
    sign_up,
    visible_actions,
    wait_live,
    wait_until,
    wait_until_stored,
)
from wallet.models import Account, AccountKind
from wallet.services import balance_of

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]


@pytest.fixture
def heads_up_table(site: Any) -> Table:
    """A Texas Hold'em NL10 table whose rules (back-office data, catalog 0.3) deal two players and wait a minute
    between hands, so the finished hand stays on screen while the test reads it."""
    stake = Stake.objects.select_related("game_type").get(game_type__code="holdem", label="NL10")
    rules = stake.game_type.rules_at()
    rules.pk = None
    rules.effective_from = timezone.now()
    rules.minimum_players_to_start = 2
    rules.continue_heads_up = True
    rules.decision_seconds = 90
    rules.pause_between_hands_milliseconds = 120_000
    rules.save()
    return table_open(stake)


def cash_balance(username: str) -> int:
    return int(Account.objects.get(owner__username=username, kind=AccountKind.PLAYER_CASH).balance)


def spectator_sees_no_face_up_hole_card(watcher: Any) -> None:
    assert watcher.locator("#seats .hole [data-card]:not([data-card=hidden])").count() == 0


def act_with_mouse(page: Any) -> str:
    actions = visible_actions(page)
    choice = "check" if "check" in actions else "call"
    page.locator(f"#action-buttons [data-act={choice}]").click()
    return choice


def act_with_keyboard(page: Any) -> str:
    """The turn moves focus to the check/call button; Enter presses it (no mouse)."""
    wait_until(page, "document.activeElement && ['check', 'call'].includes(document.activeElement.dataset.act)")
    choice = str(page.evaluate("document.activeElement.dataset.act"))
    page.keyboard.press("Enter")
    return choice


def test_two_players_play_a_hand_to_showdown_and_the_pages_match_the_ledger(
    heads_up_table: Table, pages: Pages
) -> None:
    table = heads_up_table
    alice, bob, watcher = pages.new(), pages.new(), pages.new()

    for page, name in ((alice, "alice"), (bob, "bob")):
        sign_up(page, name)
        deposit(page, "50")
        assert header_balance(page) == 5000 == cash_balance(name)
        assert page.locator("[data-testid=cash-balance]").get_attribute("data-cents") == "5000"
    pages.screenshot(alice, "cashier-after-deposit")

    recorder = FrameRecorder(watcher)
    watcher.goto(f"/games/tables/{table.pk}/")
    wait_live(watcher)

    # Bob watches the lobby while Alice sits down: the row updates without a reload.
    bob.goto("/")
    bob.wait_for_selector(f"#lobby-table-{table.pk}")
    assert bob.locator(f"#lobby-table-{table.pk} .seats-taken").get_attribute("data-players") == "0"
    pages.screenshot(bob, "lobby")
    seat_me_from_lobby(alice, table.pk, "10.00")
    wait_until(
        bob, f"document.querySelector('#lobby-table-{table.pk} .seats-taken')?.dataset.players === '1'", timeout=15_000
    )
    seat_me_from_lobby(bob, table.pk, "10.00")
    assert header_balance(alice) == 4000 == cash_balance("alice")

    # The hand starts by itself (the ticker); whoever is first to act sees only the legal actions.
    players = {"alice": alice, "bob": bob}
    wait_until(alice, "document.querySelectorAll('#my-cards [data-card]').length === 2", timeout=30_000)
    wait_until(bob, "document.querySelectorAll('#my-cards [data-card]').length === 2", timeout=30_000)
    cards = {name: my_cards(page) for name, page in players.items()}
    assert cards["alice"] != cards["bob"]
    spectator_sees_no_face_up_hole_card(watcher)
    pages.screenshot(watcher, "spectator-preflop")

    reloaded = False
    pot_before_showdown: int | None = None
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if alice.locator("#results li[data-hand-id]").count():
            break
        acting = next((name for name, page in players.items() if visible_actions(page)), None)
        if acting is None:
            alice.wait_for_timeout(150)
            continue
        page = players[acting]
        actions = visible_actions(page)
        assert set(actions) <= {"fold", "check", "call", "bet", "raise"}, actions
        assert not ({"check", "call"} <= set(actions)), "check and call are never legal together"
        spectator_sees_no_face_up_hole_card(watcher)
        if len(board(alice)) == 3 and not reloaded:
            # A reload mid-hand restores the table from a snapshot: same cards, board and stacks.
            before = (my_cards(alice), board(alice), seat_stacks(alice))
            pages.screenshot(alice, "flop-before-reload")
            alice.reload()
            wait_live(alice)
            wait_until(alice, "document.querySelectorAll('#my-cards [data-card]').length === 2")
            assert (my_cards(alice), board(alice), seat_stacks(alice)) == before
            pages.screenshot(alice, "flop-after-reload")
            reloaded = True
            continue
        if len(board(page)) == 5:
            pot_before_showdown = int(page.locator("#pot-total").get_attribute("data-cents"))
            pages.screenshot(page, "river-before-last-action")
        sequence = int(page.locator("#table-app").get_attribute("data-sequence"))
        if acting == "bob":
            act_with_keyboard(page)
        else:
            act_with_mouse(page)
        # The action is in once the table's event log has moved on (the next turn may be the same player's).
        wait_until(page, f"Number(document.getElementById('table-app').dataset.sequence) > {sequence}", timeout=15_000)
    else:
        pytest.fail("the hand did not finish")
    assert reloaded, "the hand never reached the flop"

    # The pages show the showdown as the table's owner plays it; its durable end (settlement, rake) commits a moment
    # later (issue 27: a hand is durable at its boundaries).
    hand = wait_until_stored(
        alice,
        lambda: Hand.objects.filter(table=table, status=HandStatus.FINISHED).first(),
        what="the hand's durable end",
    )
    assert hand.pot_total is not None
    assert hand.rake is not None
    assert hand.street_reached == "river"
    assert pot_before_showdown == hand.pot_total == 20  # both blinds completed: €0.10 each

    for page in (alice, bob, watcher):
        wait_until(
            page, f"document.querySelector('#results li[data-hand-id=\"{hand.pk}\"]')?.textContent.includes('rake')"
        )
    pages.screenshot(alice, "showdown")
    pages.screenshot(watcher, "spectator-showdown")

    # Stacks on every screen are the table accounts in the ledger; the winners collected the pot less the rake.
    sessions = {
        session.user.username: session for session in TableSession.objects.filter(table=table).select_related("user")
    }
    ledger_stacks = {name: balance_of(session.account) for name, session in sessions.items()}
    assert sum(ledger_stacks.values()) == 2000 - hand.rake
    for page in (alice, bob, watcher):
        wait_until(
            page,
            "expected => Object.entries(expected).every(([name, cents]) => [...document.querySelectorAll("
            "'#seats .seat:not(.empty)')].some(s => s.querySelector('.name').textContent.replace(' (you)', '') === name"
            " && Number(s.querySelector('.stack').dataset.cents) === cents))",
            arg=ledger_stacks,
        )
        assert seat_stacks(page) == ledger_stacks
    won = alice.locator(f"#results li[data-hand-id='{hand.pk}']").get_attribute("data-won")
    assert won is not None
    collected = {int(seat): cents for seat, cents in json.loads(won).items()}
    assert sum(collected.values()) == hand.pot_total - hand.rake
    for seat, cents in collected.items():
        name = next(n for n, s in sessions.items() if s.seat_number == seat)
        assert ledger_stacks[name] == 1000 - 10 + cents  # each put in €0.10
    for name, session in sessions.items():
        if session.seat_number not in collected:
            assert ledger_stacks[name] == 1000 - 10

    # The spectator was never sent a hole card or the deck; the showdown's shown cards are public.
    for frame in recorder.frames:
        if frame.get("type") == "snapshot":
            assert frame["snapshot"]["viewer"]["hole_cards"] == []
        for event in frame.get("events", []):
            if event.get("type") in {"hole_cards_dealt", "deck_recorded"}:
                assert "cards" not in event, event
    shown = [
        event for frame in recorder.frames for event in frame.get("events", []) if event.get("type") == "hand_shown"
    ]
    assert {tuple(event["cards"]) for event in shown} == {tuple(cards["alice"]), tuple(cards["bob"])}

    # Leaving returns the stack to the cash balance; the header and the cashier show the ledger's figure.
    alice.once("dialog", lambda dialog: dialog.accept())
    alice.locator("#leave-button").click()
    wait_until(alice, "document.getElementById('seat-controls').hidden === true", timeout=15_000)
    expected_cash = 4000 + ledger_stacks["alice"]
    assert cash_balance("alice") == expected_cash
    alice.goto("/wallet/")
    assert header_balance(alice) == expected_cash
    assert alice.locator("[data-testid=cash-balance]").get_attribute("data-cents") == str(expected_cash)
    assert alice.locator("[data-testid=at-tables]").get_attribute("data-cents") == "0"
    pages.screenshot(alice, "cashier-after-leaving")
