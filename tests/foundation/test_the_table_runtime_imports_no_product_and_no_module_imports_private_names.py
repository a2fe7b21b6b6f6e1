"""The table runtime knows a product only through its policy interface (issue 27): nothing under ``games/runtime``
imports the cash game (``games.cash``, or its façade ``games.services``), the tournaments (HexaPro among them) or
Ultimate Texas Hold'em; products register their policy, socket commands and lobby rows when their app is ready.
And no module of the application imports another module's ``_private`` names: what two modules share is public.

Every .py file is parsed (not imported), so an import in a function body counts as much as one at the top.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RUNTIME_DIRECTORY = ROOT / "games" / "runtime"
PRODUCT_PACKAGES = ("games.cash", "games.services", "games.uth", "tournaments", "hexapro")
APPLICATION_PACKAGES = ("games", "tournaments", "wallet", "compliance", "poker_site")


def module_name_of(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path) -> list[tuple[int, str, list[str]]]:
    """(line, absolute module, imported names) of every import statement in ``path``. ``from games import services``
    counts as an import of ``games.services``."""
    module = module_name_of(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: list[tuple[int, str, list[str]]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name, []) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                base = node.module or ""
            else:
                parts = package.split(".")
                if node.level > 1:
                    parts = parts[: -(node.level - 1)]
                base = ".".join([*parts, node.module] if node.module else parts)
            names = [alias.name for alias in node.names]
            found.append((node.lineno, base, names))
            found.extend((node.lineno, f"{base}.{name}", []) for name in names)
    return found


def is_product(module: str) -> bool:
    return any(module == package or module.startswith(package + ".") for package in PRODUCT_PACKAGES)


def application_files() -> list[Path]:
    files = []
    for package in APPLICATION_PACKAGES:
        files.extend(path for path in (ROOT / package).rglob("*.py") if "migrations" not in path.parts)
    return sorted(files)


def test_the_parser_sees_a_product_import_in_a_function_body() -> None:
    """The check itself can fail: a lazy import of a product is reported."""
    tree = ast.parse("def f():\n    from games import services\n    from games.cash.lobby import queue_answer\n")
    modules = [
        f"{node.module}.{alias.name}"
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    ]
    assert [module for module in modules if is_product(module)] == ["games.services", "games.cash.lobby.queue_answer"]


@pytest.mark.parametrize("path", sorted(RUNTIME_DIRECTORY.rglob("*.py")), ids=lambda path: path.name)
def test_the_runtime_module_imports_no_product(path: Path) -> None:
    offending = [f"line {line}: {module}" for line, module, _names in imports_of(path) if is_product(module)]
    assert offending == [], f"{module_name_of(path)} imports a product: {offending}"


def test_no_application_module_imports_another_modules_private_names() -> None:
    offending = []
    for path in application_files():
        for line, module, names in imports_of(path):
            private = [name for name in names if name.startswith("_") and not name.startswith("__")]
            if private and module != module_name_of(path):
                offending.append(f"{module_name_of(path)} line {line}: {module} {private}")
    assert offending == []
