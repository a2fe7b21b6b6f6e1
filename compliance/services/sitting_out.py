"""TRN-32: no sit-out agreements. One player may choose to sit out of a tournament (TRN-19); two or more sitting out by
choice at the same time, at the same or different tables of one tournament, may have agreed to, which is collusion
(FRD). Each time a pair of players is seen sitting out together (an episode) is written to the audit trail
(``sitting_out_together_seen``); from the pair's second episode, in any tournaments, the pair is a
``sitting_out_together`` flag on the compliance desk, scored by its episodes, so that a dismissed flag opens again when
the pair does it again (``compliance.services.flags``).

Only pairs who *started* sitting out within a minute of each other count, each overlap once
(``compliance.detection.sitting_out``). Players sitting out after a disconnection do not count (the caller passes
only sit-outs by choice).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from compliance.detection.flags import Flag as Finding
from compliance.detection.flags import severity_from_ratio
from compliance.detection.sitting_out import FLAG_AT_EPISODES, pairs_sitting_out_together
from compliance.services.common import player_lock
from compliance.services.flags import flags_store
from wallet.models import AuditEntry
from wallet.services.audit import audit_record

SITTING_OUT_TOGETHER = "sitting_out_together"
SITTING_OUT_TOGETHER_SEEN = "sitting_out_together_seen"
EPISODES_KEPT = 50
"""The most recent episodes a flag lists as its evidence (the count goes on beyond them)."""


def sitting_out_together_record_locked(
    tournament_id: int, own: Iterable[int], sitting_out: Iterable[tuple[int, datetime]]
) -> int:
    """In the caller's transaction: the players ``own`` (of the table whose hand just ended) and the players of the
    whole tournament ``sitting_out`` by choice (user id, since when): raise or update a flag per pair that started
    sitting out together (``pairs_sitting_out_together``) in a new episode: the episode in the audit trail, and from
    the pair's second a flag. Returns how many flags were new or reopened."""
    since = {f"user:{int(user_id)}": moment.timestamp() for user_id, moment in sitting_out}
    raised = 0
    for first_key, second_key, moment in pairs_sitting_out_together([f"user:{player}" for player in own], since):
        first, second = sorted((int(first_key[5:]), int(second_key[5:])))
        player_lock("sitting-out-together", first)  # one writer per pair, for an exact count
        pair = [first, second]
        episode = {"players": pair, "tournament": tournament_id, "since": round(moment, 3)}  # seconds since the epoch
        seen = AuditEntry.objects.filter(action=SITTING_OUT_TOGETHER_SEEN, details__players=pair)
        if seen.filter(details=episode).exists():
            continue  # the same overlap, seen again at another hand's end
        audit_record(
            action=SITTING_OUT_TOGETHER_SEEN,
            actor=None,
            reason="TRN-32: two players of a tournament started sitting out by choice within a minute of each other",
            details=episode,
        )
        count = seen.count()
        if count < FLAG_AT_EPISODES:
            continue
        recent = list(seen.order_by("-pk").values_list("details", flat=True)[:EPISODES_KEPT])
        raised += flags_store(
            [
                Finding(
                    indicator=SITTING_OUT_TOGETHER,
                    players=(f"user:{first}", f"user:{second}"),
                    score=float(count),
                    threshold=float(FLAG_AT_EPISODES),
                    severity=severity_from_ratio(float(count), float(FLAG_AT_EPISODES)),
                    hands=(),
                    evidence={
                        "count": count,
                        "episodes": [{"tournament": row["tournament"], "since": row["since"]} for row in recent[::-1]],
                    },
                    requirements=("TRN-32", "FRD-19"),
                )
            ]
        )
    return raised
