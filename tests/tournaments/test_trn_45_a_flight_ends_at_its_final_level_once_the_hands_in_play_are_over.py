"""TRN-45, the pure rule of a flight's end: no new hand once the final level is reached; the flight is over then — or
when one player holds every chip — but only once no hand is in play and every knocked-out player has a place."""

from __future__ import annotations

from tournaments.rules.phases import flight_over, flight_stops_dealing


def test_a_flight_deals_until_its_final_level_is_reached_trn_45() -> None:
    assert not flight_stops_dealing(1, 3)
    assert not flight_stops_dealing(2, 3)
    assert flight_stops_dealing(3, 3)
    assert flight_stops_dealing(4, 3)  # a level missed by a slow coordination still stops it


def test_a_flight_is_over_at_its_final_level_once_the_hands_in_play_are_finished_trn_45() -> None:
    def over(level: int, players: int = 10, hands: int = 0, pending: int = 0) -> bool:
        return flight_over(
            current_level=level, final_level=3, players_left=players, hands_in_play=hands, places_pending=pending
        )

    assert not over(2)
    assert over(3)
    assert not over(3, hands=1)  # the hand in progress at a table is finished first
    assert not over(3, pending=2)  # a knocked-out player gets a place first
    assert over(2, players=1)  # one player holds every chip: nothing left to play in this flight
    assert not over(2, players=1, pending=1)
