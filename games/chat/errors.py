"""Refusals of the chat services. Each says, in words a player understands, what was refused and why; nothing was
stored (the sender alone is told)."""

from __future__ import annotations

from typing import Any

from games.runtime.errors import TableError


class ChatRefused(TableError):
    """A chat line (or a mute request) was refused and nothing was stored. ``code`` names the rule; ``details`` are
    figures the client shows with its own words (``until``: the end of a mute, ``retry_after``: seconds to wait)."""

    code = "chat_refused"

    def __init__(self, code: str, message: str, **details: Any) -> None:
        super().__init__(message)
        self.code = code
        self.details = details
