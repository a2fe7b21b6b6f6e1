"""Estonian is complete where the pages' own test cannot look (issue 28): every string the site's JavaScript builds
(``gettext`` / ``ngettext`` / ``P.t`` in ``static/js`` and the UTH table's script) is translated in ``djangojs.po``;
every string the player-facing Python code translates (refusals, buy-in reasons, queue messages) is translated in
``django.po``; and every error code a socket or API can send a player has plain words in the page's language, so an
Estonian player never reads the server's English sentence (``common.js`` shows the server's text only for codes it
does not know). Fuzzy entries count as untranslated: Django does not use them.

The glossary is checked too: blinds are "pimepanused" (väike pimepanus, suur pimepanus, pimepanuste struktuur), the
words of the operator's Estonian rule document (seed 004) and of issue 28; never "pimedad" nor the loan word "blindid"
(Ultimate Texas Hold'em's bet named Blind keeps its name).
"""

from __future__ import annotations

import ast
import re

from tests.foundation.test_players_are_never_shown_requirement_ids import (
    ROOT,
    SCRIPTS,
    call_name,
    is_staff_module,
    without_script_comments,
)

LOCALE = ROOT / "locale/et/LC_MESSAGES"
LITERAL = r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\''
SCRIPT_CALL = re.compile(r"\b(?:gettext|ngettext|P\.t)\(\s*(" + LITERAL + r")(\s*\+)?")
PYTHON_GETTEXT = {"_", "gettext", "gettext_lazy", "ngettext", "ngettext_lazy"}

# The modules whose errors reach players, and the calls that send a code to a player's socket or API client.
PLAYER_ERROR_MODULES = (
    "games/runtime/errors.py",
    "games/uth/errors.py",
    "games/chat/errors.py",
    "games/chat/rules.py",
    "games/chat/services.py",
    "games/runtime/protocol.py",
    "games/runtime/commands.py",
    "games/runtime/consumers.py",
    "games/uth/consumers.py",
    "tournaments/services/errors.py",
    "poker_site/responsible_gaming/services.py",
    "wallet/errors.py",
)
CODE_CALLS = {"ProtocolError", "CommandRefused", "ChatRefused", "ChatLineRefused", "send_error", "UthRefused"}
# Codes only staff meet (the back office, the ledger's own consistency errors) and the base classes' codes.
STAFF_OR_INTERNAL_CODES = {
    "case_already_closed",
    "hold_already_decided",
    "proposal_already_decided",
    "unbalanced_transfer",
    "unknown_account",
    "currency_mismatch",
    "invalid_transfer",
    "wallet_error",
    "idempotency_conflict",
    "reason_required",
    "mute_refused",
}
CHIPS_WRONG = re.compile(r"[Kk]ii[bp]")  # kiip, kiibid, kiipi, alguskiibid, kiibivirn
BLINDS_WRONG = re.compile(r"\b([Pp]imeda\w*|[Bb]lindid\b|[Bb]lindide\w*|[Ss]uur\w*\s+blind\w*|[Vv]äike\w*\s+blind\w*)")


def catalogue(name: str) -> dict[str, tuple[str, bool]]:
    """msgid -> (msgstr, all forms joined; fuzzy) of a .po file, obsolete entries left out."""
    entries: dict[str, tuple[str, bool]] = {}
    msgid: list[str] | None = None
    msgstr: list[str] = []
    current: list[str] | None = None
    fuzzy = False
    for line in [*(LOCALE / name).read_text().splitlines(), ""]:
        if line.startswith("#,"):
            fuzzy = "fuzzy" in line
        elif line.startswith("msgid "):
            msgid, current = [ast.literal_eval(line[6:])], None
            current = msgid
        elif line.startswith("msgid_plural"):
            current = None
        elif line.startswith("msgstr"):
            msgstr.append(ast.literal_eval(line.split(" ", 1)[1]))
            current = msgstr
        elif line.startswith('"') and current is not None:
            current.append(ast.literal_eval(line))
        elif not line.strip():
            if msgid is not None and "".join(msgid):
                entries["".join(msgid)] = ("".join(msgstr), fuzzy)
            msgid, msgstr, current, fuzzy = None, [], None, False
    return entries


