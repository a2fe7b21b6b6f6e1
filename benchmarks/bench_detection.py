"""Fraud detection measured: recall on planted cases, false flags on honest players, and the indicators' speed (FRD-19).

    .venv/bin/python benchmarks/bench_detection.py [--generator both|first|second] [--hands 20000] [--seed 19] [--json]

Two independent generators (issue 31): the *first* room (benchmarks/detection_simulation.py, below) and the *second*
(benchmarks/second_room.py: another play model, other styles, stakes and seating, dumpers who call off or fold the
best hand on the river, colluders who also squeeze, partners who seldom sit together; its players' table entries come
from benchmarks/table_entries.py, where the planted pairs join running tables seconds apart). For each, per planted
behaviour, the planted pairs or players found by any indicator that names them (recall) and the honest players in any
flag (false flags); targets recall >= 95 % and false flags <= 1 % on both. The exit status is 1 when a target is missed.

Plays ``--hands`` hands of 6-max No-Limit Hold'em with the engine between simulated players of four honest styles
and planted cases (colluding pairs who share hole cards and soft-play each other, chip dumpers losing to a partner,
bots with machine timing, counter abusers), see benchmarks/detection_simulation.py; and 300 simulated tournaments'
sit-outs, where the colluding pairs also agree to sit out together (TRN-32, ``sitting_out_together``). Every hand,
connection and counter record goes through ``compliance.detection.Detector`` with its default parameters, as the
site would feed it.

Prints, per indicator: the planted cases and how many were flagged (recall), the honest players (honest styles and
honest friend pairs) and how many appear in a flag (false-flag rate), and flags that name other planted players. Then
the speeds: hands/s of the indicators (analysis and all indicators, timed around ``feed_hand`` only), of the
simulation that produced the hands (engine and policies), and — as a named peer for the equity the indicators use —
heads-up all-in equity by ``games.engine.equity`` against pokerkit's ``calculate_equities`` with the same sample
count. Targets: recall >= 95 % at a false-flag rate <= 1 %, indicators >= 200 hands/s.

``--json`` prints the report as one JSON document instead (used by tests/compliance/test_detection_benchmark_report.py
on a few thousand hands).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from detection_simulation import (
    Population,
    PopulationSize,
    Room,
    build_population,
    counter_records,
    preflop_percentiles,
    tournament_sit_outs,
)
from second_room import SecondRoom
from second_room import build_population as build_second_population
from table_entries import hours_for, planted_pairs
from table_entries import records as entry_records

from compliance.detection.bot_timing import BotTiming
from compliance.detection.detector import INDICATOR_NAMES, Detector
from compliance.detection.flags import Flag
from compliance.detection.net_flow import NetFlow
from compliance.detection.records import HandRecord
from compliance.detection.sitting_out import FLAG_AT_EPISODES, SittingOutEpisodes
from games.engine.cards import parse_cards
from games.engine.config import Variant
from games.engine.equity import all_in_equity

TARGET_RECALL = 0.95
TARGET_FALSE_FLAG_RATE = 0.01
TARGET_HANDS_PER_SECOND = 200.0


PAIR_INDICATORS = ("chip_dumping", "net_flow", "soft_play", "giving_way", "pair_evidence")
"""The indicators that name a pair for its play (a planted colluding or dumping pair is found by any of them)."""


def planted_cases(
    population: Population,
    dumps_done: list[tuple[str, str, str]],
    shown: Mapping[str, set[tuple[str, ...]]] | None = None,
) -> dict[str, set[tuple[str, ...]]]:
    """Per indicator, the cases it should flag: pairs as sorted tuples (chip dumping and net flow: (dumper,
    receiver)), players as 1-tuples. Dumping pairs count once they dumped at least once; with ``shown``
    (:func:`shown_cases`), shared connections and bots only once their behaviour could be seen."""
    dumped = {(dumper, receiver) for dumper, receiver, _ in dumps_done}
    cases = {
        "chip_dumping": {pair for pair in population.dumping_pairs if pair in dumped},
        "net_flow": {pair for pair in population.dumping_pairs if pair in dumped},
        "soft_play": {tuple(sorted(pair)) for pair in population.colluding_pairs},
        "giving_way": {tuple(sorted(pair)) for pair in population.colluding_pairs},
        "pair_evidence": {tuple(sorted(pair)) for pair in population.colluding_pairs}
        | {tuple(sorted(pair)) for pair in population.dumping_pairs if pair in dumped},
        "shared_connection": {tuple(sorted(pair)) for pair in population.sharing_pairs},
        # Nobody here joins a running table: every player logs in when the round's tables open.
        "coordinated_entry": set(),
        "counter_use": {(name,) for name in population.counter_abusers},
        "bot_timing": {(name,) for name in population.bots},
    }
    for name, seen in (shown or {}).items():
        cases[name] &= seen
    return cases


def met(detector: Detector, pairs: list[tuple[str, str]]) -> set[tuple[str, ...]]:
    """``pairs`` (as sorted tuples) whose two players were dealt into a hand together in the hands ``detector`` was
    fed (net flow counts every pair's shared hands)."""
    flow = detector.indicators["net_flow"]
    assert isinstance(flow, NetFlow)
    return {tuple(sorted(pair)) for pair in pairs if flow.shared_hands(*pair) > 0}


def shown_cases(population: Population, detector: Detector) -> dict[str, set[tuple[str, ...]]]:
    """The planted sharing pairs and bots whose behaviour the hands fed could show, as :func:`planted_cases` keys:
    a sharing pair once the partners were dealt a hand together (at one table, so connected to one place); a bot with
    machine timing once it made ``minimum_decisions`` timed decisions (the indicator's own minimum), a marathon bot,
    whose times look human, once a session of it passed ``long_session_hours``."""
    timing = detector.indicators["bot_timing"]
    assert isinstance(timing, BotTiming)
    limits = timing.parameters
    players = timing.state()["players"]
    bots = set()
    for name, kind in population.bots.items():
        figures = players.get(name, {})
        if kind == "marathon":
            if figures.get("longest_session", 0.0) >= limits.long_session_hours * 3600.0:
                bots.add((name,))
        elif figures.get("decisions", 0) >= limits.minimum_decisions:
            bots.add((name,))
    return {"shared_connection": met(detector, population.sharing_pairs), "bot_timing": bots}


def flag_key(flag: Flag) -> tuple[str, ...]:
    return flag.players if flag.indicator in ("chip_dumping", "net_flow") else tuple(sorted(flag.players))


def behaviour_row(planted: set[tuple[str, ...]], flags: list[Flag], honest: set[str]) -> dict[str, Any]:
    """Planted pairs found by any pair indicator (in either order), and the honest players in those indicators'
    flags."""
    found_keys = {tuple(sorted(flag.players)) for flag in flags if flag.indicator in PAIR_INDICATORS}
    wanted = {tuple(sorted(pair)) for pair in planted}
    found = wanted & found_keys
    return {
        "planted": len(wanted),
        "flagged": len(found),
        "recall": len(found) / len(wanted) if wanted else None,
        "missed": sorted("/".join(case) for case in wanted - found),
    }


def honest_row(flags: list[Flag], honest: set[str]) -> dict[str, Any]:
    """Honest players named in any flag of any indicator."""
    falsely = sorted({player for flag in flags for player in flag.players} & honest)
    return {
        "honest_players": len(honest),
        "honest_flagged": len(falsely),
        "false_flag_rate": len(falsely) / len(honest) if honest else 0.0,
        "honest_flagged_players": falsely,
    }


def evaluate(
    population: Population,
    dumps_done: list[tuple[str, str, str]],
    flags: list[Flag],
    shown: Mapping[str, set[tuple[str, ...]]] | None = None,
) -> dict[str, Any]:
    cases = planted_cases(population, dumps_done, shown)
    everyone = planted_cases(population, dumps_done)
    honest = population.honest
    households = {name for pair in population.household_pairs for name in pair}
    report: dict[str, Any] = {}
    for name in INDICATOR_NAMES:
        own = [flag for flag in flags if flag.indicator == name]
        keys = {flag_key(flag) for flag in own}
        planted = cases[name]
        found = planted & keys
        flagged_players = {player for flag in own for player in flag.players}
        falsely = sorted(flagged_players & honest)
        other = sorted(
            {player for flag in own if flag_key(flag) not in planted for player in flag.players if player not in honest}
        )
        report[name] = {
            "planted": len(planted),
            "planted_in_population": len(everyone[name]),
            "flagged": len(found),
            "recall": len(found) / len(planted) if planted else None,
            "missed": sorted("/".join(case) for case in planted - found),
            "honest_players": len(honest),
            "honest_flagged": len(falsely),
            "false_flag_rate": len(falsely) / len(honest) if honest else 0.0,
            "honest_flagged_players": falsely,
            "honest_flagged_households": sorted(set(falsely) & households),
            "other_planted_players_flagged": other,
            "flags": len(own),
        }
    return report


def behaviours(
    population: Any,
    dumps_done: list[tuple[str, str, str]],
    flags: list[Flag],
    colluders_met: set[tuple[str, ...]] | None = None,
) -> dict[str, Any]:
    """The target rows: colluding and dumping pairs found by any pair indicator, honest players in any flag. Dumping
    pairs count once they dumped; colluding pairs, given ``colluders_met``, once they were dealt into a hand together
    (no pair statistic can see a pair that never met)."""
    dumped = {(dumper, receiver) for dumper, receiver, _ in dumps_done}
    colluding = {tuple(sorted(pair)) for pair in population.colluding_pairs}
    met = colluding if colluders_met is None else colluding & colluders_met
    return {
        "colluding_pairs": {
            **behaviour_row(met, flags, population.honest),
            "planted_in_population": len(colluding),
        },
        "dumping_pairs": behaviour_row(
            {pair for pair in population.dumping_pairs if pair in dumped}, flags, population.honest
        ),
        "honest": honest_row(flags, population.honest),
    }


def evaluate_sitting_out(population: Population, seed: int, threshold: int = FLAG_AT_EPISODES) -> dict[str, Any]:
    """TRN-32 (``compliance.detection.sitting_out``, the site's ``sitting_out_together`` flag, which opens at the
    pair's ``threshold``-th episode): planted agreements are the colluding pairs that sat out together at least
    once; a false flag is an honest player (friends included) in a flagged pair."""
    episodes = SittingOutEpisodes()
    agreed: set[tuple[str, ...]] = set()
    colluding = {tuple(sorted(pair)) for pair in population.colluding_pairs}
    began = time.perf_counter()
    snapshots = 0
    for place, own, sitting in tournament_sit_outs(population, random.Random(seed + 2)):
        episodes.see(place, own, sitting)
        snapshots += 1
        for pair in colluding:
            if pair[0] in sitting and pair[1] in sitting and abs(sitting[pair[0]] - sitting[pair[1]]) <= 40.0:
                agreed.add(pair)
    seconds = time.perf_counter() - began
    flagged = set(episodes.pairs(threshold))
    honest = population.honest
    falsely = sorted({player for pair in flagged for player in pair} & honest)
    found = agreed & flagged
    return {
        "planted": len(agreed),
        "flagged": len(found),
        "recall": len(found) / len(agreed) if agreed else None,
        "missed": sorted("/".join(case) for case in agreed - found),
        "honest_players": len(honest),
        "honest_flagged": len(falsely),
        "false_flag_rate": len(falsely) / len(honest) if honest else 0.0,
        "honest_flagged_players": falsely,
        "honest_flagged_households": [],
        "other_planted_players_flagged": sorted(
            {player for pair in flagged - agreed for player in pair if player not in honest}
        ),
        "flags": len(flagged),
        "threshold_episodes": threshold,
        "hand_ends_seen": snapshots,
        "seconds": seconds,
    }


def equity_peer(repeat: int = 3) -> dict[str, Any]:
    """Heads-up preflop all-in equity, 2,000 Monte-Carlo samples: ours against pokerkit's calculate_equities."""
    from pokerkit import Card as PokerkitCard
    from pokerkit import Deck, StandardHighHand, calculate_equities

    samples = 2_000
    ours_best = theirs_best = float("inf")
    for _ in range(repeat):
        began = time.perf_counter()
        all_in_equity(Variant.NO_LIMIT_HOLDEM, [parse_cards("AsKs"), parse_cards("QdQh")], samples=samples, seed=1)
        ours_best = min(ours_best, time.perf_counter() - began)
        began = time.perf_counter()
        calculate_equities(
            ([list(PokerkitCard.parse("AsKs"))], [list(PokerkitCard.parse("QdQh"))]),
            (),
            2,
            5,
            Deck.STANDARD,
            (StandardHighHand,),
            sample_count=samples,
        )
        theirs_best = min(theirs_best, time.perf_counter() - began)
    return {
        "samples": samples,
        "ours_seconds": ours_best,
        "pokerkit_seconds": theirs_best,
        "ratio": theirs_best / ours_best if ours_best else None,
    }


def run(hands: int, seed: int, hands_per_round: int, with_peer: bool) -> dict[str, Any]:
    rng = random.Random(seed)
    began = time.perf_counter()
    percentiles = preflop_percentiles(random.Random(seed + 1))
    setup_seconds = time.perf_counter() - began
    size = PopulationSize()
    population = build_population(size, rng)
    room = Room(population, hands_per_round, seconds_per_hand=50.0, rng=rng, percentiles=percentiles)
    detector = Detector()
    detection_seconds = 0.0
    connection_seconds = 0.0
    fed_hands = 0
    for records, connections in room.rounds(hands):
        began = time.perf_counter()
        for connection in sorted(connections, key=lambda record: record.at):
            detector.feed_connection(connection)
        connection_seconds += time.perf_counter() - began
        began = time.perf_counter()
        for record in records:
            detector.feed_hand(record)
        detection_seconds += time.perf_counter() - began
        fed_hands += len(records)
    counters = counter_records(population, rng)
    began = time.perf_counter()
    for counter in counters:
        detector.feed_counter(counter)
    counter_seconds = time.perf_counter() - began
    began = time.perf_counter()
    flags = detector.flags()
    flag_seconds = time.perf_counter() - began
    state_bytes = len(json.dumps(detector.state()))
    return {
        "hands": fed_hands,
        "seed": seed,
        "hands_per_round": hands_per_round,
        "players": len(population.players),
        "population": {
            "honest": size.honest,
            "friend_pairs": size.friend_pairs,
            "colluding_pairs": size.colluding_pairs,
            "dumping_pairs": size.dumping_pairs,
            "bots": size.bots,
            "counter_abusers": size.counter_abusers,
            "households": size.households,
        },
        "dumps_done": len(room.dumps_done),
        "connections": detector.connections,
        "counter_records": len(counters),
        "indicators": {
            **evaluate(population, room.dumps_done, flags, shown_cases(population, detector)),
            "sitting_out_together": evaluate_sitting_out(population, seed),
        },
        "speed": {
            "detection_seconds": detection_seconds,
            "detection_hands_per_second": fed_hands / detection_seconds if detection_seconds else None,
            "connection_seconds": connection_seconds,
            "counter_seconds": counter_seconds,
            "flags_seconds": flag_seconds,
            "simulation_seconds": room.simulation_seconds,
            "simulation_hands_per_second": fed_hands / room.simulation_seconds if room.simulation_seconds else None,
            "preflop_table_seconds": setup_seconds,
        },
        "equity_peer": equity_peer() if with_peer else None,
        "state_bytes": state_bytes,
        "behaviours": behaviours(population, room.dumps_done, flags, met(detector, population.colluding_pairs)),
    }


def heads_up_losses(record: HandRecord, pairs: list[tuple[str, str]], into: dict[tuple[str, str], list[float]]) -> None:
    """Add to ``into[(dumper, receiver)]`` = [hands, big blinds] the dumper's loss when the two alone saw the flop
    (the planted behaviour: a dump heads-up after the flop), for the dumping ``pairs`` dealt into ``record``."""
    by_player = {seat.player: seat for seat in record.seats}
    folded_preflop = {action.seat for action in record.actions if action.street == "preflop" and action.kind == "fold"}
    if not any(action.street != "preflop" for action in record.actions):
        return
    live = {seat.seat for seat in record.seats} - folded_preflop
    for dumper, receiver in pairs:
        if dumper not in by_player or receiver not in by_player:
            continue
        if live == {by_player[dumper].seat, by_player[receiver].seat} and by_player[dumper].net < 0:
            figures = into.setdefault((dumper, receiver), [0, 0.0])
            figures[0] += 1
            figures[1] += -by_player[dumper].net / record.big_blind


def run_second(hands: int, seed: int) -> dict[str, Any]:
    """The second room (benchmarks/second_room.py) through the detector with its default parameters."""
    rng = random.Random(seed)
    population = build_second_population(rng)
    room = SecondRoom(population, rng)
    detector = Detector()
    entries = entry_records(population, random.Random(seed + 1), hands)
    began = time.perf_counter()
    for connection in entries:
        detector.feed_connection(connection)
    connection_seconds = time.perf_counter() - began
    detection_seconds = 0.0
    fed = 0
    dumped: dict[tuple[str, str], list[float]] = {}
    for records in room.sessions(hands):
        began = time.perf_counter()
        for record in records:
            detector.feed_hand(record)
        detection_seconds += time.perf_counter() - began
        fed += len(records)
        for record in records:
            heads_up_losses(record, population.dumping_pairs, dumped)
    flags = detector.flags()
    cases = {
        "chip_dumping": set(population.dumping_pairs),
        "net_flow": set(population.dumping_pairs),
        "soft_play": {tuple(sorted(pair)) for pair in population.colluding_pairs},
        "giving_way": {tuple(sorted(pair)) for pair in population.colluding_pairs},
        "pair_evidence": {tuple(sorted(pair)) for pair in (*population.colluding_pairs, *population.dumping_pairs)},
        "coordinated_entry": set(planted_pairs(population)),
    }
    honest = population.honest
    indicators = {}
    for name in (*PAIR_INDICATORS, "coordinated_entry"):
        own = [flag for flag in flags if flag.indicator == name]
        keys = {flag_key(flag) for flag in own}
        found = cases[name] & keys
        falsely = sorted({player for flag in own for player in flag.players} & honest)
        indicators[name] = {
            "planted": len(cases[name]),
            "flagged": len(found),
            "recall": len(found) / len(cases[name]),
            "missed": sorted("/".join(case) for case in cases[name] - found),
            "honest_players": len(honest),
            "honest_flagged": len(falsely),
            "false_flag_rate": len(falsely) / len(honest),
            "honest_flagged_players": falsely,
            "honest_flagged_households": [],
            "other_planted_players_flagged": [],
            "flags": len(own),
        }
    return {
        "generator": "second",
        "hands": fed,
        "seed": seed,
        "players": len(population.players),
        "dumps_done": len(room.dumps_done),
        "table_entries": {"connections": len(entries), "hours": hours_for(hands)},
        "indicators": indicators,
        "behaviours": behaviours(population, room.dumps_done, flags, met(detector, population.colluding_pairs)),
        "dumped_heads_up": {
            f"{dumper}/{receiver}": {"hands": int(hands_lost), "big_blinds": round(big_blinds, 1)}
            for (dumper, receiver), (hands_lost, big_blinds) in sorted(dumped.items())
        },
        "speed": {
            "detection_seconds": detection_seconds,
            "detection_hands_per_second": fed / detection_seconds if detection_seconds else None,
            "connection_seconds": connection_seconds,
            "simulation_seconds": room.simulation_seconds,
        },
    }


def target_misses(report: dict[str, Any]) -> list[str]:
    """The targets a generator's report misses: recall per planted behaviour (any pair indicator), honest players in
    any flag, and — first room — each indicator's own rows and the speed."""
    misses = []
    rows = report["behaviours"]
    for name in ("colluding_pairs", "dumping_pairs"):
        recall = rows[name]["recall"]
        if recall is not None and recall < TARGET_RECALL:
            misses.append(f"{name.replace('_', ' ')} recall {recall:.1%}")
    if rows["honest"]["false_flag_rate"] > TARGET_FALSE_FLAG_RATE:
        misses.append(f"honest players flagged {rows['honest']['false_flag_rate']:.2%}")
    if report.get("generator", "first") == "first":
        for name, row in report["indicators"].items():
            if name in PAIR_INDICATORS:
                continue  # judged together, as the behaviours above
            if row["recall"] is not None and row["recall"] < TARGET_RECALL:
                misses.append(f"{name} recall {row['recall']:.1%}")
            if row["false_flag_rate"] > TARGET_FALSE_FLAG_RATE:
                misses.append(f"{name} false flags {row['false_flag_rate']:.2%}")
        speed = report["speed"]["detection_hands_per_second"]
        if speed is not None and speed < TARGET_HANDS_PER_SECOND:
            misses.append("speed")
    return misses


def print_behaviours(report: dict[str, Any]) -> None:
    rows = report["behaviours"]
    print()
    print("planted behaviour (any pair indicator)   planted  flagged  recall")
    for name in ("colluding_pairs", "dumping_pairs"):
        row = rows[name]
        recall = "-" if row["recall"] is None else f"{row['recall']:.1%}"
        print(f"{name.replace('_', ' '):<40} {row['planted']:>7} {row['flagged']:>8} {recall:>7}")
        if row.get("planted_in_population", row["planted"]) != row["planted"]:
            together = row["planted"]
            print(f"    planted {row['planted_in_population']}, of which {together} were dealt into a hand together")
        if row["missed"]:
            print(f"    missed: {', '.join(row['missed'])}")
    honest = rows["honest"]
    print(
        f"honest players in any flag: {honest['honest_flagged']} of {honest['honest_players']} "
        f"({honest['false_flag_rate']:.2%})"
        + (f": {', '.join(honest['honest_flagged_players'])}" if honest["honest_flagged_players"] else "")
    )


def print_second(report: dict[str, Any]) -> None:
    print(
        f"Second generator (benchmarks/second_room.py): {report['hands']:,} hands, {report['players']} players, "
        f"seed {report['seed']}; hands where a dumper lost to the partner {report['dumps_done']}; "
        f"table entries (benchmarks/table_entries.py) {report['table_entries']['connections']:,} connections over "
        f"{report['table_entries']['hours']:.1f} hours"
    )
    print(f"{'indicator':<18} {'planted':>7} {'flagged':>7} {'recall':>7} {'honest':>6} {'false':>5} {'rate':>6}")
    for name, row in report["indicators"].items():
        print(
            f"{name:<18} {row['planted']:>7} {row['flagged']:>7} {row['recall']:>7.1%} {row['honest_players']:>6} "
            f"{row['honest_flagged']:>5} {row['false_flag_rate']:>6.2%}"
        )
    print_behaviours(report)
    dumped = report["dumped_heads_up"]
    for pair in report["behaviours"]["dumping_pairs"]["missed"]:
        dumper, receiver = pair.split("/")
        figures = (
            dumped.get(f"{dumper}/{receiver}") or dumped.get(f"{receiver}/{dumper}") or {"hands": 0, "big_blinds": 0}
        )
        print(
            f"    {pair}: the dumper lost {figures['big_blinds']:,.0f} BB in {figures['hands']} hands heads-up with "
            "the partner after the flop"
        )
    speed = report["speed"]
    print(
        f"indicators: {speed['detection_hands_per_second']:,.0f} hands/s ({speed['detection_seconds']:.1f} s); "
        f"simulation {speed['simulation_seconds']:.1f} s"
    )


def print_report(report: dict[str, Any]) -> None:
    print(f"Fraud detection: {report['hands']:,} hands, {report['players']} players, seed {report['seed']}")
    print(f"machine: {platform.machine()} {os.cpu_count()} cores, CPython {platform.python_version()}")
    population = report["population"]
    print(
        "population: "
        + ", ".join(f"{key.replace('_', ' ')} {value}" for key, value in population.items())
        + f"; dumps done {report['dumps_done']}; connections {report['connections']:,}; "
        f"counter records {report['counter_records']:,}"
    )
    print()
    print(
        f"{'indicator':<18} {'planted':>7} {'flagged':>7} {'recall':>7} {'honest':>6} {'false':>5} {'rate':>6}  other"
    )
    for name, row in report["indicators"].items():
        recall = "-" if row["recall"] is None else f"{row['recall']:.1%}"
        print(
            f"{name:<18} {row['planted']:>7} {row['flagged']:>7} {recall:>7} {row['honest_players']:>6} "
            f"{row['honest_flagged']:>5} {row['false_flag_rate']:>6.2%}  {len(row['other_planted_players_flagged'])}"
        )
        if row.get("planted_in_population", row["planted"]) != row["planted"]:
            print(
                f"    planted {row['planted_in_population']}, of which {row['planted']} could show the behaviour "
                "in these hands (pairs dealt a hand together; bots: enough timed decisions, a marathon session "
                "past the limit)"
            )
        if row["missed"]:
            print(f"    missed: {', '.join(row['missed'])}")
        if row["honest_flagged_players"]:
            households = row["honest_flagged_households"]
            print(
                f"    honest flagged: {', '.join(row['honest_flagged_players'])}"
                + (f" (households sharing an address: {', '.join(households)})" if households else "")
            )
    speed = report["speed"]
    print()
    print(
        f"indicators: {speed['detection_hands_per_second']:,.0f} hands/s "
        f"({speed['detection_seconds']:.1f} s for the hands; connections {speed['connection_seconds']:.2f} s, "
        f"counters {speed['counter_seconds']:.2f} s, flags {speed['flags_seconds']:.2f} s); "
        f"target >= {TARGET_HANDS_PER_SECOND:.0f} hands/s"
    )
    print(
        f"simulation (engine + policies, for comparison): {speed['simulation_hands_per_second']:,.0f} hands/s "
        f"({speed['simulation_seconds']:.1f} s)"
    )
    peer = report["equity_peer"]
    if peer is not None:
        print(
            f"heads-up preflop equity, {peer['samples']} samples: "
            f"games.engine.equity {peer['ours_seconds'] * 1000:.1f} ms,"
            f" pokerkit calculate_equities {peer['pokerkit_seconds'] * 1000:.1f} ms ({peer['ratio']:.1f}x)"
        )
    print(f"accumulator state: {report['state_bytes']:,} bytes of JSON")
    print_behaviours(report)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--generator", choices=("both", "first", "second"), default="both")
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=19)
    parser.add_argument("--hands-per-round", type=int, default=150)
    parser.add_argument("--json", action="store_true", help="print the report as one JSON document")
    parser.add_argument("--no-peer", action="store_true", help="skip the equity comparison with pokerkit")
    arguments = parser.parse_args()
    reports: dict[str, dict[str, Any]] = {}
    if arguments.generator in ("both", "first"):
        reports["first"] = run(arguments.hands, arguments.seed, arguments.hands_per_round, not arguments.no_peer)
    if arguments.generator in ("both", "second"):
        reports["second"] = run_second(arguments.hands, arguments.seed)
    misses = {name: target_misses(report) for name, report in reports.items()}
    if arguments.json:
        print(json.dumps({**reports, "misses": misses}, sort_keys=True))
    else:
        for name, report in reports.items():
            if name == "first":
                print_report(report)
            else:
                print_second(report)
            print()
        for name, missed in misses.items():
            print(f"targets, {name} generator: " + ("all met" if not missed else "MISSED: " + "; ".join(missed)))
    if any(misses.values()):
        sys.exit(1)


if __name__ == "__main__":
    main()
