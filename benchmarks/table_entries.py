"""Who joins which running cash table when: connection records for the second benchmark room's population (issue 31),
with coordinated table entry planted.

The second room (``second_room.py``) re-seats its tables every session and records no connections, so this module
gives the same players a lobby of their own: ``TABLES`` six-max cash tables that open together at the start and then
run without a break. Every player arrives now and then (a Poisson process, ``ARRIVALS_PER_HOUR``), sits at a random
table with a free seat, stays for an exponential time (``MEAN_STAY_MINUTES``) and in one stay in three reconnects once
(a reconnect is not a join). The room's time is the time its hands take: ``TABLES`` tables dealing a hand every 45
seconds, so 20,000 hands are 12.5 hours.

**Planted:** the room's colluding and dumping pairs coordinate. When one of them arrives and the partner is not
seated, the partner follows to the same table 3 to 20 seconds later with the probability the pair sits together in
the room (0.7 for most colluders, 0.25 for two pairs, 0.6 for dumpers); the partner's own arrivals go on as well.
Honest players, friends included, arrive independently (friends who came in together would be entering together too,
which is what the indicator measures: see docs/benchmarks.md).

Standard library only; ``records(population, rng, hands)`` is the whole interface.
"""

from __future__ import annotations

import heapq
import random
from typing import Any

from compliance.detection.records import ConnectionRecord

TABLES = 20
SEATS = 6
SECONDS_PER_HAND = 45.0
ARRIVALS_PER_HOUR = 0.6
MEAN_STAY_MINUTES = 45.0
RECONNECT_SHARE = 1 / 3
FOLLOW_SECONDS = (3.0, 20.0)
EPOCH = 1_769_904_000.0


def hours_for(hands: int) -> float:
    """The room's duration for ``hands`` hands: ``TABLES`` tables, a hand every ``SECONDS_PER_HAND`` at each."""
    return hands * SECONDS_PER_HAND / TABLES / 3600.0


def planted_pairs(population: Any) -> list[tuple[str, str]]:
    """The pairs that coordinate their entries, as sorted tuples."""
    return sorted(tuple(sorted(pair)) for pair in (*population.colluding_pairs, *population.dumping_pairs))


def records(population: Any, rng: random.Random, hands: int) -> list[ConnectionRecord]:
    """The connection records of ``hours_for(hands)`` hours of the lobby, in time order (module docstring)."""
    end = hours_for(hands) * 3600.0
    players = population.players
    partners = {
        name: player.partner for name, player in players.items() if player.role in ("colluder", "dumper", "receiver")
    }
    together = {name: players[name].together for name in partners}
    seated: dict[str, int] = {}  # player -> table
    occupants: list[set[str]] = [set() for _ in range(TABLES)]
    out: list[ConnectionRecord] = []
    events: list[tuple[float, int, str, str, int]] = []  # (at, order, kind, player, table)
    order = 0

    next_arrival: dict[str, int] = {}  # a player's one pending arrival (a partner who followed keeps one stream)

    def push(at: float, kind: str, player: str, table: int = -1) -> None:
        nonlocal order
        order += 1
        heapq.heappush(events, (at, order, kind, player, table))
        if kind == "arrive":
            next_arrival[player] = order

    def sit(at: float, player: str, table: int) -> None:
        seated[player] = table
        occupants[table].add(player)
        place = f"table:lobby-{table + 1}"
        out.append(ConnectionRecord(player=player, place=place, at=EPOCH + at))
        stay = rng.expovariate(1.0 / (MEAN_STAY_MINUTES * 60.0))
        if rng.random() < RECONNECT_SHARE:
            push(at + rng.uniform(0.2, 0.9) * stay, "reconnect", player, table)
        push(at + stay, "leave", player, table)

    # The opening: the first seats of every table fill in its first minute.
    names = sorted(players)
    rng.shuffle(names)
    for index, name in enumerate(names[: TABLES * SEATS // 2]):
        sit(rng.uniform(0.0, 60.0), name, index % TABLES)
    for name in names:
        push(rng.expovariate(ARRIVALS_PER_HOUR / 3600.0), "arrive", name)
    while events:
        at, number, kind, player, table = heapq.heappop(events)
        if at > end:
            break
        if kind == "arrive" and next_arrival.get(player) != number:
            continue
        if kind == "leave":
            if seated.get(player) == table:
                del seated[player]
                occupants[table].discard(player)
            push(at + rng.expovariate(ARRIVALS_PER_HOUR / 3600.0), "arrive", player)
        elif kind == "reconnect":
            if seated.get(player) == table:
                out.append(ConnectionRecord(player=player, place=f"table:lobby-{table + 1}", at=EPOCH + at))
        elif kind == "arrive" and player not in seated:
            partner = partners.get(player)
            follows = partner is not None and partner not in seated and rng.random() < together[player]
            room = 2 if follows else 1
            free = [index for index in range(TABLES) if SEATS - len(occupants[index]) >= room]
            if not free:
                push(at + 600.0, "arrive", player)  # the lobby is full: try again in ten minutes
                continue
            chosen = rng.choice(free)
            sit(at, player, chosen)
            if follows:
                assert partner is not None
                sit(at + rng.uniform(*FOLLOW_SECONDS), partner, chosen)
    out.sort(key=lambda record: record.at)
    return out


__all__ = ["hours_for", "planted_pairs", "records"]
