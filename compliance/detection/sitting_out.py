"""TRN-32: which players sitting out by choice sit out *together* (standard library; used by the site's
``compliance.services.sitting_out`` and the detection benchmark).

Only players who started sitting out within ``window_seconds`` of each other count: in a big field, players sitting
out at different moments for their own reasons overlap all the time, while an agreement starts together. An episode
of a pair is the place (the tournament) and the later of the two moments they sat out, so the same overlap seen again
at the next hand counts once.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

AGREEMENT_WINDOW_SECONDS = 60.0
"""Two players who started sitting out at most this far apart sit out together."""
FLAG_AT_EPISODES = 2
"""A pair is flagged from its second episode: in a big field two players start sitting out within a minute of each
other by chance now and then (at one episode, 3 in 4 honest players of the detection benchmark's tournaments would
be flagged), the same two again is an agreement (docs/benchmarks.md, bench_detection.py)."""


def pairs_sitting_out_together(
    own: Iterable[str], sitting_out: Mapping[str, float], window_seconds: float = AGREEMENT_WINDOW_SECONDS
) -> list[tuple[str, str, float]]:
    """The pairs (sorted) of a player of ``own`` and another player of ``sitting_out`` (player -> since when, seconds)
    who started sitting out at most ``window_seconds`` apart, each with its episode moment (the later start)."""
    pairs: set[tuple[str, str, float]] = set()
    for player in own:
        if player not in sitting_out:
            continue
        mine = sitting_out[player]
        for other, theirs in sitting_out.items():
            if other != player and abs(theirs - mine) <= window_seconds:
                first, second = sorted((player, other))
                pairs.add((first, second, max(mine, theirs)))
    return sorted(pairs)


class SittingOutEpisodes:
    """Episodes per pair, fed with what each hand's end sees (the benchmark's accumulator; the site keeps the same
    count in the flag's evidence)."""

    def __init__(self, window_seconds: float = AGREEMENT_WINDOW_SECONDS) -> None:
        self.window_seconds = window_seconds
        self.episodes: dict[tuple[str, str], set[tuple[str, float]]] = {}

    def see(self, place: str, own: Iterable[str], sitting_out: Mapping[str, float]) -> None:
        for first, second, moment in pairs_sitting_out_together(own, sitting_out, self.window_seconds):
            self.episodes.setdefault((first, second), set()).add((place, moment))

    def pairs(self, threshold: int = FLAG_AT_EPISODES) -> dict[tuple[str, str], int]:
        """The pairs seen in at least ``threshold`` episodes, with their counts."""
        return {pair: len(seen) for pair, seen in self.episodes.items() if len(seen) >= threshold}
