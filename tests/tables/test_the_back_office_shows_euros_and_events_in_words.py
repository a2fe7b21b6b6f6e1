"""The back office shows money as euros (not cents) in the hand, session and stake lists, and each table event as a
line in words ("Seat 3 (carol) raises to €0.30") rather than its stored JSON; a hole-card event's line never shows
the cards."""

from __future__ import annotations

from typing import Any

from games.event_summaries import event_summary
from games.models import HandEvent
from tests.tables.back_office import HANDS, logged_in, support_agent
from tests.tables.support import act, check_or_call_down, deal, open_table, player, seat_players

EVENTS = "/admin/games/handevent/"


def test_an_action_a_pot_and_a_blind_read_as_sentences_in_euros() -> None:
    raised = {"seat": 3, "name": "carol", "resolved": "raise", "amount": 25, "total_bet": 30, "all_in": False}
    assert event_summary("action_taken", raised) == "Seat 3 (carol) raises to €0.30"
    called = {"seat": 1, "resolved": "call", "amount": 20, "total_bet": 30, "action": {"type": "timeout"}}
    assert event_summary("action_taken", called) == "Seat 1 calls €0.20 (time ran out)"
    blind = {"seat": 2, "blind": "big_blind", "amount": 10}
    assert event_summary("forced_bet_posted", blind) == "Seat 2 posts the big blind €0.10"
    pot = {"pot_index": 0, "pot": {"amount": 120, "shares": [[2, 120]]}, "hand_name": "Pair of Aces"}
    assert event_summary("pot_awarded", pot) == "Pot 0 (€1.20) to seat 2 €1.20 with Pair of Aces"
    assert event_summary("something_new", {}) == "Something new"


def test_the_lists_show_euros_and_the_events_in_words(db: Any) -> None:
    table = open_table()
    seat_players(table, [player("ann"), player("ben"), player("cy")], 1000)
    deal(table)
    act(table, "raise_to", 30)
    check_or_call_down(table)
    client = logged_in(support_agent())

    hands = client.get(HANDS).content.decode()
    assert "€0.90" in hands  # the pot: three players put in €0.30 each

    events = client.get(EVENTS).content.decode()
    assert "raises to €0.30" in events
    assert "is dealt hole cards" in events

    dealt = HandEvent.objects.filter(kind="hole_cards_dealt").first()
    assert dealt is not None
    detail = client.get(f"{EVENTS}{dealt.pk}/change/").content.decode()
    assert "is dealt hole cards" in detail
