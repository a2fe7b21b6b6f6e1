"""The UTH browser tests use the live site and Chromium fixtures of the site's browser tests (tests/browser)."""

from tests.browser.conftest import (  # noqa: F401 - fixtures for this directory
    browser,
    chromium,
    flush_retried_after_a_deadlock,
    live_site,
    pages,
    site,
)
