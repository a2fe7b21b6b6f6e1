"""TRN-28 before the start (D-30-1): support's disqualification of a player who is only registered says, on the
confirmation page and in the message after it, that the seat is freed and what the player paid is refunded, as the
service does: the staff member knows what the action did to the player's money (QA report h, finding 5)."""

from __future__ import annotations

import re

import pytest
from django.utils import timezone

from poker_site.accounts.roles import SUPPORT_STAFF
from tests.tournaments.back_office import ENTRIES, client_of, messages_after
from tests.tournaments.support import register_players, sit_and_go
from tournaments.models import TournamentEntry

pytestmark = pytest.mark.django_db


def words(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_support_reads_that_a_registrant_disqualified_before_the_start_is_refunded_and_their_seat_freed() -> None:
    tournament = sit_and_go(seats=3)
    (user,) = register_players(tournament, 1, now=timezone.now())
    entry = TournamentEntry.objects.get(tournament=tournament, user=user)
    support = client_of(SUPPORT_STAFF)

    confirmation = support.post(ENTRIES, {"action": "disqualify_entries", "_selected_action": [entry.pk], "index": 0})
    done = support.post(
        ENTRIES,
        {
            "action": "disqualify_entries",
            "_selected_action": [entry.pk],
            "confirm": "yes",
            "prize": "keep",
            "reason": "Multi-accounting",
        },
    )

    assert "before the start the seat is freed and what they paid refunded" in words(confirmation.content.decode())
    (message,) = messages_after(support, done)
    assert "their seat is freed and what they paid is refunded" in message
    assert TournamentEntry.objects.get(pk=entry.pk).refund_transfer_id is not None
