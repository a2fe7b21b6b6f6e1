"""FRD-11, FRD-18, FRD-19: the detector's giving-way finding (one of a pair folds or checks whenever the other holds the
better hand) is stored as a flag the desk names, offers in its indicator filter and shows with its evidence."""

from __future__ import annotations

from typing import Any

import pytest

from compliance.detection.detector import INDICATOR_NAMES
from compliance.detection.flags import Flag as Finding
from compliance.detection.flags import severity_from_surprise
from compliance.models import Flag
from compliance.services import flags_store
from compliance.services.flags import INDICATOR_TITLES
from tests.compliance.desk.support import player
from tests.tables.back_office import logged_in

pytestmark = pytest.mark.django_db


def test_every_indicator_of_the_detector_has_a_title_on_the_desk() -> None:
    assert set(INDICATOR_NAMES) <= set(INDICATOR_TITLES)


def test_a_giving_way_flag_is_named_filtered_and_shown_with_its_evidence(reviewer: Any) -> None:
    ann, bea, cid, dee = player("ann"), player("bea"), player("cid"), player("dee")
    flags_store(
        [
            Finding(
                "giving_way",
                (f"user:{ann.pk}", f"user:{bea.pk}"),
                7.0,
                4.4,
                ("hand:12",),
                {"trials": 180, "went_on": 1, "expected_to_go_on": 19.5},
                ("FRD-19", "FRD-11"),
                severity_from_surprise(7.0),
            ),
            Finding("soft_play", (f"user:{cid.pk}", f"user:{dee.pk}"), 5.0, 4.4, (), {}, (), 50.0),
        ]
    )
    flag = Flag.objects.get(indicator="giving_way")
    client = logged_in(reviewer)

    queue = client.get("/compliance/?indicator=giving_way").content.decode()
    assert f'<tr data-flag-id="{flag.pk}"' in queue
    assert 'data-flag-id="' + str(Flag.objects.get(indicator="soft_play").pk) not in queue
    assert '<option value="giving_way"' in client.get("/compliance/").content.decode()

    page = client.get(f"/compliance/flags/{flag.pk}/").content.decode()
    assert "Giving way: folding or checking whenever the partner holds the better hand" in page
    assert ">Expected to go on</th><td>19.5</td>" in page
    assert flag.severity == 70.0
