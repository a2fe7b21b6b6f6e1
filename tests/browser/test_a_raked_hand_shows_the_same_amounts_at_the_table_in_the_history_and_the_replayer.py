"""A raked cash hand shows the same amounts everywhere (issue 28: "the hand log, the 'last hands' list and the replayer
show the same pot and the same net win, with the rake shown as its own line"): the table's hand log ends with the rake
line and what each winner collected with their net result, the table's "last hands" entry carries the same pot, rake
and net results, and the hand history and the replayer show them too — all equal to what the ledger settled
(CASH-17 rake, GEN-07 hand history, ENG-28 replayer)."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Hand, HandPlayer, HandStatus
from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import log_in, wait_until
from tests.browser.setup import (
    act,
    check_or_call,
    heads_up_table,
    legal_actions,
    player,
    running_hand,
    seat,
    seat_to_act,
    wait_until_ended,
)
from wallet.errors import format_cents

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]


def signed(cents: int) -> str:
    return ("+" if cents > 0 else "-" if cents < 0 else "") + format_cents(abs(cents))


def play_a_raised_pot_to_showdown(table: Any, users: dict[int, Any]) -> Hand:
    """The first player to act raises to €1.00, the other calls, then both check to the showdown."""
    hand = running_hand(table)
    raised = False
    while (acting := seat_to_act(table, hand.pk)) is not None:
        user = users[acting]
        legal = legal_actions(table, user)
        assert legal is not None
        if not raised and legal["raise_range"] is not None:
            act(table, user, "raise_to", 100)
            raised = True
        else:
            check_or_call(table, user)
    return wait_until_ended(hand)


def test_the_log_the_last_hands_list_the_history_and_the_replayer_agree_on_pot_rake_and_net(
    site: Any, pages: Pages
) -> None:
    table = heads_up_table()
    alice, bob = player("alice"), player("bob")
    seat(alice, table, 1_000, number=1)
    seat(bob, table, 1_000, number=4)
    page = pages.new(width=1366, height=768)
    log_in(page, "alice")
    page.goto(f"/games/tables/{table.pk}/")
    wait_until(page, "document.getElementById('table-app').getAttribute('data-connection') === 'live'")

    hand = play_a_raised_pot_to_showdown(table, {1: alice, 4: bob})
    assert hand.status == HandStatus.FINISHED
    assert hand.rake is not None
    assert hand.rake > 0  # a raked pot: the rake is its own line everywhere
    players = {row.seat_number: row for row in HandPlayer.objects.filter(hand=hand)}
    nets = {str(number): row.net for number, row in players.items()}
    names = {1: "alice", 4: "bob"}

    # The table's "last hands" entry: the settled pot, rake and net results.
    entry = f"#results li[data-hand-id='{hand.pk}']"
    wait_until(page, f'document.querySelector("{entry}") && document.querySelector("{entry}").dataset.net')
    item = page.locator(entry)
    assert item.get_attribute("data-pot") == str(hand.pot_total)
    assert item.get_attribute("data-rake") == str(hand.rake)
    assert page.evaluate(f'JSON.parse(document.querySelector("{entry}").dataset.net)') == nets
    text = item.text_content() or ""
    assert f"(pot {format_cents(hand.pot_total)}, rake {format_cents(hand.rake)})" in text
    # Each put in €1.00 (a raise to €1.00 and a call, then checks): a winner collects that plus their net result.
    collected = {number: (row.net or 0) + 100 for number, row in players.items() if (row.net or 0) + 100 > 0}
    assert sum(collected.values()) == hand.pot_total - hand.rake
    for number, amount in collected.items():
        assert f"{names[number]} won {format_cents(amount)} (net {signed(players[number].net or 0)})" in text

    # The hand log: the rake as its own line, then what the winner collected and their net result.
    log = page.locator("#action-log").text_content() or ""
    assert f"Rake {format_cents(hand.rake)} is taken from the pot." in log
    for number, amount in collected.items():
        assert f"{names[number]} collects {format_cents(amount)} (net {signed(players[number].net or 0)})" in log
    pages.screenshot(page, "table-log-and-last-hands")

    # The hand history and the replayer: the same pot and the same net result.
    mine = players[1]
    page.goto("/games/hands/")
    row = page.locator(f"#hand-list tr[data-hand-id='{hand.pk}']")
    assert row.locator("td.money").nth(0).get_attribute("data-cents") == str(hand.pot_total)
    assert row.locator("td.money").nth(1).get_attribute("data-cents") == str(mine.net)
    row.get_by_role("link", name="Replay").click()
    page.wait_for_selector("#replay-steps li")
    page.locator("#replay-last").click()
    wait_until(page, "document.getElementById('replay-next').disabled")
    for number, row_of_player in players.items():
        cell = page.locator(f"#replay-result-table tr[data-seat='{number}'] td").nth(4)
        assert cell.get_attribute("data-cents") == str(row_of_player.net)
    assert page.locator("#replay-rake").text_content() == (
        f"Pot {format_cents(hand.pot_total)}, rake {format_cents(hand.rake)}."
    )
    pages.screenshot(page, "replayer-result")
