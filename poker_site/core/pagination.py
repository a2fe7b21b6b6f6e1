"""Cursor pagination for API lists ordered by an integer id."""

from __future__ import annotations

from rest_framework.exceptions import NotFound
from rest_framework.pagination import Cursor, CursorPagination
from rest_framework.request import Request


class IntegerPositionCursorPagination(CursorPagination):
    """A cursor whose position must be an integer (the id the list is ordered by).

    DRF checks the cursor's offset but not its position (``p``), which is compared with the integer id: a forged
    position that is not an integer (``abc``, ``1.5``, a NUL character) is the same bad cursor as any other (404), not
    a database error and a 500.
    """

    def decode_cursor(self, request: Request) -> Cursor | None:
        cursor = super().decode_cursor(request)
        if cursor is not None and cursor.position is not None:
            try:
                int(cursor.position)
            except (TypeError, ValueError):
                raise NotFound(self.invalid_cursor_message) from None
        return cursor
