"""At a tournament table, in the browser, on the live site with its Celery worker and beat: "Re-buy", "Add-on" and
"Re-enter" take money (TRN-39, TRN-40), so each first opens the page's confirmation dialog saying what is taken from
the balance (buy-in + fee = total, in euros as the page writes money) and the chips received, with Confirm and Cancel.
Nothing is sent until Confirm: after Cancel the page is where it was, no purchase or entry exists and the balance is
whole; after Confirm the re-buy is paid once. The add-on (offered at the end of the re-buy period) and the re-entry
(offered after a knock-out) are asked for by sending their forms as their buttons would."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import header_balance, log_in, wait_until
from tests.browser.setup import player, start_the_scheduled_tournament_now, tournament_started
from tests.tournaments.browser.support import rebuy_confirmed, rebuy_tournament_for_two
from tournaments.models import TournamentEntry, TournamentPurchase
from tournaments.services import tournament_register

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]

CASH = 5_000
ENTRY = 1_100  # €10 buy-in + €1 fee

DIALOG_OPEN = "document.getElementById('purchase-confirm').open"


def dialog_says(page: Any) -> tuple[str, str, str]:
    """The confirmation dialog's title, what it says is taken from the balance, and the chips it says are received."""
    return tuple(  # type: ignore[return-value]
        str(page.locator(selector).text_content())
        for selector in ("#purchase-confirm-title", "#purchase-confirm-charge", "#purchase-confirm-chips")
    )


def cancelled(page: Any) -> None:
    page.locator("#purchase-confirm-no").click()
    wait_until(page, f"!{DIALOG_OPEN}")


def test_re_buy_add_on_and_re_entry_say_what_they_take_and_send_nothing_until_confirmed_trn_39_trn_40(
    site: Any, pages: Pages
) -> None:
    tournament = rebuy_tournament_for_two(
        "Browser Purchases",
        add_on_allowed=True,
        add_on_buy_in=500,
        add_on_fee=50,
        add_on_chips=1_500,
        late_registration_levels=2,
        re_entries_maximum=1,
    )
    users = {name: player(name, cash_cents=CASH) for name in ("alice", "bob")}
    for user in users.values():
        tournament_register(user, tournament)
    start_the_scheduled_tournament_now(tournament)
    tournament_started(tournament)
    table_id = TournamentEntry.objects.get(tournament=tournament, user=users["alice"]).table_id
    alice = pages.new()
    log_in(alice, "alice")
    alice.goto(f"/games/tables/{table_id}/")
    wait_until(alice, "document.getElementById('table-app').getAttribute('data-connection') === 'live'")
    alice.evaluate("window.notReloaded = true")

    # Re-buy: the dialog says what it takes and gives; Cancel sends nothing.
    alice.locator("#rebuy").click()
    wait_until(alice, DIALOG_OPEN)
    assert dialog_says(alice) == (
        "Re-buy?",
        "Buy-in €10.00 + fee €1.00 = €11.00 will be taken from your balance.",
        "You receive 1,000 chips.",
    )
    pages.screenshot(alice, "re-buy-asked")
    assert not TournamentPurchase.objects.filter(entry__tournament=tournament).exists()
    cancelled(alice)
    assert alice.evaluate("window.notReloaded === true")
    assert not TournamentPurchase.objects.filter(entry__tournament=tournament).exists()
    assert header_balance(alice) == CASH - ENTRY

    # The add-on and the re-entry ask the same way, each with its own terms.
    alice.evaluate("document.querySelector('#purchase-buttons form[data-purchase=add_on]').requestSubmit()")
    wait_until(alice, DIALOG_OPEN)
    assert dialog_says(alice) == (
        "Take the add-on?",
        "Buy-in €5.00 + fee €0.50 = €5.50 will be taken from your balance.",
        "You receive 1,500 chips.",
    )
    cancelled(alice)
    alice.evaluate("document.getElementById('tournament-re-entry').requestSubmit()")
    wait_until(alice, DIALOG_OPEN)
    assert dialog_says(alice) == (
        "Re-enter the tournament?",
        "Buy-in €10.00 + fee €1.00 = €11.00 will be taken from your balance.",
        "You receive 500 chips.",
    )
    pages.screenshot(alice, "re-entry-asked")
    cancelled(alice)
    assert alice.evaluate("window.notReloaded === true")
    assert not TournamentPurchase.objects.filter(entry__tournament=tournament).exists()
    assert TournamentEntry.objects.filter(tournament=tournament, user=users["alice"]).count() == 1
    assert header_balance(alice) == CASH - ENTRY

    # Confirm sends the re-buy, once.
    rebuy_confirmed(alice)
    assert "Paid:" in alice.locator(".messages").text_content()
    purchase = TournamentPurchase.objects.get(entry__tournament=tournament)
    assert (purchase.kind, purchase.prize_contribution, purchase.fee, purchase.chips) == ("rebuy", 1_000, 100, 1_000)
    wait_until(alice, f"document.getElementById('header-balance').getAttribute('data-cents') === '{CASH - 2 * ENTRY}'")
