"""TRN-32: no sit-out agreements. One player may choose to sit out of a tournament (TRN-19); two or more sitting out by
choice at the same time, at the same or different tables of one tournament, may have agreed to, which is collusion
(FRD). Each pair of players seen sitting out together is a ``sitting_out_together`` flag on the compliance desk; its
score is the number of times (episodes) the pair was seen so, in any tournament, so that a dismissed flag opens again
when the pair does it again (``compliance.services.flags``).

Only pairs who *started* sitting out within :data:`AGREEMENT_WINDOW` of each other count: in a big field, players
sitting out at different moments for their own reasons overlap all the time, while an agreement starts together (and
this keeps the pairs checked few). An episode of a pair is identified by the tournament and the later of the two
moments they sat out: the same overlap seen again at the next hand counts once. Players sitting out after a
disconnection do not count (the caller passes only sit-outs by choice).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from compliance.detection.flags import Flag as Finding
from compliance.models import Flag
from compliance.services.common import player_lock
from compliance.services.flags import flags_store

SITTING_OUT_TOGETHER = "sitting_out_together"
AGREEMENT_WINDOW = timedelta(seconds=60)
"""Two players who started sitting out at most this far apart sit out together."""
EPISODES_KEPT = 50
"""The most recent episodes a flag lists as its evidence (the count goes on beyond them)."""


def pairs_sitting_out_together(
    own: Iterable[int], sitting_out: Iterable[tuple[int, datetime]], window: timedelta = AGREEMENT_WINDOW
) -> list[tuple[int, int]]:
    """The pairs (lower id first) of a player of ``own`` and another player of ``sitting_out`` (user id, since when)
    who started sitting out at most ``window`` apart."""
    since = {int(user_id): moment for user_id, moment in sitting_out}
    pairs = set()
    for player in own:
        if player not in since:
            continue
        for other, moment in since.items():
            if other != player and abs(moment - since[player]) <= window:
                pairs.add((min(player, other), max(player, other)))
    return sorted(pairs)


def sitting_out_together_record_locked(
    tournament_id: int, own: Iterable[int], sitting_out: Iterable[tuple[int, datetime]]
) -> int:
    """In the caller's transaction: the players ``own`` (of the table whose hand just ended) and the players of the
    whole tournament ``sitting_out`` by choice (user id, since when): raise or update a flag per pair that started
    sitting out together (:func:`pairs_sitting_out_together`) in a new episode. Returns how many flags were new or
    reopened."""
    since = {int(user_id): moment for user_id, moment in sitting_out}
    raised = 0
    for first, second in pairs_sitting_out_together(own, since.items()):
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
