"""The static-file middleware (WhiteNoise) walks the static-file finders' directories once per process and settings,
not once per middleware chain (every test client builds one), and serves exactly what WhiteNoise itself serves."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.test import override_settings
from whitenoise.middleware import WhiteNoiseMiddleware

from poker_site.core import static_files
from poker_site.core.static_files import StaticFilesMiddleware


def served(middleware: WhiteNoiseMiddleware) -> dict[str, tuple[str, list[tuple[str, str]]]]:
    """Each URL the middleware serves, with the file and the headers it answers with."""
    return {
        url: (static_file.alternatives[0][1], sorted(static_file.alternatives[0][2]))
        for url, static_file in middleware.files.items()
    }


def finder_scans(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    scans: list[int] = []
    get_finders = finders.get_finders

    def counted():  # type: ignore[no-untyped-def]
        scans.append(1)
        return get_finders()

    monkeypatch.setattr(finders, "get_finders", counted)
    return scans


def test_a_second_middleware_serves_the_same_files_without_walking_the_finders_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(static_files, "_FOUND_BY_FINDERS", {})
    scans = finder_scans(monkeypatch)
    first = StaticFilesMiddleware(lambda request: None)
    second = StaticFilesMiddleware(lambda request: None)
    assert len(scans) == 1
    assert "/static/js/common.js" in first.files
    assert served(second) == served(first)


def test_it_serves_what_whitenoise_serves() -> None:
    assert served(StaticFilesMiddleware(lambda request: None)) == served(WhiteNoiseMiddleware(lambda request: None))


def test_other_static_directories_are_walked_afresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    StaticFilesMiddleware(lambda request: None)  # the usual settings are scanned and kept
    scans = finder_scans(monkeypatch)
    (tmp_path / "extra.css").write_text("body { color: black; }")
    with override_settings(STATICFILES_DIRS=[tmp_path]):
        middleware = StaticFilesMiddleware(lambda request: None)
    assert len(scans) == 1
    assert middleware.files["/static/extra.css"].alternatives[0][1] == str(tmp_path / "extra.css")