def untranslated(entries: dict[str, tuple[str, bool]], msgid: str) -> bool:
    translation, fuzzy = entries.get(msgid, ("", False))
    return not translation or fuzzy


def script_strings() -> list[tuple[str, str]]:
    """(where, msgid) of every string the scripts translate; a concatenated msgid is reported as such."""
    found = []
    for script in SCRIPTS:
        source = without_script_comments(script.read_text())
        for match in SCRIPT_CALL.finditer(source):
            where = f"{script.relative_to(ROOT)}:{source.count(chr(10), 0, match.start()) + 1}"
            if match.group(2):
                found.append((where, "<built with + : the catalogue cannot hold it> " + match.group(1)))
            else:
                found.append((where, ast.literal_eval(match.group(1))))
    return found


def python_strings() -> list[tuple[str, str]]:
    found = []
    for package in ("games", "tournaments", "wallet", "poker_site"):
        for module in sorted((ROOT / package).rglob("*.py")):
            if is_staff_module(module):
                continue
            for node in ast.walk(ast.parse(module.read_text())):
                if isinstance(node, ast.Call) and call_name(node) in PYTHON_GETTEXT and node.args:
                    first = node.args[0]
                    if isinstance(first, ast.Constant) and isinstance(first.value, str):
                        found.append((f"{module.relative_to(ROOT)}:{node.lineno}", first.value))
    return found


def player_error_codes() -> dict[str, str]:
    """code -> where, for every error code the player-facing modules define or send."""
    codes: dict[str, str] = {}
    for relative in PLAYER_ERROR_MODULES:
        path = ROOT / relative
        if not path.exists():
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Assign) and any(
                isinstance(target, ast.Name) and target.id == "code" for target in node.targets
            ):
                value = node.value
                if isinstance(value, ast.Constant) and isinstance(value.value, str):
                    codes.setdefault(value.value, f"{relative}:{node.lineno}")
            elif isinstance(node, ast.Call) and call_name(node) in CODE_CALLS:
                # The code is the first argument, or the ``code=`` keyword (UthRefused(message, code=...)).
                given = [keyword.value for keyword in node.keywords if keyword.arg == "code"] or node.args[:1]
                if given and isinstance(given[0], ast.Constant) and isinstance(given[0].value, str):
                    codes.setdefault(given[0].value, f"{relative}:{node.lineno}")
    for code in ("table_error", *STAFF_OR_INTERNAL_CODES):
        codes.pop(code, None)
    return codes


def codes_with_words() -> set[str]:
    """The codes the scripts have plain words for: common.js's ERROR_TEXT and the chat's own refusals."""
    common = (ROOT / "static/js/common.js").read_text()
    table = common[common.index("var ERROR_TEXT = {") : common.index("};", common.index("var ERROR_TEXT = {"))]
    chat = (ROOT / "static/js/chat.js").read_text()
    chat_known = chat[chat.index("var known = {") : chat.index("}[code]", chat.index("var known = {"))]
    words = set(re.findall(r"^\s*([a-z_]+):\s*gettext\(", table + "\n" + chat_known, re.M))
    return words | set(re.findall(r'code === "([a-z_]+)"', chat))


def test_the_scans_find_what_they_look_for() -> None:
    """The checks can fail: the scans see the strings, codes and words they are meant to see."""
    strings = {msgid for _where, msgid in script_strings()}
    assert "It is not your turn." in strings  # common.js
    assert "%(count)s player" in strings  # an ngettext in lobby.js
    assert "Play now at another %(stake)s table:" in strings  # table.js
    assert "The usual buy-in range of this table" in {msgid for _where, msgid in python_strings()}
    assert {"not_your_turn", "buy_in_refused", "bad_amount", "chat_too_long"} <= set(player_error_codes())
    assert {"not_your_turn", "chat_too_long"} <= codes_with_words()
    assert untranslated(catalogue("djangojs.po"), "a string no one translated")
    assert BLINDS_WRONG.search("Tase 2: pimedad 10/20")
    assert BLINDS_WRONG.search("Pimedate struktuur")
    assert BLINDS_WRONG.search("10 suure blindiga")
    assert BLINDS_WRONG.search("Blindide struktuur")
    assert not BLINDS_WRONG.search("suur pimepanus")
    assert not BLINDS_WRONG.search("Blind, võrdne Antega")  # the UTH bet's name
    assert CHIPS_WRONG.search("Makstud: 500 kiipi lisati")
    assert CHIPS_WRONG.search("Keskmine kiibivirn")
    assert not CHIPS_WRONG.search("Makstud: sinu stäkile lisati 500 mängumärki.")


