"""Daphne's Django app only makes ``manage.py runserver`` serve the site over ASGI (its websockets included); importing
it installs Twisted's reactor, 0.17 s of the start of every process. So ``runserver`` has it, and every other process
that sets Django up (the ticker, the table owners, Celery, commands, test workers) starts without it (issue 26)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

PROJECT_DIRECTORY = Path(__file__).resolve().parents[2]

SET_UP_AS = """
import json, sys
sys.argv = ["manage.py", *sys.argv[1:]]
import django
django.setup()
from django.conf import settings
print(json.dumps({"daphne_app": "daphne" in settings.INSTALLED_APPS, "twisted": "twisted.internet.reactor" in
    sys.modules or "daphne.server" in sys.modules}))
"""


def _set_up_django_as(command: str) -> dict[str, bool]:
    environment = {**os.environ, "DJANGO_SETTINGS_MODULE": "poker_site.settings"}
    result = subprocess.run(
        [sys.executable, "-c", SET_UP_AS, command],
        cwd=PROJECT_DIRECTORY,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return dict(json.loads(result.stdout.strip().splitlines()[-1]))


def test_runserver_serves_with_daphnes_app() -> None:
    assert _set_up_django_as("runserver") == {"daphne_app": True, "twisted": True}


def test_the_ticker_starts_without_daphnes_app_or_twisted() -> None:
    assert _set_up_django_as("run_ticker") == {"daphne_app": False, "twisted": False}
