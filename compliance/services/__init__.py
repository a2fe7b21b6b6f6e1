"""The compliance desk's services (``<entity>_<verb>``): each owns its transaction, checks the actor's permission,
records what it did on the case and in the audit log (LOB-10), moves money only through the wallet, and refuses bad
input with a :class:`~compliance.errors.ComplianceError` (or the wallet's ``WalletError``) having changed nothing."""

from compliance.services.cases import case_close, case_link, case_note_add, case_open, case_review_start
from compliance.services.connections import connection_record, log_in_record, table_socket_record
from compliance.services.detection import DetectionBatch, detection_advance, flags_recompute
from compliance.services.flags import flag_case_add, flag_case_open, flag_dismiss, flags_dismiss, flags_store
from compliance.services.holds import (
    case_hold_create,
    case_hold_release,
    case_hold_seizure_apply,
    case_hold_seizure_propose,
)
from compliance.services.reports import player_report_create, program_report_create
from compliance.services.sanctions import (
    account_standing_set,
    banzai_exclusion_set,
    disclosure_record,
    tournament_disqualify,
)
from compliance.services.thresholds import detector_parameters, settings_ensure
from compliance.services.video import video_request_create, video_request_decide

__all__ = [
    "DetectionBatch",
    "account_standing_set",
    "banzai_exclusion_set",
    "case_close",
    "case_hold_create",
    "case_hold_release",
    "case_hold_seizure_apply",
    "case_hold_seizure_propose",
    "case_link",
    "case_note_add",
    "case_open",
    "case_review_start",
    "connection_record",
    "detection_advance",
    "detector_parameters",
    "disclosure_record",
    "flag_case_add",
    "flag_case_open",
    "flag_dismiss",
    "flags_dismiss",
    "flags_recompute",
    "flags_store",
    "log_in_record",
    "player_report_create",
    "program_report_create",
    "settings_ensure",
    "table_socket_record",
    "tournament_disqualify",
    "video_request_create",
    "video_request_decide",
]
