"""Bot players for demos and load tests: they log in, connect over the real table sockets and play random legal
actions (``manage.py run_bots``, ``benchmarks/bench_tables.py``). Nothing here bypasses the protocol."""
