"""What a person does in the browser, step by step, through the real pages and buttons."""

from __future__ import annotations

import contextlib
import json
import time
from typing import Any

PASSWORD = "a-long-enough-passphrase-42"

LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
"""The two screens issue 28 asks the live-play tests to pass on: a laptop and a phone. A test with several players
gives them different screens rather than running twice (issue 26: the suite is slow enough)."""


def sign_up(page: Any, username: str) -> None:
    page.goto("/accounts/sign-up/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Email").fill(f"{username}@example.com")
    page.locator("#id_password1").fill(PASSWORD)
    page.locator("#id_password2").fill(PASSWORD)
    page.locator("#id_date_of_birth").fill("1990-05-17")
    page.locator("#id_accept_terms").check()
    with page.expect_navigation(wait_until="domcontentloaded"):
        page.get_by_role("button", name="Create account").click()
    assert page.locator("[data-testid=player-name]").text_content() == username


def log_in(page: Any, username: str) -> None:
    page.goto("/accounts/log-in/")
    page.locator("#id_username").fill(username)
    page.locator("#id_password").fill(PASSWORD)
    with page.expect_navigation(wait_until="domcontentloaded"):
        page.locator("form.stacked button[type=submit]").click()
    assert page.locator("[data-testid=player-name]").text_content() == username


def deposit(page: Any, euros: str) -> None:
    """A sandbox deposit through the cashier page's form."""
    page.goto("/wallet/")
    page.locator("#id_deposit-amount").fill(euros)
    with page.expect_navigation(wait_until="domcontentloaded"):
        page.get_by_role("button", name="Deposit", exact=True).click()


def header_balance(page: Any) -> int:
    return int(page.locator("#header-balance").get_attribute("data-cents"))


def seat_me_from_lobby(page: Any, table_id: int, euros: str) -> None:
    """Ask for the stake of a lobby row ("Play this stake", CASH-04: the stake, not the table): the buy-in dialog, then
    the page of the table the stake queue assigns, which must be ``table_id``."""
    page.goto("/")
    row = page.locator(f"#lobby-table-{table_id}")
    row.locator("[data-action=play-stake]").click()
    page.locator("#buy-in-amount").fill(euros)
    page.locator("#buy-in-confirm").click()
    page.wait_for_url(f"**/games/tables/{table_id}/")
    wait_live(page)


def wait_until(page: Any, expression: str, *, arg: Any = None, timeout: float = 60_000) -> None:
    """Wait until the JavaScript ``expression`` (or function of ``arg``) is truthy in the page (``timeout`` in ms).

    Playwright's ``wait_for_function`` evaluates its predicate with ``eval`` inside the page, which the site's
    Content-Security-Policy refuses (no 'unsafe-eval'); ``page.evaluate`` goes through the DevTools protocol, outside
    the page's policy, so the expression is polled with it instead. The tests keep the policy on, as players have it.
    """
    deadline = time.monotonic() + timeout / 1000
    while not _evaluate_unless_navigating(page, expression, arg):
        if time.monotonic() > deadline:
            raise TimeoutError(f"still false after {timeout:.0f} ms: {expression}")
        page.wait_for_timeout(50)


def wait_until_stored(page: Any, condition: Any, *, what: str, timeout: float = 30_000) -> Any:
    """Poll ``condition`` (a database read, in this test) until it is truthy and return its value: for what the page
    sent to the server to be committed there. Between reads the page's events go on (Playwright's own wait, not a
    sleep). ``timeout`` in ms, generous: only a real fault reaches it."""
    deadline = time.monotonic() + timeout / 1000
    while not (value := condition()):
        if time.monotonic() > deadline:
            raise TimeoutError(f"{what}: not within {timeout:.0f} ms")
        page.wait_for_timeout(50)
    return value


def _evaluate_unless_navigating(page: Any, expression: str, arg: Any) -> Any:
    """The expression's value, or None while the page is being replaced (a navigation destroys the context)."""
    from playwright.sync_api import Error as PlaywrightError

    try:
        return page.evaluate(expression, arg)
    except PlaywrightError as error:
        if "Execution context was destroyed" in str(error) or "navigat" in str(error):
            return None
        raise


def wait_live(page: Any) -> None:
    wait_until(page, "document.getElementById('table-app').getAttribute('data-connection') === 'live'")


def my_turn(page: Any) -> None:
    """Wait until the action buttons are shown (the player's turn, with the legal actions drawn)."""
    wait_until(
        page,
        "document.querySelectorAll('#action-buttons [data-act]:not([hidden]):not([aria-disabled=true])').length > 0",
    )


def sent_actions(recorder: FrameRecorder) -> list[dict[str, Any]]:
    """The ``act`` frames a page sent, oldest first."""
    return [frame for frame in recorder.sent if frame.get("type") == "act"]


def visible_actions(page: Any) -> list[str]:
    """The action buttons the player can press now (shown and not waiting for the server's answer)."""
    return list(
        page.locator("#action-buttons [data-act]:visible:not([aria-disabled=true])").evaluate_all(
            "buttons => buttons.map(button => button.dataset.act)"
        )
    )


