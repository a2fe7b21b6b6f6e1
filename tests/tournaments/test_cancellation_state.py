"""CXL-01: the cancel action determines the tournament's state; "in the money" means every next eliminated player
would be guaranteed a prize (ET-21), and the final table pays by ICM only in the money (002 #54)."""

from __future__ import annotations

import pytest

from tests.tournaments.cancellation_builders import entries, still_in
from tournaments.rules.cancellation import CancellationState, TournamentAtCancellation, cancel, cancellation_state

PAYING_THREE = (5_000, 3_000, 2_000)


@pytest.mark.parametrize(
    ("started", "stacks", "prizes", "at_final_table", "state"),
    [
        (False, (), PAYING_THREE, False, CancellationState.BEFORE_START),
        (True, (10, 10, 10, 10), PAYING_THREE, False, CancellationState.STARTED_NOT_IN_THE_MONEY),
        (True, (10, 10, 10, 10), PAYING_THREE, True, CancellationState.STARTED_NOT_IN_THE_MONEY),
        (True, (10, 10, 10), (), False, CancellationState.STARTED_NOT_IN_THE_MONEY),
        (True, (10, 10, 10), PAYING_THREE, False, CancellationState.IN_THE_MONEY),
        (True, (10, 10), PAYING_THREE, True, CancellationState.FINAL_TABLE),
    ],
)
def test_cxl01_the_state_follows_start_paid_places_and_final_table(
    started: bool,
    stacks: tuple[int, ...],
    prizes: tuple[int, ...],
    at_final_table: bool,
    state: CancellationState,
) -> None:
    tournament = TournamentAtCancellation(
        purchases=entries(10, 1_000, 100),
        started=started,
        remaining=still_in(*stacks),
        prizes=prizes,
        at_final_table=at_final_table,
    )
    assert cancellation_state(tournament) is state
    assert cancel(tournament).state is state


@pytest.mark.parametrize(
    ("state", "rules"),
    [
        (CancellationState.STARTED_NOT_IN_THE_MONEY, ("CXL-03", "CXL-04", "AMB-34", "AMB-17")),
        (CancellationState.IN_THE_MONEY, ("CXL-06", "AMB-35", "AMB-17")),
        (CancellationState.FINAL_TABLE, ("CXL-07", "CXL-11", "AMB-17")),
    ],
)
def test_cxl01_the_record_names_the_rules_applied(state: CancellationState, rules: tuple[str, ...]) -> None:
    stacks = {
        CancellationState.STARTED_NOT_IN_THE_MONEY: (10, 20, 30, 40),
        CancellationState.IN_THE_MONEY: (10, 20, 30),
        CancellationState.FINAL_TABLE: (10, 20, 30),
    }[state]
    tournament = TournamentAtCancellation(
        purchases=entries(10, 1_000, 100),
        started=True,
        remaining=still_in(*stacks),
        prizes=PAYING_THREE,
        at_final_table=state is CancellationState.FINAL_TABLE,
    )
    assert cancel(tournament).rules == rules
