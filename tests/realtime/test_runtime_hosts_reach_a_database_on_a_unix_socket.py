"""The two-"host" runtime tests reach the shared PostgreSQL through forwarders whether it listens on TCP (CI, a
configured DATABASE_URL) or only on a Unix socket (the embedded server of a machine without DATABASE_URL, which is what
the README's ``make test`` uses there). With the socket's URL they forwarded to ``TCP:None:None``: no runtime process
in a namespace reached the database, and the four tests failed on every such machine."""

from __future__ import annotations

from tests.realtime.runtime_hosts import moved, server_address


def test_a_database_on_a_unix_socket_is_forwarded_to_the_socket_file() -> None:
    url = "postgresql://postgres:@/test_poker_gw0?host=/work/main/var/postgres"
    assert server_address(url) == "UNIX-CONNECT:/work/main/var/postgres/.s.PGSQL.5432"
    assert server_address(url + "&port=5433") == "UNIX-CONNECT:/work/main/var/postgres/.s.PGSQL.5433"


def test_servers_on_tcp_are_forwarded_to_their_address() -> None:
    assert server_address("postgresql://postgres@127.0.0.1:5432/poker") == "TCP:127.0.0.1:5432"
    assert server_address("redis://127.0.0.1:40123/3") == "TCP:127.0.0.1:40123"


def test_the_url_inside_a_namespace_points_at_its_forwarder_and_names_no_socket_directory() -> None:
    assert (
        moved("postgresql://postgres:@/test_poker_gw0?host=/work/main/var/postgres&sslmode=disable", "127.0.0.1", 15432)
        == "postgresql://postgres:@127.0.0.1:15432/test_poker_gw0?sslmode=disable"
    )
    assert moved("redis://127.0.0.1:40123/3", "127.0.0.1", 16379) == "redis://127.0.0.1:16379/3"
