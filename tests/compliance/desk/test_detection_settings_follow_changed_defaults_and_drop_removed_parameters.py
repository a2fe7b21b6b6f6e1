"""FRD-19, issue 31: the detection settings rows follow the code after a migrate — a row staff never changed takes a
changed default, a row staff changed keeps its value, and the row of a parameter an indicator no longer has (net
flow's ``minimum_persistence``) is removed, so the detector, which refuses unknown parameters, still runs."""

from __future__ import annotations

import pytest

from compliance.detection.detector import Detector
from compliance.models import IndicatorSetting
from compliance.services import detector_parameters, settings_ensure

pytestmark = pytest.mark.django_db


def test_unchanged_rows_follow_a_new_default_changed_rows_keep_theirs_and_removed_parameters_go() -> None:
    settings_ensure()
    # As a site migrated before issue 31's net flow test: its old defaults and a parameter it no longer has.
    IndicatorSetting.objects.filter(indicator="net_flow", parameter="threshold").update(value=4.5, default=4.5)
    IndicatorSetting.objects.filter(indicator="net_flow", parameter="minimum_shared_hands").update(
        value=150.0, default=200.0
    )
    IndicatorSetting.objects.create(
        indicator="net_flow", parameter="minimum_persistence", value=3.5, default=3.5, description="old"
    )
    with pytest.raises(ValueError, match="unknown parameter 'minimum_persistence'"):
        Detector(detector_parameters())

    assert settings_ensure() == 0

    threshold = IndicatorSetting.objects.get(indicator="net_flow", parameter="threshold")
    assert (threshold.value, threshold.default) == (3.0, 3.0)  # never changed by staff: the new default
    shared = IndicatorSetting.objects.get(indicator="net_flow", parameter="minimum_shared_hands")
    assert (shared.value, shared.default) == (150.0, 100.0)  # staff's value kept, the new default recorded
    assert not IndicatorSetting.objects.filter(indicator="net_flow", parameter="minimum_persistence").exists()
    detector = Detector(detector_parameters())
    assert detector.indicators["net_flow"].parameters.minimum_shared_hands == 150
