"""CASH-22 / TB-07: a player to act who is disconnected gets the reconnection grace after their decision time, and the
turn clock says "reconnecting" meanwhile. Once they are back, nobody is reconnecting any more: with no timebank left
the server keeps the grace's clock (``games.runtime.clocks.player_connection_restored`` switches to the timebank only
if some is left), but the clock no longer says "reconnecting" — on the returning player's page, and on every other
viewer's (QA report F, finding 6)."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from games.models import Stake, Table
from games.runtime.views import table_snapshot
from games.services import table_open
from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import log_in, my_turn, wait_live, wait_until
from tests.browser.setup import player, running_hand, seat
from tests.waiting import eventually

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]


def table_without_timebank() -> Table:
    """A heads-up NL10 table with a short decision time (2 s), no timebank (TB-02's first-hand value 0) and a long
    reconnection grace (two minutes, so a loaded machine has the time to open the returning player's page)."""
    stake = Stake.objects.select_related("game_type").get(game_type__code="holdem", label="NL10")
    rules = stake.game_type.rules_at()
    rules.pk = None
    rules.effective_from = timezone.now()
    rules.minimum_players_to_start = 2
    rules.continue_heads_up = True
    rules.decision_seconds = 2
    rules.timebank_first_hand_seconds = 0
    rules.reconnect_grace_seconds = 120
    rules.pause_between_hands_milliseconds = 120_000
    rules.save()
    return table_open(stake)


def clock_text(seat_number: int) -> str:
    return f"((document.querySelector(\"[data-clock-text='{seat_number}']\") || {{}}).textContent || '')"


def test_the_clock_stops_saying_reconnecting_once_the_player_to_act_is_back(site: Any, pages: Pages) -> None:
    table = table_without_timebank()
    users = {1: player("alice"), 4: player("bob")}
    seat(users[1], table, 1000, number=1)
    seat(users[4], table, 1000, number=4)
    hand = running_hand(table)
    away = hand.acting_seat
    assert away in users
    other = 4 if away == 1 else 1

    # The other player watches; the player to act has no page open: their decision time runs out and the
    # reconnection grace starts (they are seen as disconnected).
    watcher = pages.new(width=1366, height=800)
    log_in(watcher, users[other].username)
    watcher.goto(f"/games/tables/{table.pk}/")
    wait_live(watcher)
    wait_until(watcher, f"{clock_text(away)}.includes('reconnecting')")

    # They come back within the grace; with no timebank left, the grace's clock goes on.
    back = pages.new(width=1366, height=800)
    log_in(back, users[away].username)
    back.goto(f"/games/tables/{table.pk}/")
    wait_live(back)
    my_turn(back)

    def reconnected() -> dict[str, Any] | None:
        view: dict[str, Any] = table_snapshot(table, None)
        return view if not next(seat for seat in view["seats"] if seat["number"] == away)["disconnected"] else None

    assert eventually(reconnected, what="the player recorded as connected again")["hand"]["clock"] == "reconnect"

    for page in (watcher, back):
        wait_until(
            page, f"!{clock_text(away)}.includes('reconnecting') && /\\d+ s/.test({clock_text(away)})", timeout=20_000
        )
    wait_until(back, "!document.getElementById('my-clock-text').textContent.includes('reconnecting')", timeout=5_000)
    assert str(back.locator("#my-clock-text").text_content()).startswith("Time left:")
    assert "Disconnected" not in str(watcher.locator(f".seat[data-seat='{away}']").text_content())
