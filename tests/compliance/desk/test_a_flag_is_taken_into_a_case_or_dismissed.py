"""FRD-18, FRD-19: a reviewer takes a flag into a case (its players the subjects, its hands the evidence) or dismisses
it with a reason; a dismissed flag comes back only when its score rises above the score it was dismissed at, and a
flag already decided refuses a second decision, changing nothing."""

from __future__ import annotations

import re
from typing import Any

import pytest

from compliance.detection.flags import Flag as Finding
from compliance.errors import CaseClosed, NotAllowed
from compliance.models import CaseActionKind, CaseSource, Flag, FlagStatus
from compliance.services import case_close, flag_case_add, flag_case_open, flag_dismiss, flags_store
from tests.compliance.desk.support import case_about, everything_that_records, played_hand, player
from tests.tables.back_office import logged_in

pytestmark = pytest.mark.django_db


def flag_of(indicator: str, users: list[Any], score: float, hands: tuple[Any, ...] = ()) -> Flag:
    flags_store(
        [
            Finding(
                indicator,
                tuple(f"user:{user.pk}" for user in users),
                score,
                3.0,
                tuple(f"hand:{hand.pk}" for hand in hands),
                {"weak_commitments": 4},
            )
        ]
    )
    return Flag.objects.get(indicator=indicator, player_keys=",".join(f"user:{user.pk}" for user in users))


def test_opening_a_case_from_the_top_flag_makes_its_players_the_subjects_and_its_hands_the_evidence(
    reviewer: Any,
) -> None:
    alice, bob = player("alice"), player("bob")
    hand = played_hand([alice, bob])
    lower = flag_of("soft_play", [player("carol"), player("dave")], 3.5)
    top = flag_of("chip_dumping", [alice, bob], 6.2, (hand,))

    queue = logged_in(reviewer).get("/compliance/").content.decode()
    assert [int(number) for number in re.findall(r'data-flag-id="(\d+)"', queue)] == [top.pk, lower.pk]
    response = logged_in(reviewer).post(f"/compliance/flags/{top.pk}/open-case/")

    top.refresh_from_db()
    case = top.case
    assert case is not None
    assert response.status_code == 302
    assert response["Location"] == f"/compliance/cases/{case.pk}/"
    assert top.status == FlagStatus.IN_CASE
    assert case.source == CaseSource.FLAG
    assert set(case.subjects.all()) == {alice, bob}
    assert list(case.hands.all()) == [hand]
    assert [action.kind for action in case.actions.all()] == [CaseActionKind.OPENED, CaseActionKind.FLAG_ADDED]


def test_a_flag_added_to_an_open_case_brings_its_players_and_hands(reviewer: Any) -> None:
    alice, bob = player("alice"), player("bob")
    hand = played_hand([alice, bob])
    case = case_about(reviewer, alice)
    flag = flag_of("shared_connection", [alice, bob], 2.0, (hand,))
    flag_case_add(flag, case, reviewer)
    assert set(case.subjects.all()) == {alice, bob}
    assert list(case.hands.all()) == [hand]


def test_a_dismissed_flag_comes_back_only_when_its_score_rises(reviewer: Any) -> None:
    alice, bob = player("alice"), player("bob")
    flag = flag_of("soft_play", [alice, bob], 5.5)
    flag_dismiss(flag, reviewer, "Friends who play each other softly, known to support")
    flag_of("soft_play", [alice, bob], 5.5)
    assert Flag.objects.get(pk=flag.pk).status == FlagStatus.DISMISSED
    flag_of("soft_play", [alice, bob], 7.0)
    assert Flag.objects.get(pk=flag.pk).status == FlagStatus.OPEN


def test_a_flag_already_decided_refuses_a_second_decision_and_nothing_changes(reviewer: Any) -> None:
    alice, bob = player("alice"), player("bob")
    flag = flag_of("soft_play", [alice, bob], 5.5)
    flag_case_open(flag, reviewer)
    before = everything_that_records()
    with pytest.raises(NotAllowed, match="already in case"):
        flag_dismiss(flag, reviewer, "changed my mind")
    with pytest.raises(NotAllowed, match="already in case"):
        flag_case_open(flag, reviewer)
    assert everything_that_records() == before


def test_a_flag_cannot_join_a_closed_case(reviewer: Any) -> None:
    alice, bob = player("alice"), player("bob")
    case = case_about(reviewer, alice)
    case_close(case, reviewer, outcome="no_violation", decision="Nothing found.")
    flag = flag_of("soft_play", [alice, bob], 5.5)
    before = everything_that_records()
    response = logged_in(reviewer).post(f"/compliance/flags/{flag.pk}/add-to-case/", {"case": case.pk})
    assert response.status_code == 400
    assert f"Case #{case.pk} was closed" in response.content.decode()
    assert everything_that_records() == before
    with pytest.raises(CaseClosed):
        flag_case_add(flag, case, reviewer)
