"""QA report H, item 13 (FRD-19): the bulk dismissal had 50 boxes a page, each ticked by hand. The queue's header has
a box that chooses every open flag of the page, driven by a script file (the site's Content Security Policy allows
no inline script); without the script the box stays hidden."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.compliance.desk.support import player
from tests.compliance.desk.test_the_flag_queue_filters_pages_and_dismisses_in_bulk import raise_flags
from tests.tables.back_office import logged_in

pytestmark = pytest.mark.django_db

SCRIPT = Path(__file__).resolve().parents[3] / "static/js/flag_queue.js"


def test_the_queue_has_a_box_choosing_every_flag_of_the_page_driven_by_its_script_file(reviewer: Any) -> None:
    ann, bea, cid, dee = player("ann"), player("bea"), player("cid"), player("dee")
    raise_flags("soft_play", [(ann, bea), (cid, dee)])

    page = logged_in(reviewer).get("/compliance/").content.decode()

    assert '<input type="checkbox" id="flag-select-all" hidden' in page
    assert 'src="/static/js/flag_queue.js"' in page
    assert "<script>" not in page
    script = SCRIPT.read_text()
    assert 'getElementById("flag-select-all")' in script
    assert 'getElementById("flag-queue")' in script
    assert 'name="flags"' in script
