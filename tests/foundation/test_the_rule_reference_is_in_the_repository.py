"""The rules live in the repository (``docs/rules/``, one page per area): every requirement ID a test names is defined
there, and the pages are what ``docs/rules/build.py`` makes of the requirements catalog when the catalog is at hand
(beside the repository, as on the team's machines and in CI)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType

import pytest

PROJECT = Path(__file__).resolve().parents[2]
RULES = PROJECT / "docs" / "rules"
NAMED_ID = re.compile(r"\b(?:GEN|CARD|ENG|CASH|TB|RAKE|TRN|HEX|FEE|CXL|FRD|UTH|LOB|AMB|SX|VD|ET)-\d{2,3}\b")


def load_builder() -> ModuleType:
    specification = importlib.util.spec_from_file_location("rules_build", RULES / "build.py")
    assert specification is not None
    assert specification.loader is not None
    module = importlib.util.module_from_spec(specification)
    specification.loader.exec_module(module)
    return module


def ids_defined_in_the_reference() -> set[str]:
    builder = load_builder()
    return {identifier for page in RULES.glob("*.md") for identifier in builder.defined_ids(page.read_text())}


def test_every_requirement_a_test_names_is_defined_in_the_rule_reference() -> None:
    defined = ids_defined_in_the_reference()
    named = {
        (identifier, str(path.relative_to(PROJECT)))
        for path in (PROJECT / "tests").rglob("*.py")
        for identifier in NAMED_ID.findall(path.read_text(encoding="utf-8"))
    }
    assert len(defined) > 300  # every area's requirements, examples, version differences and decisions
    assert sorted(pair for pair in named if pair[0] not in defined) == []


def test_the_index_links_a_page_for_every_area() -> None:
    index = (RULES / "README.md").read_text()
    for page in sorted(RULES.glob("*.md")):
        if page.name != "README.md":
            assert f"]({page.name})" in index, page.name


def test_the_pages_are_what_the_builder_makes_of_the_catalog() -> None:
    builder = load_builder()
    catalog = builder.DEFAULT_CATALOG
    if not catalog.exists():
        pytest.skip(f"the requirements catalog is not beside this clone ({catalog})")
    expected = builder.pages_from(catalog.read_text(encoding="utf-8"))
    for name, content in expected.items():
        assert (RULES / name).read_text(encoding="utf-8") == content, f"docs/rules/{name}: run docs/rules/build.py"
    assert {page.name for page in RULES.glob("*.md")} == set(expected)


def test_a_catalog_section_the_builder_does_not_place_is_refused() -> None:
    builder = load_builder()
    with pytest.raises(ValueError, match="does not place"):
        builder.pages_from("# Catalog\n\n## 99. Something new\n\n**NEW-01 — x.**\n")
