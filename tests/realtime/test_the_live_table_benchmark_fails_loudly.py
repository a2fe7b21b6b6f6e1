"""The live-table benchmark (benchmarks/bench_tables.py) fails loudly (issue 27: it reported 0.0 actions/s after 44
of 176 handshakes were accepted): a window whose sockets were not all open, or that carried no action, is an error
with its reasons; and the servers are waited for until they answer HTTP, not only until their port listens."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from benchmarks.bench_tables import BenchmarkFailed, wait_for_serving, window_problems


def test_a_window_with_every_socket_open_and_actions_has_no_problem() -> None:
    assert window_problems("tables closed loop", sockets_open=60, sockets_expected=60, actions=412) == []


def test_a_window_whose_sockets_were_not_all_accepted_is_an_error_with_the_count() -> None:
    problems = window_problems("tables closed loop", sockets_open=44, sockets_expected=176, actions=9)
    assert problems == [
        "tables closed loop: 44 of 176 sockets were open when the window started "
        "(handshakes refused, timed out or dropped)"
    ]


def test_a_window_without_any_action_is_an_error_not_a_zero_figure() -> None:
    problems = window_problems("held level of 50 tables", sockets_open=300, sockets_expected=300, actions=0)
    assert problems == ["held level of 50 tables: the measuring window carried no action"]


@pytest.fixture
def listening_but_not_serving() -> Iterator[int]:
    """A port that accepts connections and never answers (a server still importing its application)."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    yield listener.getsockname()[1]
    listener.close()


def test_a_port_that_listens_without_serving_is_not_taken_for_a_server(listening_but_not_serving: int) -> None:
    with pytest.raises(BenchmarkFailed, match="did not serve within"):
        wait_for_serving(listening_but_not_serving, "/healthz", healthy=True, timeout=1.5)


def _server(status: int) -> ThreadingHTTPServer:
    class Answer(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(status)
            self.end_headers()

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Answer)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def test_a_server_that_answers_is_waited_for_and_a_failing_health_check_is_not_enough() -> None:
    healthy, not_found, failing = _server(200), _server(404), _server(503)
    try:
        wait_for_serving(healthy.server_address[1], "/healthz", healthy=True, timeout=10)
        wait_for_serving(not_found.server_address[1], "/", healthy=False, timeout=10)  # a socket-only application
        with pytest.raises(BenchmarkFailed, match="HTTP 503"):
            wait_for_serving(failing.server_address[1], "/healthz", healthy=True, timeout=1.5)
        with pytest.raises(BenchmarkFailed, match="HTTP 404"):
            wait_for_serving(not_found.server_address[1], "/healthz", healthy=True, timeout=1.5)
    finally:
        for server in (healthy, not_found, failing):
            server.shutdown()
            server.server_close()
