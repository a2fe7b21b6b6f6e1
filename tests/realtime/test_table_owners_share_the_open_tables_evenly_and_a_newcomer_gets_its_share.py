"""Placement by lease (issue 27, step 5, docs/runtime-design.md §2.3): a runtime process alone owns every open table;
when a second one announces itself, the first gives back idle tables (between hands) one per claim scan until each
owns its fair share, and the second acquires them: the tables spread evenly over the processes."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
import redis
from django.conf import settings as django_settings

from games.runtime import inbox
from tests.realtime.table_owner import table_owner_running, wait_for
from tests.tables.support import open_table

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_second_owner_gets_half_of_the_tables_the_first_owned_alone(settings: Any) -> None:
    settings.TABLE_ACTORS = True
    tables = [open_table("holdem", "NL10").pk for _ in range(6)]  # no players: never a hand, always idle
    client = redis.Redis.from_url(django_settings.REDIS_URL)
    store = inbox.lease_store(client)

    def owners() -> Counter[str | None]:
        return Counter(store.owner_of(table) for table in tables)

    with table_owner_running("first") as first:
        wait_for(lambda: owners() == Counter({"first": 6}), "the first owner owning every table")
        with table_owner_running("second") as second:
            # The leases (Redis) and each owner's tables (its memory) change a moment apart: wait for both.
            wait_for(
                lambda: (
                    owners() == Counter({"first": 3, "second": 3})
                    and sorted([*first.tables, *second.tables]) == sorted(tables)
                ),
                "the tables spread 3 and 3, each held by the owner of its lease",
            )
            assert all(store.owner_of(table) == "first" for table in first.tables)
        # The second stops (SIGTERM): it releases its leases, and the first takes its tables back.
        wait_for(lambda: owners() == Counter({"first": 6}), "the first owner owning every table again")
    assert owners() == Counter({None: 6})  # a stopped owner releases what it owned
    client.close()
