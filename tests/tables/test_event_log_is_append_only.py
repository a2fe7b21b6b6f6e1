"""Hand events cannot be changed or deleted, by the model or by SQL (GEN-07, architecture rule 4)."""

from __future__ import annotations

import pytest
from django.db import DatabaseError, connection, transaction

from games.models import AppendOnlyError, HandEvent
from tests.tables.support import deal, open_table, player, seat_players

pytestmark = pytest.mark.django_db


@pytest.fixture
def event() -> HandEvent:
    table = open_table()
    seat_players(table, [player() for _ in range(3)], 1000)
    deal(table)
    return HandEvent.objects.filter(table=table, kind="hole_cards_dealt").first()  # type: ignore[return-value]


def test_the_model_refuses_to_change_or_delete_an_event(event: HandEvent) -> None:
    event.payload = {"cards": ["As", "Ah"]}
    with pytest.raises(AppendOnlyError):
        event.save()
    with pytest.raises(AppendOnlyError):
        event.delete()


def test_the_database_refuses_update_and_delete(event: HandEvent) -> None:
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        HandEvent.objects.filter(pk=event.pk).update(kind="tampered")
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        HandEvent.objects.filter(pk=event.pk).delete()
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("UPDATE games_handevent SET payload = '{}' WHERE id = %s", [event.pk])
    assert HandEvent.objects.get(pk=event.pk).kind == "hole_cards_dealt"
