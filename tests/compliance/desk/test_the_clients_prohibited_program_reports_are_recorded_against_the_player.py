"""FRD-08, FRD-09: the player's client reports prohibited programs it finds running beside it (hand trackers, HUDs,
screen capture, automation) through the API; each report is recorded against the logged-in player and raises their
``prohibited_program`` flag on the desk, scored by the reports of the last 30 days. Bad input is refused by name and
reports are rate-limited."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from compliance.models import PROHIBITED_PROGRAM, Flag, FlagStatus, ProhibitedProgramReport
from tests.compliance.desk.support import everything_that_records, player
from tests.tables.back_office import logged_in

pytestmark = pytest.mark.django_db

URL = "/api/compliance/program-reports/"


def send(client: Client, body: Any) -> Any:
    return client.post(URL, data=json.dumps(body), content_type="application/json", REMOTE_ADDR="203.0.113.7")


def test_a_report_is_recorded_against_the_player_and_raises_a_flag(reviewer: Any) -> None:
    alice = player("alice")
    client = logged_in(alice)
    first = send(client, {"program": "HoldemManager", "category": "hand_tracker", "details": {"version": "3.1"}})
    second = send(client, {"program": "PokerBot Pro", "category": "automation"})

    assert (first.status_code, second.status_code) == (201, 201)
    report = ProhibitedProgramReport.objects.get(pk=first.json()["id"])
    assert (report.player, report.program, report.category, report.ip) == (
        alice,
        "HoldemManager",
        "hand_tracker",
        "203.0.113.7",
    )
    flag = Flag.objects.get(indicator=PROHIBITED_PROGRAM)
    assert list(flag.players.all()) == [alice]
    assert (flag.score, flag.status) == (2.0, FlagStatus.OPEN)
    assert flag.evidence["programs"] == {"HoldemManager": 1, "PokerBot Pro": 1}
    assert "Prohibited program reported by the client" in logged_in(reviewer).get("/compliance/").content.decode()


def test_bad_reports_are_refused_by_name_and_change_nothing() -> None:
    client = logged_in(player("alice"))
    before = everything_that_records()
    for body, field in (
        ({"program": "X", "category": "mind_reader"}, "category"),
        ({"program": "", "category": "hud"}, "program"),
        ({"program": "X", "category": "hud", "player": 1}, "player"),
        ({"program": "X", "category": "hud", "details": {"blob": "x" * 3_000}}, "details"),
    ):
        response = send(client, body)
        assert response.status_code == 400, body
        assert field in response.content.decode(), body
    assert everything_that_records() == before
    assert not ProhibitedProgramReport.objects.exists()


def test_only_a_logged_in_player_reports_and_reports_are_rate_limited(settings: Any) -> None:
    settings.COMPLIANCE_PROGRAM_REPORTS_PER_DAY = 1
    assert send(Client(), {"program": "X", "category": "hud"}).status_code == 403
    client = logged_in(player("alice"))
    assert send(client, {"program": "X", "category": "hud"}).status_code == 201
    limited = send(client, {"program": "Y", "category": "hud"})
    assert limited.status_code == 429
    assert limited.json()["code"] == "rate_limited"
    assert ProhibitedProgramReport.objects.count() == 1
