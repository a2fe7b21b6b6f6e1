"""The run command brings the whole site up on embedded services and Ctrl-C leaves nothing behind, with two web
processes (``WEB_PROCESSES=2``; the same test as tests/foundation/test_run_command.py, in a file of its own so that the
two run side by side on different workers)."""

from __future__ import annotations

import pytest

from tests.foundation.run_command import the_run_command_serves_the_site_and_ctrl_c_stops_every_process

pytestmark = [pytest.mark.slow, pytest.mark.live]  # it starts the whole site: daphne, the ticker, Celery


@pytest.mark.parametrize("web_processes", [2])
def test_the_run_command_serves_the_site_and_ctrl_c_stops_every_process(web_processes: int) -> None:
    """With ``WEB_PROCESSES=2`` two daphne processes accept on one inherited socket; Ctrl-C stops them all too."""
    the_run_command_serves_the_site_and_ctrl_c_stops_every_process(web_processes)
