"""FRD-15: the reviewer's player page lists the other accounts seen on the player's addresses and devices, leaving out
staff accounts, local addresses (every client of the server's own machine has them) and addresses more accounts used
than the shared-connection indicator allows (a carrier's or a campus's)."""

from __future__ import annotations

from typing import Any

import pytest

from compliance.models import ConnectionKind, ConnectionRecord
from tests.compliance.desk.support import player
from tests.tables.back_office import logged_in

pytestmark = pytest.mark.django_db


def connected(user: Any, ip: str | None, device: str = "") -> None:
    ConnectionRecord.objects.create(user=user, kind=ConnectionKind.LOG_IN, ip=ip, device=device)


def others_listed(reviewer: Any, user: Any) -> str:
    page = logged_in(reviewer).get(f"/compliance/players/{user.pk}/")
    assert page.status_code == 200
    text = page.content.decode()
    marker = "Other accounts seen on the same addresses or devices:"
    return text.split(marker, 1)[1].split("</p>", 1)[0] if marker in text else ""


def test_players_on_an_identifying_address_or_device_are_listed_and_staff_are_not(reviewer: Any) -> None:
    ann, bea, dee = player("ann"), player("bea"), player("dee")
    connected(ann, "198.51.100.7", "laptop-a")
    connected(bea, "198.51.100.7", "laptop-b")
    connected(dee, "203.0.113.9", "laptop-a")
    connected(reviewer, "198.51.100.7", "desk-1")

    listed = others_listed(reviewer, ann)

    assert ">bea<" in listed
    assert ">dee<" in listed
    assert reviewer.username not in listed


def test_a_local_address_and_a_crowded_one_list_nobody(reviewer: Any) -> None:
    ann = player("ann")
    connected(ann, "127.0.0.1")
    connected(ann, "100.64.0.1")
    connected(player("bea"), "127.0.0.1")
    for number in range(7):
        connected(player(f"crowd{number}"), "100.64.0.1")

    assert others_listed(reviewer, ann) == ""
