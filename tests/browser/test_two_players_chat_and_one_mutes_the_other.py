"""Table chat in the browser (issue 22): two seated players chat at a table; a line reaches the other player and a
watcher; a ``<script>`` line is shown as text and runs nothing; one player mutes the other, whose lines disappear from
their screen only, stay hidden after a reload (remembered in localStorage) and come back on "Unmute"; the watcher reads
the chat but has no input; a refused line is explained next to the input."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Stake, Table
from games.services import table_open
from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import log_in, wait_live, wait_until
from tests.browser.setup import player, seat

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]

SCRIPT = '<script>window.chatInjected = true</script><img src=x onerror="window.chatInjected = true">'


@pytest.fixture
def table_with_two(site: Any) -> tuple[Table, Any, Any]:
    """A cash table with two players seated (the catalogue's rules wait for a third before dealing)."""
    table = table_open(Stake.objects.get(game_type__code="holdem", label="NL10"))
    anne, bert = player("anne"), player("bert")
    seat(anne, table, 1000, number=1)
    seat(bert, table, 1000, number=4)
    player("walter")
    return table, anne, bert


def open_table_page(pages: Pages, table: Table, username: str) -> Any:
    page = pages.new()
    log_in(page, username)
    page.goto(f"/games/tables/{table.pk}/")
    wait_live(page)
    return page


def say(page: Any, text: str) -> None:
    page.locator("#chat-input").fill(text)
    page.locator("#chat-form button[type=submit]").click()
    wait_until(page, "document.getElementById('chat-input').value === ''")


def shown_lines(page: Any) -> list[str]:
    return list(
        page.evaluate(
            "Array.from(document.querySelectorAll('#chat-lines li:not([hidden])')).map(item =>"
            " item.querySelector('.chat-name').textContent + ': ' + item.querySelector('.chat-text').textContent)"
        )
    )


def wait_for_line(page: Any, text: str) -> None:
    wait_until(
        page,
        "text => Array.from(document.querySelectorAll('#chat-lines .chat-text'))"
        ".some(item => item.textContent === text)",
        arg=text,
    )


def test_two_players_chat_and_one_mutes_the_other(table_with_two: tuple[Table, Any, Any], pages: Pages) -> None:
    table, _anne, _bert = table_with_two
    anne = open_table_page(pages, table, "anne")
    bert = open_table_page(pages, table, "bert")
    walter = open_table_page(pages, table, "walter")

    say(anne, "good luck, bert")
    wait_for_line(bert, "good luck, bert")
    say(bert, "thanks, anne")
    for page in (anne, bert, walter):
        wait_for_line(page, "thanks, anne")
        assert shown_lines(page)[-2:] == ["anne: good luck, bert", "bert: thanks, anne"]

    # A line with markup is text: nothing of it runs or becomes an element.
    say(anne, SCRIPT)
    wait_for_line(bert, SCRIPT)
    assert bert.evaluate("window.chatInjected") is None
    assert bert.locator("#chat-lines script, #chat-lines img").count() == 0

    # The watcher reads along but has no input.
    wait_for_line(walter, SCRIPT)
    assert walter.locator("#chat-form").is_hidden()
    assert walter.locator("#chat-read-only").is_visible()
    assert not anne.locator("#chat-read-only").is_visible()

    # Bert mutes Anne: her lines go from his screen only.
    bert.locator("#chat-lines li[data-user-id] [data-chat-mute]").first.click()
    wait_until(bert, "document.querySelectorAll('#chat-lines li:not([hidden])').length === 1")
    assert shown_lines(bert) == ["bert: thanks, anne"]
    assert bert.locator("#chat-muted").is_visible()
    say(anne, "can you hear me?")
    wait_for_line(bert, "can you hear me?")  # received, but not shown
    assert shown_lines(bert) == ["bert: thanks, anne"]
    assert shown_lines(anne)[-1] == "anne: can you hear me?"
    pages.screenshot(bert, "anne-muted")

    # The mute is remembered after a reload.
    bert.reload()
    wait_live(bert)
    wait_for_line(bert, "can you hear me?")
    assert shown_lines(bert) == ["bert: thanks, anne"]
    assert "anne" in str(bert.locator("#chat-muted").text_content())

    # Unmute: her lines are back.
    bert.locator("#chat-muted summary").click()
    bert.locator("[data-chat-unmute]").click()
    wait_until(bert, "document.querySelectorAll('#chat-lines li:not([hidden])').length === 4")
    assert shown_lines(bert)[-1] == "anne: can you hear me?"
    assert bert.locator("#chat-muted").is_hidden()


def test_a_refused_line_is_explained_next_to_the_input(table_with_two: tuple[Table, Any, Any], pages: Pages) -> None:
    table, _anne, _bert = table_with_two
    anne = open_table_page(pages, table, "anne")
    anne.locator("#chat-input").fill("   ")
    anne.locator("#chat-form button[type=submit]").click()
    anne.wait_for_selector("#chat-notices .notice")
    assert "Write a message first" in str(anne.locator("#chat-notices").text_content())
    anne.locator("#chat-input").fill("you idiot")
    anne.locator("#chat-form button[type=submit]").click()
    wait_until(anne, "document.getElementById('chat-notices').textContent.includes('offensive language')")
    assert anne.locator("#chat-lines li").count() == 0
    assert anne.locator("#chat-input").input_value() == "you idiot"  # kept, so the player can change it
