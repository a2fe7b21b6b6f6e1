"""Signals of the table runtime that other apps listen to (the runtime imports none of them)."""

from django.dispatch import Signal

hand_settled = Signal()
"""Sent after the transaction that settled a hand commits, with ``hand_id`` and ``table_id`` (cash and tournament
tables alike). The compliance app queues its incremental fraud detection on it (FRD-19)."""
