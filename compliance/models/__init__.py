"""Models of the compliance desk: detection (state, settings, flags), cases and their actions, what is kept about
players (standing, connections, reports, video requests, prohibited-program reports) and the support view."""

from compliance.models.cases import Case, CaseAction, CaseActionKind, CaseOutcome, CaseSource, CaseStatus
from compliance.models.detection import PROHIBITED_PROGRAM, DetectorState, Flag, FlagStatus, IndicatorSetting
from compliance.models.players import (
    BLOCKED_STANDINGS,
    NO_WITHDRAWAL_STANDINGS,
    AccountStanding,
    ConnectionKind,
    ConnectionRecord,
    PlayerOverview,
    PlayerReport,
    ProgramCategory,
    ProhibitedProgramReport,
    Standing,
    VideoOutcome,
    VideoRecordingRequest,
)

__all__ = [
    "BLOCKED_STANDINGS",
    "NO_WITHDRAWAL_STANDINGS",
    "PROHIBITED_PROGRAM",
    "AccountStanding",
    "Case",
    "CaseAction",
    "CaseActionKind",
    "CaseOutcome",
    "CaseSource",
    "CaseStatus",
    "ConnectionKind",
    "ConnectionRecord",
    "DetectorState",
    "Flag",
    "FlagStatus",
    "IndicatorSetting",
    "PlayerOverview",
    "PlayerReport",
    "ProgramCategory",
    "ProhibitedProgramReport",
    "Standing",
    "VideoOutcome",
    "VideoRecordingRequest",
]
