"""The hand log and "Last hands" of the table page name the players of each hand (QA report F, finding 7): the
``hand_started`` event a viewer receives — read back with ``resync`` (``table_events_since``) or broadcast live
(``views_of_rows``) — carries ``names``, seat → the screen name of the player dealt in there. A player who left
afterwards is still named, never "Seat N", and never the player who sat in that seat later. Screen names are public at
the table (seat events and snapshots carry them); nothing private is added."""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth import get_user_model

from games.models import HandEvent
from games.runtime.readside import views_of_rows
from games.runtime.views import table_events_since
from games.services import seat_leave, seat_take
from tests.tables.support import START, check_or_call_down, deal, open_table, player, seat_players


def test_a_hand_started_event_names_its_players_after_one_left_and_another_took_the_seat() -> None:
    table = open_table("holdem", "NL10")
    carol, dave, frank = player("carol"), player("dave"), player("frank")
    get_user_model().objects.filter(pk=dave.pk).update(screen_name="Dave the Rave")
    seat_players(table, [carol, dave, frank], 1_000)  # a first hand needs three (CASH-06)
    hand = deal(table, seed=3)
    check_or_call_down(table)
    seat_leave(carol, table, now=START + timedelta(seconds=30))
    erin = player("erin")
    seat_take(erin, table, 1_000, seat_number=1, now=START + timedelta(seconds=40))

    expected = {"1": "carol", "2": "Dave the Rave", "3": "frank"}
    for viewer in (None, dave, erin):
        started = [
            event
            for event in table_events_since(table, 0, viewer)
            if event["type"] == "hand_started" and event["hand_id"] == hand.pk
        ]
        assert [event.get("names") for event in started] == [expected]

    rows = list(HandEvent.objects.filter(table_id=table.pk).order_by("sequence"))
    public, private = views_of_rows(rows)
    for view in [public, *private.values()]:
        assert [event.get("names") for event in view if event["type"] == "hand_started"] == [expected]
    # Only the hand's start carries them.
    assert all("names" not in event for event in public if event["type"] != "hand_started")
