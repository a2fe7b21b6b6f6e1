"""The poker engine is pure (architecture rule 1): games/engine imports only the standard library and itself.

Every .py file under games/engine is parsed (not imported) and each import statement checked, so a forbidden import in a
rarely used branch or a function body is caught as well. Django, Channels, Celery, DRF and every other third-party
package are refused; so is the rest of the project (e.g. games.models), and dynamic imports by name.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ENGINE_DIRECTORY = Path(__file__).resolve().parents[2] / "games" / "engine"
ENGINE_PACKAGE = "games.engine"
EXPLICITLY_FORBIDDEN = ("django", "channels", "celery", "rest_framework")


def module_name_of(path: Path) -> str:
    relative = path.relative_to(ENGINE_DIRECTORY.parent.parent).with_suffix("")
    parts = list(relative.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_modules(source: str, module_name: str, is_package: bool) -> list[tuple[int, str]]:
    """(line, absolute module name) for every import in the source; dynamic imports are reported as "<dynamic>"."""
    found: list[tuple[int, str]] = []
    package = module_name if is_package else module_name.rpartition(".")[0]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                found.append((node.lineno, node.module or ""))
            else:
                base_parts = package.split(".")
                if node.level > 1:
                    base_parts = base_parts[: -(node.level - 1)]
                base = ".".join(base_parts)
                found.append((node.lineno, f"{base}.{node.module}" if node.module else base))
        elif isinstance(node, ast.Call):
            function = node.func
            name = function.id if isinstance(function, ast.Name) else getattr(function, "attr", "")
            if name in ("__import__", "import_module"):
                found.append((node.lineno, "<dynamic>"))
    return found


def allowed(module: str) -> bool:
    top_level = module.partition(".")[0]
    if top_level in EXPLICITLY_FORBIDDEN:
        return False
    if module == ENGINE_PACKAGE or module.startswith(ENGINE_PACKAGE + "."):
        return True
    return top_level in sys.stdlib_module_names


def violations_in(path: Path) -> list[str]:
    module_name = module_name_of(path)
    imports = imported_modules(path.read_text(encoding="utf-8"), module_name, path.name == "__init__.py")
    return [f"{path.name}:{line} imports {module}" for line, module in imports if not allowed(module)]


def test_the_engine_directory_has_python_modules_to_check() -> None:
    assert (ENGINE_DIRECTORY / "cards.py").is_file()
    assert len(list(ENGINE_DIRECTORY.rglob("*.py"))) >= 4


def test_no_module_under_games_engine_imports_anything_outside_the_standard_library() -> None:
    violations = [violation for path in sorted(ENGINE_DIRECTORY.rglob("*.py")) for violation in violations_in(path)]
    assert violations == []


@pytest.mark.parametrize(
    "source",
    [
        "import django",
        "from django.db import models",
        "import channels.layers",
        "from celery import shared_task",
        "from rest_framework import serializers",
        "import treys",
        "from games.models import Table",
        "from .. import models",
        "def later():\n    import redis",
        "import importlib\nimportlib.import_module('django')",
        "__import__('django')",
    ],
)
def test_the_checker_catches_forbidden_imports(source: str) -> None:
    imports = imported_modules(source, "games.engine.example", is_package=False)
    assert not all(allowed(module) for _, module in imports)


@pytest.mark.parametrize(
    "source",
    [
        "import itertools",
        "from collections.abc import Sequence",
        "from __future__ import annotations",
        "from games.engine.cards import Card",
        "from .cards import Card",
        "from . import cards",
    ],
)
def test_the_checker_accepts_the_standard_library_and_the_engine_itself(source: str) -> None:
    imports = imported_modules(source, "games.engine.example", is_package=False)
    assert all(allowed(module) for _, module in imports)
