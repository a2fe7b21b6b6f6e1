"""FRD-19: an open flag that the detector no longer finds (the threshold was raised, the address turned out to be
shared by dozens of accounts) is retracted from the queue, not left to flood it; found again it opens again; a flag in
a case is the reviewer's and stays; an indicator that was not judged retracts nothing."""

from __future__ import annotations

from typing import Any

import pytest

from compliance.detection.flags import Flag as Finding
from compliance.models import Flag, FlagStatus
from compliance.services import flag_case_open, flags_store
from tests.compliance.desk.support import player

pytestmark = pytest.mark.django_db


def finding(indicator: str, users: list[Any], score: float = 4.0) -> Finding:
    return Finding(indicator, tuple(f"user:{user.pk}" for user in users), score, 3.0, (), {})


def status_of(indicator: str, users: list[Any]) -> str:
    keys = ",".join(f"user:{user.pk}" for user in users)
    return str(Flag.objects.get(indicator=indicator, player_keys=keys).status)


def test_an_open_flag_no_longer_found_is_retracted_and_opens_again_when_found_again() -> None:
    ann, bea, cid = player("ann"), player("bea"), player("cid")
    flags_store([finding("chip_dumping", [ann, bea]), finding("chip_dumping", [bea, cid])], judged=["chip_dumping"])

    flags_store([finding("chip_dumping", [bea, cid])], judged=["chip_dumping"])

    assert status_of("chip_dumping", [ann, bea]) == FlagStatus.RETRACTED
    assert status_of("chip_dumping", [bea, cid]) == FlagStatus.OPEN
    assert flags_store([finding("chip_dumping", [ann, bea])], judged=["chip_dumping"]) == 1
    assert status_of("chip_dumping", [ann, bea]) == FlagStatus.OPEN


def test_an_indicator_that_was_not_judged_retracts_nothing() -> None:
    ann, bea = player("ann"), player("bea")
    flags_store([finding("soft_play", [ann, bea])], judged=["soft_play"])

    flags_store([], judged=["chip_dumping"])
    flags_store([])

    assert status_of("soft_play", [ann, bea]) == FlagStatus.OPEN


def test_a_flag_in_a_case_stays_in_it(reviewer: Any) -> None:
    ann, bea = player("ann"), player("bea")
    flags_store([finding("chip_dumping", [ann, bea])], judged=["chip_dumping"])
    flag_case_open(Flag.objects.get(indicator="chip_dumping"), reviewer)

    flags_store([], judged=["chip_dumping"])

    assert status_of("chip_dumping", [ann, bea]) == FlagStatus.IN_CASE
