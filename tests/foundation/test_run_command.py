"""The run command brings the whole site up on embedded services and Ctrl-C leaves nothing behind (one web process)."""

from __future__ import annotations

import pytest

from tests.foundation.run_command import the_run_command_serves_the_site_and_ctrl_c_stops_every_process

pytestmark = [pytest.mark.slow, pytest.mark.live]  # it starts the whole site: daphne, the ticker, Celery


@pytest.mark.parametrize("web_processes", [1])
def test_the_run_command_serves_the_site_and_ctrl_c_stops_every_process(web_processes: int) -> None:
    """With one web process the demo bots bring a table of every game to life; Ctrl-C stops every process."""
    the_run_command_serves_the_site_and_ctrl_c_stops_every_process(web_processes)
