"""The UTH browser tests use the live site and Chromium fixtures of the site's browser tests (tests/browser)."""

from tests.browser.conftest import browser, live_site, pages, site  # noqa: F401 - fixtures for this directory
