"""FRD-15, FRD-19, TRN-09: two accounts connecting from one device to the tables of one tournament share that place,
and the tournament's hands are fed to the indicators with the tournament as their place (as the sockets record it),
so the flag names the tournament and carries its hands."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from compliance.models import ConnectionKind, Flag
from compliance.services import connection_record, detection_advance
from games.models import Hand, HandStatus
from tests.tournaments.support import open_tables, play, register_players, sit_and_go

pytestmark = pytest.mark.django_db

DEVICE = "fedcba9876543210fedcba9876543210"


@pytest.fixture(autouse=True)
def quiet_tournaments(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tournament services publish nothing and queue no task here (the test drives the coordinator)."""
    from tournaments import realtime as tournament_realtime
    from tournaments import tasks

    monkeypatch.setattr(tournament_realtime, "tournament_changed", lambda *args: None)
    monkeypatch.setattr(tasks, "tournament_coordinate_later", lambda *args: None)
    monkeypatch.setattr(tasks, "entry_prize_credit_later", lambda *args: None)


def test_one_device_behind_two_entries_of_a_tournament_is_flagged_with_its_hands() -> None:
    tournament = sit_and_go(seats=2)
    first, second = register_players(tournament, 2)
    (table,) = open_tables(tournament)
    for user, address in ((first, "198.51.100.1"), (second, "203.0.113.2")):
        connection_record(
            user.pk, ConnectionKind.TABLE_SOCKET, place=f"tournament:{tournament.pk}", ip=address, device=DEVICE
        )
    play(tournament, until=lambda current: Hand.objects.filter(table=table, status=HandStatus.FINISHED).exists())
    hand = Hand.objects.filter(table=table, status=HandStatus.FINISHED).first()
    assert hand is not None

    detection_advance(now=timezone.now() + timedelta(minutes=1))

    flag = Flag.objects.get(indicator="shared_connection")
    assert set(flag.players.all()) == {first, second}
    assert flag.evidence["shared_devices"] == {DEVICE: [f"tournament:{tournament.pk}"]}
    assert hand.pk in flag.hands
