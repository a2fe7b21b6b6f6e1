"""The engine state of a hand, rebuilt from its stored configuration and event log (games.engine.state.replay)."""

from __future__ import annotations

from games.engine.config import HandConfig
from games.engine.events import EVENT_TYPES
from games.engine.state import HandState, replay
from games.models import Hand, HandEvent
from games.services.events import engine_event_from_row

ENGINE_EVENT_KINDS = frozenset(EVENT_TYPES)


def hand_engine_state(hand: Hand) -> HandState:
    """Replay ``hand``'s engine events on its configuration; raises ``ReplayMismatch`` if the log was tampered with."""
    rows = HandEvent.objects.filter(hand=hand, kind__in=ENGINE_EVENT_KINDS).order_by("sequence")
    return replay(HandConfig.from_dict(hand.config), [engine_event_from_row(row) for row in rows])
