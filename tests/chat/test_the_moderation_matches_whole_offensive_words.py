"""UTH-33 automated moderation: a line offends when one of its words (any letter case) is on the word list; a word that
merely contains one (a town, a longer harmless word) does not."""

from __future__ import annotations

import pytest

from games.chat.rules import chat_line_offends


@pytest.mark.parametrize("line", ["You IDIOT", "what a moron!", "sa oled loll", "Türa!", "idioot.", "shit,happens"])
def test_a_line_with_an_offensive_word_offends(line: str) -> None:
    assert chat_line_offends(line)


@pytest.mark.parametrize(
    "line", ["Scunthorpe is nice", "idiotically good river", "nice hand", "lollipop", "shitake soup", "Hea mäng!"]
)
def test_a_word_that_only_contains_one_does_not(line: str) -> None:
    assert not chat_line_offends(line)
