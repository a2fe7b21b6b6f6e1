"""Issue 27 crash test (tests/realtime/tournament_table_crash.py) at a Sit & Go table: the killed runtime process's
table is taken over within 10 s, its hand rolled back (TRN-33), the tournament whole and the socket resynced without
reconnecting."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.realtime.tournament_table_crash import (
    the_killed_owner_of_a_tournament_table_is_replaced_within_10_s_its_hand_rolled_back_and_sockets_resync,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow, pytest.mark.live]


@pytest.mark.parametrize("product", ["sit_and_go"])
def test_the_killed_owner_of_a_tournament_table_is_replaced_within_10_s_its_hand_rolled_back_and_sockets_resync(
    product: str, tmp_path: Path
) -> None:
    the_killed_owner_of_a_tournament_table_is_replaced_within_10_s_its_hand_rolled_back_and_sockets_resync(
        product, tmp_path
    )
