"""Placement by lease (issue 27, step 5): only open tables count against a runtime process's fair share. A table that
was closed while the owner held its hand, or whose rows were deleted (support removing a table, a test's database
reset), must not keep the owner from claiming the open tables nobody owns: before, it counted as owned for ever (its
hand never ends, so it is never idle and never given back), and a lone owner then owned "its share" of one table and
left a new table undealt."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
import redis
from django.conf import settings as django_settings
from django.db import connection

from games.models import Table, TableStatus
from games.runtime import inbox
from games.runtime.leases import LeaseStore
from games.runtime.owner import TableOwner
from tests.realtime.table_owner import table_owner_running, wait_for
from tests.tables.support import open_table, player, seat_players

pytestmark = pytest.mark.django_db(transaction=True)


@dataclass
class HeldByAnOwner:
    table: Table
    owner: TableOwner
    store: LeaseStore


@pytest.fixture
def held_by_an_owner(settings: Any) -> Iterator[HeldByAnOwner]:
    """A table whose hand an owner (running in this process) has dealt and holds: nobody acts, so it stays held."""
    settings.TABLE_ACTORS = True
    table = open_table("holdem", "NL10")
    seat_players(table, [player() for _ in range(3)], 1_000)
    client = redis.Redis.from_url(django_settings.REDIS_URL)
    with table_owner_running("owner") as owner:
        wait_for(lambda: Table.objects.get(pk=table.pk).current_hand_id, "the owner's first deal")
        yield HeldByAnOwner(table, owner, inbox.lease_store(client))
    client.close()


def test_an_owner_holding_the_hand_of_a_table_since_closed_claims_a_new_open_table(
    held_by_an_owner: HeldByAnOwner,
) -> None:
    first, owner, store = held_by_an_owner.table, held_by_an_owner.owner, held_by_an_owner.store
    # Support closes the table while its hand is held (nobody acts: the hand stays in memory).
    Table.objects.filter(pk=first.pk).update(status=TableStatus.CLOSED)
    second = open_table("holdem", "NL10")
    wait_for(lambda: store.owner_of(second.pk) == "owner", "the new open table claimed")
    assert first.pk in owner.tables  # the closed table's hand is still held, not cut off


def test_an_owner_drops_a_table_whose_rows_were_deleted_and_claims_a_new_open_table(
    held_by_an_owner: HeldByAnOwner,
) -> None:
    first, owner, store = held_by_an_owner.table, held_by_an_owner.owner, held_by_an_owner.store
    with connection.cursor() as cursor:  # as the tests' database reset does: every table emptied at once
        cursor.execute(f'TRUNCATE "{Table._meta.db_table}" CASCADE')
    second = open_table("holdem", "NL10")
    wait_for(lambda: store.owner_of(second.pk) == "owner", "the new open table claimed")
    wait_for(lambda: first.pk not in owner.tables, "the deleted table dropped")
    assert store.owner_of(first.pk) is None  # its lease given back
