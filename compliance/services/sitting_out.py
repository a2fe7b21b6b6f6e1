"""TRN-32: no sit-out agreements. One player may choose to sit out of a tournament (TRN-19); two or more sitting out by
choice at the same time, at the same or different tables of one tournament, may have agreed to, which is collusion
(FRD). Each pair of players seen sitting out together is a ``sitting_out_together`` flag on the compliance desk; its
score is the number of times (episodes) the pair was seen so, in any tournament, so that a dismissed flag opens again
when the pair does it again (``compliance.services.flags``).

An episode of a pair is identified by the tournament and the later of the two moments they sat out: the same
overlap seen again at the next hand counts once. Players sitting out after a disconnection do not count (the caller
passes only sit-outs by choice).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from itertools import combinations

from compliance.detection.flags import Flag as Finding
from compliance.models import Flag
from compliance.services.common import player_lock
from compliance.services.flags import flags_store

SITTING_OUT_TOGETHER = "sitting_out_together"
EPISODES_KEPT = 50
"""The most recent episodes a flag lists as its evidence (the count goes on beyond them)."""


def sitting_out_together_record_locked(tournament_id: int, sitting_out: Iterable[tuple[int, datetime]]) -> int:
    """In the caller's transaction: record that the players ``sitting_out`` (user id, since when, by choice) of the
    tournament sit out at the same time; raise or update a flag per pair seen so in a new episode. Returns how many
    flags were new or reopened. Nothing for fewer than two players."""
    since: dict[int, datetime] = {}
    for user_id, moment in sitting_out:
        since[int(user_id)] = moment
    raised = 0
    for first, second in combinations(sorted(since), 2):
        player_lock("sitting-out-together", first)  # one writer per pair's flag, for an exact count
        keys = (f"user:{first}", f"user:{second}")
        existing = Flag.objects.filter(indicator=SITTING_OUT_TOGETHER, player_keys=",".join(keys)).first()
        evidence = dict(existing.evidence) if existing is not None else {}
        episodes = list(evidence.get("episodes", []))
        episode = {"tournament": tournament_id, "since": max(since[first], since[second]).isoformat()}
        if episode in episodes:
            continue
        count = int(evidence.get("count", 0)) + 1
        raised += flags_store(
            [
                Finding(
                    indicator=SITTING_OUT_TOGETHER,
                    players=keys,
                    score=float(count),
                    threshold=1.0,
                    hands=(),
                    evidence={"count": count, "episodes": [*episodes, episode][-EPISODES_KEPT:]},
                    requirements=("TRN-32", "FRD-19"),
                )
            ]
        )
    return raised
