"""What a chat line must be, and the automated moderation's word list (UTH-33). Pure standard library.

A line is one line of printable text: surrounding white space is dropped; an empty line, a line longer than
:data:`MAXIMUM_CHAT_CHARACTERS` characters and a line with a control or format character (new lines, tabs, escape
sequences, right-to-left overrides that would disguise what the line says, unassigned code points) are refused. The
zero-width joiner of emoji sequences is allowed.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final

MAXIMUM_CHAT_CHARACTERS: Final[int] = 200
"""Longest chat line, in characters, after surrounding white space is dropped."""

REFUSED_CATEGORIES: Final[frozenset[str]] = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Unicode categories a chat line may not contain: control, format, surrogate, private use, unassigned, line and
paragraph separators."""
ALLOWED_FORMAT_CHARACTERS: Final[frozenset[str]] = frozenset({"\u200d"})
"""Format characters that are allowed anyway: the zero-width joiner that builds emoji sequences."""

OFFENSIVE_WORDS: Final[frozenset[str]] = frozenset(
    {
        # English
        "asshole",
        "bastard",
        "bitch",
        "cunt",
        "dickhead",
        "fuck",
        "fucker",
        "fucking",
        "idiot",
        "moron",
        "retard",
        "shit",
        "wanker",
        # Estonian
        "debiilik",
        "idioot",
        "lits",
        "loll",
        "mölakas",
        "nõme",
        "perse",
        "persevest",
        "raisk",
        "türa",
        "värdjas",
    }
)
"""Words the automated moderation (UTH-33) treats as abuse of other players or the host, compared in lower case as
whole words. Kept short on purpose: the moderation warns first, and support reviews and lifts any mute."""

_WORD: Final[re.Pattern[str]] = re.compile(r"\w+")


class ChatLineRefused(ValueError):
    """A line that breaks one of the rules above; ``code`` names the rule."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def chat_line_clean(text: str) -> str:
    """The line as it is stored and shown: ``text`` without surrounding white space, in Unicode NFC form.

    Raises :class:`ChatLineRefused` (``chat_empty``, ``chat_too_long``, ``chat_control_characters``)."""
    line = unicodedata.normalize("NFC", text).strip()
    if not line:
        raise ChatLineRefused("chat_empty", "An empty message cannot be sent.")
    if any(unicodedata.category(character) in REFUSED_CATEGORIES for character in line if not _allowed(character)):
        raise ChatLineRefused("chat_control_characters", "A chat message may contain only printable text on one line.")
    if len(line) > MAXIMUM_CHAT_CHARACTERS:
        raise ChatLineRefused("chat_too_long", f"A chat message may have at most {MAXIMUM_CHAT_CHARACTERS} characters.")
    return line


def _allowed(character: str) -> bool:
    return character in ALLOWED_FORMAT_CHARACTERS


def chat_line_offends(line: str) -> bool:
    """Whether ``line`` contains one of :data:`OFFENSIVE_WORDS` as a whole word (in any letter case)."""
    return any(word in OFFENSIVE_WORDS for word in _WORD.findall(line.casefold()))