def my_cards(page: Any) -> list[str]:
    return list(page.locator("#my-cards [data-card]").evaluate_all("cs => cs.map(c => c.dataset.card)"))


def board(page: Any) -> list[str]:
    return list(page.locator("#community-cards [data-card]").evaluate_all("cs => cs.map(c => c.dataset.card)"))


def seat_stacks(page: Any) -> dict[str, int]:
    return {
        name: int(cents)
        for name, cents in page.locator("#seats .seat:not(.empty)").evaluate_all(
            "seats => seats.map(s => [s.querySelector('.name').textContent.replace(' (you)', ''),"
            " s.querySelector('.stack').dataset.cents])"
        )
    }


class FrameRecorder:
    """Every WebSocket frame a page receives (to prove what a spectator was sent)."""

    def __init__(self, page: Any) -> None:
        self.frames: list[dict[str, Any]] = []
        self.sent: list[dict[str, Any]] = []
        page.on("websocket", self._attach)

    def _attach(self, socket: Any) -> None:
        socket.on("framereceived", lambda payload: self._keep(self.frames, payload))
        socket.on("framesent", lambda payload: self._keep(self.sent, payload))

    @staticmethod
    def _keep(into: list[dict[str, Any]], payload: Any) -> None:
        text = payload if isinstance(payload, str) else payload.decode() if isinstance(payload, bytes) else None
        if text is None:
            return
        with contextlib.suppress(ValueError):
            into.append(json.loads(text))


def register_confirmed(page: Any, selector: str = "#register") -> None:
    """Click a tournament page's register button and, for a paid entry, confirm the buy-in, bounty and fee the page
    asks about before money is taken (``#register-confirm``); returns once the answer page has loaded."""
    page.locator(selector).click()
    if _evaluate_unless_navigating(page, "Boolean(document.getElementById('register-confirm')?.open)", None):
        with page.expect_navigation(wait_until="domcontentloaded"):
            page.locator("#register-confirm-yes").click()
    else:
        page.wait_for_load_state("domcontentloaded")


READABLE = """selector => {
  const element = document.querySelector(selector);
  if (element === null || element.hidden || element.getClientRects().length === 0) { return 'not shown'; }
  element.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  const box = element.getBoundingClientRect();
  if (box.width < 1 || box.height < 1) { return 'empty'; }
  if (box.left < -1 || box.right > window.innerWidth + 1) { return 'cut off at the side'; }
  if (box.top < -1 || box.bottom > window.innerHeight + 1) { return 'taller than the screen'; }
  const inset = Math.min(6, box.width / 4, box.height / 4);
  const points = [[box.left + inset, box.top + inset], [box.right - inset, box.top + inset],
    [box.left + inset, box.bottom - inset], [box.right - inset, box.bottom - inset],
    [box.left + box.width / 2, box.top + box.height / 2]];
  for (const [x, y] of points) {
    const top = document.elementFromPoint(x, y);
    if (top === null || !element.contains(top)) {
      return 'covered by ' + (top === null ? 'nothing' : top.tagName + '#' + top.id + '.' + top.className);
    }
  }
  if (document.documentElement.scrollWidth > window.innerWidth + 1) { return 'the page scrolls sideways'; }
  return 'readable';
}"""


def readable(page: Any, selector: str) -> str:
    """Whether the element ``selector`` can be read on this screen: shown, scrolled to as a player would, inside the
    screen's width and height, and covered by nothing (not the sticky action bar, not a banner) at its corners and
    middle, with no sideways scrolling of the page. ``"readable"``, or what is wrong."""
    return str(page.evaluate(READABLE, selector))


def on_both_screens(page: Any, selectors: tuple[str, ...]) -> None:
    """Assert ``selectors`` readable on the page's screen, then on the other one of :data:`LAPTOP` and :data:`PHONE`
    (the same page resized, as when a phone is turned or a window narrowed; no reload), then back. For what a test
    can show only on one page chosen by the cards (the winner's prize, the knocked-out player's panel, the player a
    table move picks): both screens without a second run."""
    size = page.viewport_size
    other = PHONE if size["width"] > PHONE["width"] else LAPTOP
    for screen in (size, other):
        page.set_viewport_size(screen)
        for selector in selectors:
            assert readable(page, selector) == "readable", f"{selector} at {screen['width']}×{screen['height']}"
    page.set_viewport_size(size)


def title_clear_of_cards(page: Any) -> bool:
    """The hand's title line (with the waiting messages) covers none of the cards at the seats (issue 28)."""
    return bool(
        page.evaluate(
            """() => {
                const title = document.getElementById('hand-info').getBoundingClientRect();
                return [...document.querySelectorAll('#seats [data-card]')].every(card => {
                    const box = card.getBoundingClientRect();
                    return Math.min(box.right, title.right) - Math.max(box.left, title.left) <= 1
                        || Math.min(box.bottom, title.bottom) - Math.max(box.top, title.top) <= 1;
                });
            }"""
        )
    )
