"""The site's session engine (``SESSION_ENGINE``): Django's database sessions, whose read runs on every request and
every socket connect of a logged-in player, with that read compiled once per process instead of by the ORM each time
(poker_site.core.compiled_sql). Same table, same rows, same expiry rule: sessions written by either engine are read by
both."""

from __future__ import annotations

from typing import Any

from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore
from django.contrib.sessions.models import Session
from django.utils import timezone

from poker_site.core.compiled_sql import CompiledSelect

_SESSION_IN_FORCE: CompiledSelect[Session] = CompiledSelect(
    lambda key, now: Session.objects.filter(session_key=key, expire_date__gt=now),
    2,
    text_values=frozenset({0}),
    datetime_values=frozenset({1}),
)


class SessionStore(DatabaseSessionStore):
    def _get_session_from_db(self) -> Any:
        """The session row of this key that has not expired, or None (and the key forgotten), as Django's reads it."""
        key = self.session_key
        session = _SESSION_IN_FORCE.first(key, timezone.now()) if key else None
        if session is None:
            self._session_key = None
        return session
