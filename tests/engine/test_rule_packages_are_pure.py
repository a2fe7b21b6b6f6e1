"""The pure rule packages beside the engine (tournaments.rules, compliance.detection) import only the standard library,
the engine and themselves, like games/engine (architecture rule 1): their decisions are plain functions of plain values.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.engine.test_engine_is_pure import EXPLICITLY_FORBIDDEN, imported_modules

PROJECT_DIRECTORY = Path(__file__).resolve().parents[2]
PURE_PACKAGES = ("tournaments.rules", "compliance.detection")


def module_name_of(path: Path) -> str:
    parts = list(path.relative_to(PROJECT_DIRECTORY).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def allowed_in(package: str, module: str) -> bool:
    top_level = module.partition(".")[0]
    if top_level in EXPLICITLY_FORBIDDEN:
        return False
    for own in (package, "games.engine"):
        if module == own or module.startswith(own + "."):
            return True
    return top_level in sys.stdlib_module_names


@pytest.mark.parametrize("package", PURE_PACKAGES)
def test_a_pure_rule_package_imports_only_the_standard_library_the_engine_and_itself(package: str) -> None:
    directory = PROJECT_DIRECTORY.joinpath(*package.split("."))
    assert (directory / "__init__.py").is_file()
    violations = []
    for path in sorted(directory.rglob("*.py")):
        module = module_name_of(path)
        for line, imported in imported_modules(path.read_text(encoding="utf-8"), module, path.name == "__init__.py"):
            if not allowed_in(package, imported):
                violations.append(f"{path.relative_to(PROJECT_DIRECTORY)}:{line} imports {imported}")
    assert violations == []


def test_the_check_refuses_django_and_the_rest_of_the_project_in_a_rule_package() -> None:
    assert not allowed_in("tournaments.rules", "django.db")
    assert not allowed_in("tournaments.rules", "tournaments.models")
    assert not allowed_in("compliance.detection", "games.models")
    assert allowed_in("compliance.detection", "games.engine.evaluation")
    assert allowed_in("tournaments.rules", "tournaments.rules.levels")
