"""Issue 30, tournament operations: late registration beyond the structure's levels is refused with the reason; a
database constraint is explained in words on its field (never "Constraint … is violated"); staff pause a running
tournament (the hand in play finishes, no new hand is dealt, the level clock stands still) and resume it where the
levels stood; proposing a cancellation pauses it and withdrawing the proposal resumes it (CXL-01: the preview stays
valid); a cancelled tournament's payouts panel says how the money went back, never "provisional"; the approver may add
a comment; tournament audit entries name their target."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError

from games.models import Hand, HandStatus
from games.runtime.engine_state import hand_engine_state
from games.services import hand_act, hand_start
from poker_site.accounts.roles import SUPPORT_STAFF
from tests.tournaments.back_office import TOURNAMENTS, client_of, run_action
from tests.tournaments.support import QUICK_LEVELS, fresh, open_tables, register_players, scheduled, sit_and_go
from tournaments.admin_panels import payouts_panel
from tournaments.definitions import level_clock
from tournaments.models import Tournament, TournamentKind, TournamentStatus
from tournaments.services import tournaments_advance_all
from tournaments.services.cancellation import (
    tournament_cancellation_approve,
    tournament_cancellation_propose,
    tournament_cancellation_withdraw,
)
from tournaments.services.definition import DefinitionRefused, tournament_define, tournament_definition_update
from tournaments.services.errors import NotAllowedNow
from tournaments.services.staff import tournament_cancel, tournament_pause, tournament_resume
from tournaments.table_policy import may_deal
from wallet.models import AuditEntry

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]


def staff(name: str) -> Any:
    return get_user_model().objects.create_user(username=name, password="x", is_staff=True)


def running() -> tuple[Tournament, Any]:
    """A scheduled tournament of four players, started, with the first hand dealt at one table."""
    tournament = scheduled()
    register_players(tournament, 4)
    assert tournament.starts_at is not None
    tournaments_advance_all(now=tournament.starts_at)
    started = fresh(tournament)
    (table,) = open_tables(started)
    assert hand_start(table, now=started.started_at, shuffler=random.Random(1)) is not None
    return started, table


def finish_the_hand(table: Any, now: Any) -> None:
    hand = Hand.objects.get(table=table, status=HandStatus.RUNNING)
    while hand.status == HandStatus.RUNNING and hand.acting_seat is not None:
        legal = hand_engine_state(hand).legal_actions()
        assert legal is not None
        user = get_user_model().objects.get(pk=hand.participants[str(hand.acting_seat)]["user"])
        hand_act(table, user, "check" if legal.check else "fold", now=now)
        hand = Hand.objects.get(pk=hand.pk)


def test_late_registration_beyond_the_structures_levels_is_refused_on_its_field() -> None:
    with pytest.raises(DefinitionRefused, match="at most the 4 levels of the structure, not 5") as refused:
        tournament_define(
            {
                "name": "Too late",
                "kind": TournamentKind.SCHEDULED,
                "starts_at": fresh(scheduled()).starts_at,
                "late_registration_levels": 5,
            },
            structure=QUICK_LEVELS,
            actor=staff("support"),
        )

    assert "late_registration_levels" in refused.value.field_errors
    assert not Tournament.objects.filter(name="Too late").exists()


def test_a_broken_constraint_is_explained_in_words_on_its_field() -> None:
    tournament = sit_and_go(seats=3)
    tournament.seats_to_start = 1
    tournament.table_size = 11

    with pytest.raises(ValidationError) as refused:
        tournament.full_clean()

    errors = refused.value.message_dict
    assert errors["seats_to_start"] == ["A Sit & Go starts when its seats are taken: give at least 2 seats to start."]
    assert "A table seats 2 to 10 players." in errors["table_size"]
    assert not any("Constraint" in message for message in refused.value.messages)


def test_a_definition_change_breaking_a_constraint_is_refused_in_words_on_its_field() -> None:
    tournament = scheduled()

    with pytest.raises(DefinitionRefused) as refused:
        tournament_definition_update(tournament, changes={"minimum_entrants": 1}, actor=staff("support"))

    assert refused.value.field_errors["minimum_entrants"] == "A tournament needs at least 2 entrants to start."
    assert "is violated" not in refused.value.message


def test_a_paused_tournament_finishes_the_hand_in_play_deals_no_new_one_and_its_clock_stands_still() -> None:
    tournament, table = running()
    start = tournament.started_at
    assert start is not None
    paused_at = start + timedelta(seconds=100)

    tournament_pause(tournament, actor=staff("support"), reason="network trouble", now=paused_at)

    paused = fresh(tournament)
    assert paused.paused_at == paused_at
    finish_the_hand(table, paused_at + timedelta(seconds=5))  # the hand in play is played to its end
    assert hand_start(table, now=paused_at + timedelta(seconds=10), shuffler=random.Random(2)) is None
    assert not may_deal(paused, table.tournament_link, paused_at)
    clock = level_clock(paused)
    assert clock.reading(paused_at + timedelta(hours=2)).number == clock.reading(paused_at).number == 1

    resumed_at = paused_at + timedelta(hours=2)
    tournament_resume(tournament, actor=staff("support-two"), reason="fixed", now=resumed_at)

    after = level_clock(fresh(tournament))
    # 200 more seconds of play after the pause: 300 in all, the end of level 1 (QUICK_LEVELS: 300 s a level).
    assert after.reading(resumed_at + timedelta(seconds=199)).number == 1
    assert after.reading(resumed_at + timedelta(seconds=201)).number == 2
    assert fresh(tournament).paused_at is None
    tournaments_advance_all(now=resumed_at)  # the coordinator's tick, skipped while paused
    assert hand_start(table, now=resumed_at, shuffler=random.Random(3)) is not None


def test_only_a_running_unpaused_tournament_pauses_and_only_a_paused_one_resumes() -> None:
    tournament, _table = running()
    with pytest.raises(NotAllowedNow, match="is not paused"):
        tournament_resume(tournament, actor=staff("a"), reason="why not")
    tournament_pause(tournament, actor=staff("b"), reason="check")
    with pytest.raises(NotAllowedNow, match="paused already"):
        tournament_pause(tournament, actor=staff("c"), reason="again")
    with pytest.raises(NotAllowedNow, match="only a running tournament pauses"):
        tournament_pause(scheduled(), actor=staff("d"), reason="not started")


def test_proposing_a_cancellation_pauses_and_withdrawing_it_resumes() -> None:
    tournament, table = running()
    finish_the_hand(table, tournament.started_at)

    proposal = tournament_cancellation_propose(tournament, actor=staff("first"), reason="server fault")

    assert fresh(tournament).paused_at is not None
    with pytest.raises(NotAllowedNow, match="withdraw it"):
        tournament_resume(tournament, actor=staff("second"), reason="go on")
    tournament_cancellation_withdraw(proposal, actor=staff("third"), reason="fixed")
    resumed = fresh(tournament)
    assert resumed.paused_at is None
    assert resumed.breaks.count() == 1  # the time the proposal waited is skipped by the level clock


def test_support_pauses_and_resumes_from_the_tournament_list() -> None:
    tournament, _table = running()
    support = client_of(SUPPORT_STAFF)

    run_action(support, TOURNAMENTS, "pause_tournaments", [tournament.pk], reason="network trouble")
    assert fresh(tournament).paused_at is not None
    run_action(support, TOURNAMENTS, "resume_tournaments", [tournament.pk], reason="fixed")
    assert fresh(tournament).paused_at is None


def test_a_cancelled_tournaments_payouts_say_refunded_or_compensated_never_provisional() -> None:
    before_start = scheduled()
    register_players(before_start, 2)
    tournament_cancel(before_start, actor=staff("support"), reason="no players")
    compensated, table = running()
    finish_the_hand(table, compensated.started_at)
    proposal = tournament_cancellation_propose(compensated, actor=staff("first"), reason="server fault")
    tournament_cancellation_approve(proposal, actor=staff("second"), comment="  checked the chip counts  ")

    refunded_panel = str(payouts_panel(fresh(before_start)))
    compensated_panel = str(payouts_panel(fresh(compensated)))

    assert "Cancelled: refunded" in refunded_panel
    assert "Cancelled: compensated" in compensated_panel
    assert "provisional" not in refunded_panel + compensated_panel
    assert fresh(compensated).status == TournamentStatus.CANCELLED
    proposal.refresh_from_db()
    assert proposal.approval_comment == "checked the chip counts"
    cancelled = AuditEntry.objects.get(action="tournament_cancelled", details__cancellation=proposal.pk)
    assert cancelled.details["approval_comment"] == "checked the chip counts"


def test_tournament_audit_entries_name_their_target() -> None:
    tournament, _table = running()
    tournament_pause(tournament, actor=staff("a"), reason="check")
    tournament_resume(tournament, actor=staff("b"), reason="done")
    waiting = scheduled()
    register_players(waiting, 1)
    tournament_cancel(waiting, actor=staff("c"), reason="too few")

    targets = dict(
        AuditEntry.objects.filter(action__startswith="tournament_").values_list("action", "target").order_by("pk")
    )

    assert targets == {
        "tournament_paused": f"tournaments.tournament:{tournament.pk}",
        "tournament_resumed": f"tournaments.tournament:{tournament.pk}",
        "tournament_cancelled": f"tournaments.tournament:{waiting.pk}",
    }
