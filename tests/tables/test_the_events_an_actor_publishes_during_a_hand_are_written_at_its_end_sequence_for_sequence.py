"""Issue 27, step 4: a table actor publishes each applied message's events as it applies them (numbered in the
table's hand log), and the hand's end writes exactly those events at exactly those numbers: what clients were shown
during the hand is what the durable log holds, sequence for sequence, each number published once. After the end's
commit the hand log is empty and the table no longer says its hand is held in memory."""

from __future__ import annotations

import pytest

from games.models import HandEvent, HandStatus
from games.runtime.hand_log import LoggedEvent, counter_key, hand_log_rows_after, log_key
from poker_site.core.redis_clients import blocking_client
from tests.tables.held_hands import Published, held_hand, published  # noqa: F401 (the fixture)
from tests.tables.support import fresh

pytestmark = pytest.mark.django_db(transaction=True)


def comparable(row: HandEvent) -> tuple[object, ...]:
    return (row.sequence, row.kind, row.payload, row.hand_id, row.audience, row.private_to_seat, row.private_to_user_id)


@pytest.mark.parametrize("players", [3, 6])
def test_every_event_published_during_an_actors_hand_is_written_at_its_number_when_it_ends(
    players: int,
    published: Published,  # noqa: F811
) -> None:
    held = held_hand(players=players, seed=11)
    assert fresh(held.table).hand_held_in_memory
    during = len(published.ranges)  # the deal's committed range
    ended = held.play_to_the_end()
    assert ended.hand_ended is not None
    assert ended.hand_ended.status == HandStatus.FINISHED

    logged = held.logged()
    assert logged, "the hand's actions were published as they were applied"
    in_hand = [row for _first, _last, rows in published.ranges[during:] for row in rows if row.sequence in logged]
    assert [row.sequence for row in in_hand] == logged
    # Published from the hand log in memory, before any row existed.
    assert all(isinstance(row, LoggedEvent) for row in in_hand)

    durable = list(HandEvent.objects.filter(table=held.table, sequence__gt=held.durable_before_deal))
    shown = sorted(
        (row for row in published.rows() if row.sequence > held.durable_before_deal), key=lambda row: row.sequence
    )
    assert [row.sequence for row in shown] == sorted({row.sequence for row in shown})  # each number published once
    assert [comparable(row) for row in shown] == [comparable(row) for row in durable]
    assert "hand_settled" in [row.kind for row in durable if row.sequence > logged[-1]]

    table = fresh(held.table)
    assert table.last_sequence == durable[-1].sequence
    assert not table.hand_held_in_memory
    assert hand_log_rows_after(table.pk, 0) == []
    assert not blocking_client().exists(log_key(table.pk), counter_key(table.pk))
