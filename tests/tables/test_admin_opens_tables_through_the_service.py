"""Support opens a table from the stakes list through ``table_open`` (CASH-03: its seats from the stake's terms, the
opening event in its log); an open table's stake and size cannot be edited under seated players, its name can."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.admin.models import LogEntry

from games.models import HandEvent, Seat, Stake, Table
from tests.tables.back_office import TABLES, logged_in
from tests.tables.support import open_table

pytestmark = pytest.mark.django_db

STAKES = "/admin/games/stake/"


def superuser(django_user_model: Any) -> Any:
    return django_user_model.objects.create_superuser(username="admin-ann", password="x-unused-password")


def test_cash_03_support_opens_a_table_from_the_stakes_list_with_its_seats_and_opening_event(
    django_user_model: Any,
) -> None:
    stake = Stake.objects.get(game_type__code="holdem", label="NL10")
    client = logged_in(superuser(django_user_model))
    assert client.get(f"{TABLES}add/").status_code == 403  # no bare rows: tables open through the service

    response = client.post(STAKES, {"action": "open_tables", "_selected_action": [stake.pk], "index": 0})

    assert response.status_code == 302
    table = Table.objects.get(stake=stake)
    terms = stake.terms_at()
    assert table.seat_count == terms.seats
    assert Seat.objects.filter(table=table).count() == terms.seats
    assert HandEvent.objects.filter(table=table, kind="table_opened").exists()
    assert LogEntry.objects.filter(object_id=str(table.pk), user__username="admin-ann").exists()


def test_an_open_tables_stake_and_size_are_read_only_and_its_name_editable(django_user_model: Any) -> None:
    table = open_table("holdem", "NL10")
    other_stake = Stake.objects.exclude(pk=table.stake_id).first()
    assert other_stake is not None
    client = logged_in(superuser(django_user_model))

    page = client.get(f"{TABLES}{table.pk}/change/").content.decode()
    assert 'name="stake"' not in page
    assert 'name="seat_count"' not in page
    assert 'name="name"' in page

    seats = list(Seat.objects.filter(table=table).order_by("number"))
    form = {
        "name": "Renamed",
        "stake": other_stake.pk,
        "seat_count": 9,
        "seats-TOTAL_FORMS": len(seats),
        "seats-INITIAL_FORMS": len(seats),
    }
    for index, seat in enumerate(seats):
        form.update({f"seats-{index}-id": seat.pk, f"seats-{index}-table": table.pk})
    response = client.post(f"{TABLES}{table.pk}/change/", form)
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.name == "Renamed"
    assert (table.stake_id, table.seat_count) != (other_stake.pk, 9)


def test_renaming_a_table_writes_only_its_name_not_the_columns_the_services_moved_meanwhile(
    django_user_model: Any,
) -> None:
    """The page read the table; then a hand committed events (``last_sequence`` and ``hands_played`` moved). Saving the
    rename must not put the old values back (the next event would collide with a stored sequence)."""
    from types import SimpleNamespace

    from django.contrib.admin import site
    from django.test import RequestFactory

    table = open_table("holdem", "NL10")
    as_the_page_read_it = Table.objects.get(pk=table.pk)
    Table.objects.filter(pk=table.pk).update(last_sequence=table.last_sequence + 7, hands_played=3)
    as_the_page_read_it.name = "Renamed"
    request = RequestFactory().post("/")
    request.user = superuser(django_user_model)

    site._registry[Table].save_model(request, as_the_page_read_it, SimpleNamespace(changed_data=["name"]), change=True)

    table.refresh_from_db()
    assert (table.name, table.last_sequence, table.hands_played) == (
        "Renamed",
        as_the_page_read_it.last_sequence + 7,
        3,
    )


def test_a_stake_whose_first_terms_start_later_opens_no_table_and_says_why(django_user_model: Any) -> None:
    from datetime import timedelta

    from django.utils import timezone

    from games.models import GameType, StakeTerms

    source = open_table("holdem", "NL10").stake.terms_at(timezone.now())
    stake = Stake.objects.create(game_type=GameType.objects.get(code="holdem"), label="NL99", display_order=99)
    source.pk = None
    source.stake = stake
    source.effective_from = timezone.now() + timedelta(days=1)
    source.save()
    assert StakeTerms.objects.filter(stake=stake).count() == 1
    client = logged_in(superuser(django_user_model))

    response = client.post(STAKES, {"action": "open_tables", "_selected_action": [stake.pk]}, follow=True)

    assert response.status_code == 200
    assert "no terms in force yet" in response.content.decode()
    assert not Table.objects.filter(stake=stake).exists()
