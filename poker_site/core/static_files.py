"""WhiteNoise, with the files its static-file finders list scanned once per process and settings.

:class:`StaticFilesMiddleware` serves exactly what ``whitenoise.middleware.WhiteNoiseMiddleware`` serves. WhiteNoise
walks every finder's directories (the project's ``static/``, the admin's and the API docs' files: several hundred
files, each stat-ed) in ``__init__``, and Django builds a new middleware chain for every test client: the test suite
spent about 15 s of CPU walking the same directories over and over (issue 26). A site process builds its chain once,
so there the cache changes nothing.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from whitenoise.middleware import WhiteNoiseMiddleware

_FOUND_BY_FINDERS: dict[tuple[object, ...], dict[str, Any]] = {}
"""What the finders gave, by everything that decides it (the URL prefix, WhiteNoise's settings, the storages, the
finders and the apps and directories they search): a test that overrides one of these settings gets a scan of its
own."""


class StaticFilesMiddleware(WhiteNoiseMiddleware):
    def add_files_from_finders(self) -> None:
        key = (
            self.static_prefix,
            settings.DEBUG,  # WhiteNoise's default max-age
            repr(settings.STORAGES),  # immutable (hashed) names
            *(repr((name, getattr(settings, name))) for name in sorted(dir(settings)) if name[:11] == "WHITENOISE_"),
            *settings.STATICFILES_FINDERS,
            *(str(directory) for directory in settings.STATICFILES_DIRS),
            *settings.INSTALLED_APPS,
        )
        found = _FOUND_BY_FINDERS.get(key)
        if found is None:
            # WhiteNoise adds to self.files; collect the finders' part apart so that it can be kept and reused.
            files_before: dict[str, Any] = self.files  # type: ignore[has-type]  # WhiteNoise's is not annotated
            self.files = found = {}
            try:
                super().add_files_from_finders()
            finally:
                self.files = files_before
            _FOUND_BY_FINDERS[key] = found
        self.files.update(found)
