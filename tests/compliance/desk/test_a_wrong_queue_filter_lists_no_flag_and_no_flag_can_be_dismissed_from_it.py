"""QA report H, finding 7 (FRD-19): one wrong filter value on the desk's queue (a date typed by hand, a stale
bookmark, an indicator that no longer exists) dropped every filter and listed the whole queue under a form that still
showed the typed values, so a reviewer could dismiss unrelated flags in bulk. Now the queue lists no flag, the page says
which filter is wrong, and a bulk dismissal sent from such a page dismisses nothing."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

import pytest

from compliance.models import Flag, FlagStatus
from tests.compliance.desk.support import player
from tests.compliance.desk.test_the_flag_queue_filters_pages_and_dismisses_in_bulk import queue_ids, raise_flags
from tests.tables.back_office import logged_in

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("query", "wrong"),
    [
        ("?indicator=chip_dumping&raised_from=bad", "Raised from"),
        ("?indicator=nonsense", "Indicator"),
        ("?status=everything", "Status"),
    ],
)
def test_a_wrong_filter_lists_no_flag_and_says_which_filter_is_wrong(reviewer: Any, query: str, wrong: str) -> None:
    ann, bea, cid, dee = player("ann"), player("bea"), player("cid"), player("dee")
    raise_flags("chip_dumping", [(ann, bea)])
    raise_flags("soft_play", [(cid, dee)])
    client = logged_in(reviewer)

    assert queue_ids(client, query) == []
    page = client.get(f"/compliance/{query}").content.decode()
    assert 'id="filter-errors"' in page
    assert f"a filter is wrong ({wrong}:" in page
    assert 'id="flag-bulk"' not in page
    assert len(queue_ids(client, "?indicator=chip_dumping")) == 1  # a valid filter still applies


def test_a_bulk_dismissal_sent_from_a_page_whose_filters_are_wrong_dismisses_nothing(reviewer: Any) -> None:
    ann, bea, cid, dee = player("ann"), player("bea"), player("cid"), player("dee")
    flags = raise_flags("soft_play", [(ann, bea), (cid, dee)])
    client = logged_in(reviewer)

    response = client.post(
        "/compliance/flags/dismiss/",
        {
            "flags": [flag.pk for flag in flags],
            "reason": "Not chip dumping",
            "next": urlencode({"indicator": "chip_dumping", "raised_from": "bad"}),
        },
        follow=True,
    )

    assert "Nothing was dismissed: the queue&#x27;s filters are wrong" in response.content.decode()
    assert set(Flag.objects.filter(pk__in=[flag.pk for flag in flags]).values_list("status", flat=True)) == {
        FlagStatus.OPEN
    }
