"""Build ``docs/rules/`` (the project's rule reference) from the requirements catalog, standard library only.

    python docs/rules/build.py [PATH/TO/REQUIREMENTS.md]     # default: ../shared/spec/REQUIREMENTS.md

The catalog (kept beside the repository by the operator's team) distils the operator's rule documents into numbered
requirements in our words, with every worked example and table of figures. This script writes one page per area
(``cash.md``, ``tournaments.md``, ...) and an index, so that a clone of this repository alone has the rules its tests
name. ``tests/foundation/test_the_rule_reference_is_in_the_repository.py`` checks that every requirement ID the tests
name is defined here and, where the catalog is at hand, that these pages are what this script makes of it.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

RULES_DIRECTORY = Path(__file__).resolve().parent
DEFAULT_CATALOG = RULES_DIRECTORY.parents[2] / "shared" / "spec" / "REQUIREMENTS.md"

PAGES = {
    "0": ("sources", "Sources, precedence and conventions"),
    "1": ("general", "General and cross-cutting (GEN)"),
    "2": ("cards", "Cards, deck and hand ranking (CARD)"),
    "3": ("engine", "Hold'em / Omaha betting engine (ENG)"),
    "4": ("cash", "Cash-game table management (CASH)"),
    "5": ("timebank", "Timebank (TB)"),
    "6": ("rake", "Cash-game rake (RAKE)"),
    "7": ("tournaments", "Tournaments, Sit & Go and tournament types (TRN)"),
    "8": ("hexapro", "HexaPro and HexaPro Extreme (HEX)"),
    "9": ("fees", "Fees: Sit & Go and tournaments (FEE)"),
    "10": ("cancellation", "Tournament cancellation policy (CXL)"),
    "11": ("fraud", "Unethical play, fraud, collusion and compliance (FRD)"),
    "12": ("uth", "Ultimate Texas Hold'em against the house (UTH)"),
    "13": ("lobby", "Lobby, client settings and back-office surfaces (LOB)"),
    "14": ("examples", "Index of worked examples (SX)"),
    "15": ("versions", "Version differences (VD, ET)"),
    "16": ("decisions", "Ambiguities and decisions (AMB)"),
}

SECTION = re.compile(r"^## (\d+)\. ")
DEFINED_ID = re.compile(r"^(?:\*\*|\| )([A-Z]{2,4}-\d{2,3})\b")
"""An ID is defined where a paragraph starts with it in bold (``**TRN-26 — ...``) or a table row names it first."""

GENERATED = "<!-- Made by docs/rules/build.py from the requirements catalog; edit the catalog, then run the script. -->"


def split_sections(catalog: str) -> tuple[str, dict[str, list[str]]]:
    """The catalog's preamble (title and audience) and its numbered top-level sections, by number."""
    preamble: list[str] = []
    sections: dict[str, list[str]] = {}
    current: list[str] = preamble
    for line in catalog.splitlines():
        match = SECTION.match(line)
        if match:
            current = sections.setdefault(match.group(1), [])
        current.append(line)
    return "\n".join(preamble).strip(), sections


def defined_ids(text: str) -> list[str]:
    return [match.group(1) for line in text.splitlines() if (match := DEFINED_ID.match(line))]


def pages_from(catalog: str) -> dict[str, str]:
    """File name → content of every page and of the index (``README.md``)."""
    _preamble, sections = split_sections(catalog)
    unknown = sorted(set(sections) - set(PAGES))
    if unknown:
        raise ValueError(f"the catalog has sections this script does not place: {unknown}; add them to PAGES")
    pages: dict[str, str] = {}
    index_rows = []
    for number, (name, title) in PAGES.items():
        if number not in sections:
            continue
        body = "\n".join(sections[number]).strip()
        pages[f"{name}.md"] = f"{GENERATED}\n\n{body}\n"
        ids = defined_ids(body)
        span = f"{ids[0]} … {ids[-1]} ({len(ids)})" if ids else ""
        index_rows.append(f"| {number} | [{title}]({name}.md) | {span} |")
    pages["README.md"] = "\n".join(
        [
            GENERATED,
            "",
            "# The rules, by area",
            "",
            "The operator's rules as this product implements them: every requirement with its ID (ENG-07, CASH-12,",
            "TRN-31 ...), its statement in our words, its source in the operator's rule documents (version 2.7",
            "governs; the Ultimate Texas Hold'em document is its own game), the worked examples and tables of figures,",
            "and the decisions taken where the documents are unclear (AMB-nn). Tests name the IDs they check:",
            "`grep -rn TRN-26 tests/` finds them, and the same search over the apps finds the code.",
            "",
            "| § | area | requirements |",
            "|---|---|---|",
            *index_rows,
            "",
        ]
    )
    return pages


def main(argv: list[str]) -> int:
    catalog_path = Path(argv[1]) if len(argv) > 1 else DEFAULT_CATALOG
    pages = pages_from(catalog_path.read_text(encoding="utf-8"))
    for name, content in pages.items():
        (RULES_DIRECTORY / name).write_text(content, encoding="utf-8")
    print(f"wrote {len(pages)} pages to {RULES_DIRECTORY}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
