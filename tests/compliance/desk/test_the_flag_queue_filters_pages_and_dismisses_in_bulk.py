"""FRD-18, FRD-19: the desk's flag queue shows every flag a page at a time (it showed 100 rows and hid the rest), by
score, filtered by indicator, status, player (a bare name or ``player:name``) and date; a reviewer dismisses several
flags with one reason, all or none, each audited."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from compliance.detection.flags import Flag as Finding
from compliance.detection.flags import severity_from_ratio, severity_from_surprise
from compliance.models import Flag, FlagStatus
from compliance.services import flag_case_open, flags_store
from tests.compliance.desk.support import player
from tests.tables.back_office import logged_in
from wallet.models import AuditEntry

pytestmark = pytest.mark.django_db


def raise_flags(indicator: str, pairs: list[tuple[Any, Any]], score: float = 4.0) -> list[Flag]:
    flags_store([Finding(indicator, (f"user:{a.pk}", f"user:{b.pk}"), score, 3.0, (), {}) for a, b in pairs])
    return [Flag.objects.get(indicator=indicator, player_keys=f"user:{a.pk},user:{b.pk}") for a, b in pairs]


def queue_ids(client: Any, query: str = "") -> list[int]:
    page = client.get(f"/compliance/{query}")
    assert page.status_code == 200
    return [int(number) for number in re.findall(r'<tr data-flag-id="(\d+)"', page.content.decode())]


def test_every_flag_is_reachable_a_page_at_a_time_highest_score_first(reviewer: Any) -> None:
    players = get_user_model().objects.bulk_create(
        get_user_model()(username=f"p{number:02d}", password="!") for number in range(61)
    )
    flags = [
        raise_flags("chip_dumping", [(players[number], players[number + 1])], score=3.0 + number / 100)[0]
        for number in range(60)
    ]
    client = logged_in(reviewer)

    first, second = queue_ids(client), queue_ids(client, "?page=2")

    assert len(first) == 50
    assert len(second) == 10
    assert first + second == [flag.pk for flag in sorted(flags, key=lambda flag: -flag.score)]


def test_the_queue_filters_by_indicator_player_status_and_date(reviewer: Any) -> None:
    ann, bea, cid, dee = player("ann"), player("bea"), player("cid"), player("dee")
    dumping = raise_flags("chip_dumping", [(ann, bea)])[0]
    soft = raise_flags("soft_play", [(cid, dee)])[0]
    in_case = raise_flags("soft_play", [(ann, dee)])[0]
    flag_case_open(in_case, reviewer)
    client = logged_in(reviewer)

    assert queue_ids(client, "?indicator=soft_play") == [soft.pk]
    assert queue_ids(client, "?player=bea") == [dumping.pk]
    assert queue_ids(client, "?player=player:ann") == [dumping.pk]
    assert queue_ids(client, "?status=in_case") == [in_case.pk]
    assert sorted(queue_ids(client, "?status=all&player=ann")) == sorted([dumping.pk, in_case.pk])
    assert queue_ids(client, "?raised_from=2000-01-01&raised_to=2000-12-31") == []


def test_a_reviewer_dismisses_chosen_flags_with_one_reason_each_audited(reviewer: Any) -> None:
    people = [player(name) for name in ("ann", "bea", "cid", "dee")]
    flags = raise_flags("shared_connection", [(people[0], people[1]), (people[2], people[3])])

    answer = logged_in(reviewer).post(
        "/compliance/flags/dismiss/", {"flags": [flag.pk for flag in flags], "reason": "One office, checked by phone"}
    )

    assert answer.status_code == 302
    assert set(Flag.objects.values_list("status", flat=True)) == {FlagStatus.DISMISSED}
    entries = AuditEntry.objects.filter(action="flag_dismissed")
    assert entries.count() == 2
    assert {entry.reason for entry in entries} == {"One office, checked by phone"}


def test_a_bulk_dismissal_with_a_flag_no_longer_open_dismisses_none(reviewer: Any) -> None:
    people = [player(name) for name in ("ann", "bea", "cid", "dee")]
    open_flag, taken = raise_flags("chip_dumping", [(people[0], people[1]), (people[2], people[3])])
    flag_case_open(taken, reviewer)
    client = logged_in(reviewer)

    answer = client.post("/compliance/flags/dismiss/", {"flags": [open_flag.pk, taken.pk], "reason": "noise"})
    follow = client.get(answer["Location"]).content.decode()

    assert f"Flag #{taken.pk} is already in case" in follow
    open_flag.refresh_from_db()
    assert open_flag.status == FlagStatus.OPEN
    assert not AuditEntry.objects.filter(action="flag_dismissed").exists()


def test_a_bulk_dismissal_without_a_reason_or_by_someone_not_a_reviewer_changes_nothing(
    reviewer: Any, support_agent: Any
) -> None:
    flag = raise_flags("chip_dumping", [(player("ann"), player("bea"))])[0]

    logged_in(reviewer).post("/compliance/flags/dismiss/", {"flags": [flag.pk], "reason": ""})
    refused = logged_in(support_agent).post("/compliance/flags/dismiss/", {"flags": [flag.pk], "reason": "no"})

    assert refused.status_code == 403
    flag.refresh_from_db()
    assert flag.status == FlagStatus.OPEN


def test_a_flags_evidence_reads_as_a_table_with_its_hands_linked(reviewer: Any) -> None:
    ann, bea = player("ann"), player("bea")
    flags_store(
        [
            Finding(
                "shared_connection",
                (f"user:{ann.pk}", f"user:{bea.pk}"),
                2.0,
                1.0,
                (),
                {
                    "shared_devices": {"phone-1": ["table:1"]},
                    "mean_equity": 0.234567,
                    "hands": ["hand:77"],
                    "room_null": None,
                },
            )
        ]
    )
    flag = Flag.objects.get(indicator="shared_connection")

    page = logged_in(reviewer).get(f"/compliance/flags/{flag.pk}/").content.decode()

    assert "{'phone-1'" not in page  # no Python dict
    assert "<th scope='row'>phone-1</th><td>table:1</td>" in page
    assert ">Mean equity</th><td>0.235</td>" in page
    assert "<a href='/compliance/hands/77/'>hand #77</a>" in page
    assert ">Room null</th><td>—</td>" in page  # a figure this flag has not got, not "None"


def test_flags_of_different_indicators_are_sorted_by_the_common_severity_not_their_own_scores(reviewer: Any) -> None:
    """Issue 31: a chip-dumping score is -log10 of a probability, a bot-timing score a ratio to its limit, a counter
    score a number of days; the queue sorts by the severity every indicator reports on one 0-100 scale."""
    ann, bea, cid = player("ann"), player("bea"), player("cid")
    flags_store(
        [
            Finding(
                "chip_dumping", (f"user:{ann.pk}", f"user:{bea.pk}"), 3.5, 3.0, (), {}, (), severity_from_surprise(3.5)
            ),
            Finding("bot_timing", (f"user:{cid.pk}",), 1.2, 1.0, (), {}, (), severity_from_ratio(1.2, 1.0)),
            Finding("counter_use", (f"user:{bea.pk}",), 3.0, 3.0, (), {}, (), severity_from_ratio(3.0, 3.0)),
        ]
    )
    by_indicator = {flag.indicator: flag for flag in Flag.objects.all()}
    assert [round(by_indicator[name].severity) for name in ("bot_timing", "chip_dumping", "counter_use")] == [
        36,
        35,
        30,
    ]

    ids = queue_ids(logged_in(reviewer))

    assert ids == [by_indicator[name].pk for name in ("bot_timing", "chip_dumping", "counter_use")]
    page = logged_in(reviewer).get(f"/compliance/flags/{by_indicator['chip_dumping'].pk}/").content.decode()
    assert "35 / 100" in page
