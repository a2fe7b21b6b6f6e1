"""CASH-04: every way a player or a bot sits down at a cash table goes through the stake queue (``table_join_queue``);
no page, API view, socket command or bot calls ``seat_take``, which picks a table (and a seat)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PLAYER_FACING = [
    "games/api.py",
    "games/pages.py",
    "games/runtime/commands.py",
    "games/cash/commands.py",
    "games/runtime/consumers.py",
    "games/bots/client.py",
    "games/bots/setup.py",
    "games/bots/tournament.py",
    "games/management/commands/run_bots.py",
]


def names_used(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    used = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    used |= {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    used |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) for alias in node.names}
    return used


def test_cash_04_no_player_facing_module_calls_seat_take_and_the_socket_and_api_use_the_stake_queue() -> None:
    offenders = [name for name in PLAYER_FACING if "seat_take" in names_used(ROOT / name)]
    assert offenders == []
    # The socket's seat_me and the API's queue view are the cash game's commands (registered with the runtime).
    assert "table_join_queue" in names_used(ROOT / "games/cash/commands.py")
    assert "join_stake_queue" in names_used(ROOT / "games/api.py")