def test_every_string_the_scripts_build_is_translated_into_estonian() -> None:
    entries = catalogue("djangojs.po")
    missing = [f"{where}: {msgid}" for where, msgid in script_strings() if untranslated(entries, msgid)]
    assert missing == []


def test_every_string_the_player_facing_python_code_translates_is_in_estonian() -> None:
    entries = catalogue("django.po")
    missing = [f"{where}: {msgid}" for where, msgid in python_strings() if untranslated(entries, msgid)]
    assert missing == []


def test_every_error_code_a_player_can_be_sent_has_plain_words_in_the_pages_language() -> None:
    """Socket and API refusals: common.js translates by code (the server's sentence is English, shown only to English
    players); a code it does not know would show an Estonian player English."""
    known = codes_with_words()
    missing = {code: where for code, where in player_error_codes().items() if code not in known}
    assert missing == {}


def test_blinds_are_pimepanused_in_every_estonian_string_and_rule_page() -> None:
    """The glossary: "blind" is "pimepanus" (väike pimepanus, suur pimepanus, pimepanused, pimepanuste struktuur), the
    word of the Estonian rule document (issue 28); "pimedad" and "blindid" are not used, in the catalogues nor in the
    Estonian rule pages."""
    wrong = [
        f"{name}: {msgid} -> {translation}"
        for name in ("django.po", "djangojs.po")
        for msgid, (translation, _fuzzy) in catalogue(name).items()
        if BLINDS_WRONG.search(translation)
    ]
    wrong += [
        f"{page.relative_to(ROOT)}: {match.group(0)}"
        for page in sorted((ROOT / "templates/rules/et").glob("*.html"))
        for match in BLINDS_WRONG.finditer(page.read_text())
    ]
    assert wrong == []


def test_poker_chips_are_mangumargid_and_only_the_uth_tables_casino_chips_are_zetoonid() -> None:
    """The glossary: poker chips (a stack, a tournament's chips, chips back from a table) are "mängumärgid", the word of
    the Estonian rule document (seed 004 uses no other), never "kiibid" (a stack is "stäkk", not a "kiibivirn");
    "žetoon" is kept only for the casino chips a player picks and places at the Ultimate Texas Hold'em table, whose
    strings come from the UTH templates and scripts alone (and the UTH models' own labels)."""
    wrong = [
        f"{name}: {translation}"
        for name in ("django.po", "djangojs.po")
        for references, translation in translations_with_references(name)
        if (re.search(r"[žŽ]etoon", translation) and not (references and all("uth/" in path for path in references)))
        or CHIPS_WRONG.search(translation)
    ]
    assert wrong == []


def translations_with_references(name: str) -> list[tuple[list[str], str]]:
    """(source references, translation) of every entry of a .po file."""
    entries = []
    for block in (LOCALE / name).read_text().split("\n\n"):
        references: list[str] = []
        translation: list[str] = []
        in_translation = False
        for line in block.splitlines():
            if line.startswith("#:"):
                references += line[2:].split()
            elif line.startswith("msgstr"):
                in_translation = True
                translation.append(ast.literal_eval(line.split(" ", 1)[1]))
            elif line.startswith("msgid"):
                in_translation = False
            elif line.startswith('"') and in_translation:
                translation.append(ast.literal_eval(line))
        entries.append((references, "".join(translation)))
    return entries
