"""What players send the compliance desk: reports of suspected collusion (FRD-12), each opening a case, and their
client's prohibited-program findings (FRD-08), recorded against them and raised as a flag.

Both are rate-limited per player over the last 24 hours (``COMPLIANCE_REPORTS_PER_DAY``,
``COMPLIANCE_PROGRAM_REPORTS_PER_DAY``); counting happens under a per-player lock, so concurrent reports cannot pass
the limit. A refused report changes nothing. The hand report's refusals are the player's to read (the report page
shows them): they are in the language of the player's request.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from compliance.detection.flags import Flag as Finding
from compliance.detection.flags import severity_from_ratio
from compliance.errors import InvalidRequest, RateLimited, ReportRefused
from compliance.models import (
    PROHIBITED_PROGRAM,
    CaseSource,
    PlayerReport,
    ProgramCategory,
    ProhibitedProgramReport,
)
from compliance.services.cases import case_create
from compliance.services.common import player_lock
from compliance.services.flags import flags_store

if TYPE_CHECKING:
    from poker_site.accounts.models import User

MAXIMUM_REPORT_TEXT = 2_000
MAXIMUM_PROGRAM_DETAILS = 2_000
"""Characters of the client's details as JSON."""
DAY = timedelta(days=1)
PROGRAM_FLAG_WINDOW = timedelta(days=30)
"""A prohibited-program flag's score is the number of reports in this window."""


def _rate_limit(count: int, limit: int, oldest: datetime | None, refusal: str) -> None:
    """``RateLimited`` with ``refusal`` (translated; it names ``%(limit)s`` and ``%(again)s``, when the oldest of the
    day's reports leaves the window) once ``count`` reached ``limit``."""
    if count < limit:
        return
    again = (oldest + DAY) if oldest is not None else timezone.now() + DAY
    raise RateLimited(refusal % {"limit": limit, "again": f"{again:%Y-%m-%d %H:%M}"})


@transaction.atomic(durable=True)
def player_report_create(reporter: User, hand_id: int, reported_ids: Iterable[Any], text: str) -> PlayerReport:
    """A player reports suspected collusion or cheating by other players of one of their hands (FRD-12): a case
    opens with the reported players as subjects and the hand linked.

    Refused (:class:`ReportRefused`) for a hand the reporter was not dealt into, a hand still in play, or a reported
    player who was not in the hand; :class:`RateLimited` beyond ``COMPLIANCE_REPORTS_PER_DAY`` reports a day."""
    from games.models import Hand, HandPlayer, HandStatus

    words = text.strip() if isinstance(text, str) else ""
    if not words:
        raise InvalidRequest(_("Say what you saw: the report needs a text."))
    if len(words) > MAXIMUM_REPORT_TEXT:
        raise InvalidRequest(
            _("At most %(most)s characters, please (%(given)s given).")
            % {"most": MAXIMUM_REPORT_TEXT, "given": len(words)}
        )
    hand = Hand.objects.filter(pk=hand_id).first()
    players = {row.user_id: row.user for row in HandPlayer.objects.filter(hand_id=hand_id).select_related("user")}
    if hand is None or reporter.pk not in players:
        raise ReportRefused(
            _("You were not in hand #%(hand)s: you can report only hands you played.") % {"hand": hand_id}
        )
    if hand.status == HandStatus.RUNNING:
        raise ReportRefused(_("This hand is still in play: report it once it has ended."))
    try:
        wanted = {int(user_id) for user_id in reported_ids}
    except (TypeError, ValueError) as error:
        raise InvalidRequest(_("Choose the players you report from the hand's players.")) from error
    if not wanted:
        raise InvalidRequest(_("Choose at least one player you report."))
    strangers = wanted - (set(players) - {reporter.pk})
    if strangers:
        raise ReportRefused(_("You can report only the other players who were in this hand."))
    player_lock("reports", reporter.pk)
    since = timezone.now() - DAY
    recent = PlayerReport.objects.filter(reporter=reporter, created_at__gt=since)
    _rate_limit(
        recent.count(),
        settings.COMPLIANCE_REPORTS_PER_DAY,
        recent.order_by("created_at").values_list("created_at", flat=True).first(),
        # Translators: %(again)s is a date and time in UTC, such as 2026-12-03 10:44.
        _("You can send at most %(limit)s reports a day; the next can be sent after %(again)s UTC."),
    )
    reported = [players[user_id] for user_id in sorted(wanted)]
    case = case_create(
        title=f"Player report by {reporter.username} on hand #{hand.pk}",
        source=CaseSource.PLAYER_REPORT,
        opened_by=reporter,
        subjects=reported,
        hand_ids=[hand.pk],
        note=words,
    )
    report = PlayerReport.objects.create(reporter=reporter, hand=hand, text=words, case=case)
    report.reported.set(reported)
    return report


@transaction.atomic(durable=True)
def program_report_create(
    player: User,
    *,
    program: str,
    category: str,
    details: Mapping[str, Any] | None = None,
    detected_at: datetime | None = None,
    ip: str | None = None,
    user_agent: str = "",
) -> ProhibitedProgramReport:
    """Record what the player's client found running beside it (FRD-08) and raise or update the player's
    ``prohibited_program`` flag (score: reports in the last 30 days)."""
    name = program.strip() if isinstance(program, str) else ""
    if not name or len(name) > 120:
        raise InvalidRequest("Name the program (1 to 120 characters).")
    if category not in ProgramCategory.values:
        raise InvalidRequest(f"The category is one of {', '.join(ProgramCategory.values)}, not {category!r}.")
    extra = dict(details or {})
    if len(json.dumps(extra, default=str)) > MAXIMUM_PROGRAM_DETAILS:
        raise InvalidRequest(f"The details may take at most {MAXIMUM_PROGRAM_DETAILS} characters as JSON.")
    player_lock("program-reports", player.pk)
    now = timezone.now()
    recent = ProhibitedProgramReport.objects.filter(player=player, received_at__gt=now - DAY)
    _rate_limit(
        recent.count(),
        settings.COMPLIANCE_PROGRAM_REPORTS_PER_DAY,
        recent.order_by("received_at").values_list("received_at", flat=True).first(),
        # Translators: %(again)s is a date and time in UTC, such as 2026-12-03 10:44.
        _("You can send at most %(limit)s program reports a day; the next can be sent after %(again)s UTC."),
    )
    report = ProhibitedProgramReport.objects.create(
        player=player,
        program=name,
        category=category,
        details=json.loads(json.dumps(extra, default=str)),
        detected_at=detected_at,
        ip=ip,
        user_agent=user_agent[:300],
    )
    window = ProhibitedProgramReport.objects.filter(player=player, received_at__gt=now - PROGRAM_FLAG_WINDOW)
    programs: dict[str, int] = {}
    for found in window.values_list("program", flat=True):
        programs[found] = programs.get(found, 0) + 1
    flags_store(
        [
            Finding(
                indicator=PROHIBITED_PROGRAM,
                players=(f"user:{player.pk}",),
                score=float(sum(programs.values())),
                threshold=1.0,
                severity=severity_from_ratio(float(sum(programs.values())), 1.0),
                hands=(),
                evidence={"programs": programs, "last_report": report.pk, "window_days": PROGRAM_FLAG_WINDOW.days},
                requirements=("FRD-08", "FRD-09"),
            )
        ]
    )
    return report
