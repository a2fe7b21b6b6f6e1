"""Planted cheats among honest bots on the live site, then the site's own detection (issue 31).

    .venv/bin/python benchmarks/bench_live_detection.py [--stakes NL4,NL10,NL25] [--colluding-pairs 2]
        [--dumping-pairs 2] [--shared-hands 300] [--minutes 25] [--think 0.05 0.25] [--pause-ms 500]
        [--styles random,tight,loose] [--seed 31] [--json]

Everything runs on this machine over 127.0.0.1, as ``bench_tables.py`` runs it: the site (daphne, ``poker_site.asgi``)
and the ticker that deals the hands, on a scratch database (created, migrated and dropped here) on the server in
DATABASE_URL and its own Redis key prefix. The bots (this process) are the project's own client
(:mod:`games.bots.client`) over the real sockets, six to a table, one Hold'em table per stake of ``--stakes``, with
policies from
:func:`games.bots.policy.plant_pairs`: planted colluding pairs (soft play, hole cards shared in this process, squeezes)
and dumping pairs (the dumper loses to its partner heads-up after the flop in three ways) sit among honest bots of the
``--styles``. Partners find each other's seats by their names at the table.

One table per stake because players choose a stake, not a table (CASH-04): the stake queue assigns the table (tables
played at recently first, then the emptiest, at random among equals), so two partners queued for one stake with
several tables are seated apart more often than not, and re-queueing sends a player back to the table it just left. A
stake with one table seats its six bots together; the planted pairs are spread over the stakes.

The bots play until every planted pair has shared ``--shared-hands`` hands (both dealt in) or ``--minutes`` have
passed. Then every settled hand is fed to the site's detection service (``compliance.services.detection_advance``,
what the Celery task runs) and the stored accumulators' flags are read as the desk reads them. Printed: per planted
pair the hands shared, whether any pair indicator flagged it (chip dumping, net flow, soft play, pooled pair
evidence) and each indicator's figures against its bar; the honest bots in any flag (``bot_timing`` reported apart:
every bot here decides like a machine, which that indicator is for); hands per second of play and of detection.

Exits 1 with the reasons when no hand was played, a planted pair shared no hand, or the site processes failed; exits
0 otherwise (the recall and false-flag figures are reported, not asserted: a short run may not reach them).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import pickle
import signal
import sys
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from random import Random
from typing import Any

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT))

from benchmarks.bench_tables import BenchmarkFailed, Stack, set_pause_between_hands, wait_for_serving  # noqa: E402

SEATS = 6
BALANCE_IN_BUY_INS = 60
"""Each bot's balance: a dumper loses a stack every few heads-up pots and auto top-up refills it from here."""
PAIR_INDICATORS = ("chip_dumping", "net_flow", "soft_play", "pair_evidence")
CHECK_SECONDS = 15.0


def prepare(stakes: list[str], arguments: argparse.Namespace) -> tuple[list[Any], list[Any], dict[str, str], list[int]]:
    """One table per stake, bot users with money and a session each (in this process, through the services)."""
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "poker_site.settings")
    django.setup()
    from games.bots.setup import buy_in_for, ensure_bot_users, ensure_tables, session_for

    table_rows = [ensure_tables(1, stake=stake, prefix="Live")[0] for stake in stakes]
    buy_ins = [buy_in_for(table) for table in table_rows]
    users, _password = ensure_bot_users(
        len(table_rows) * SEATS, prefix="player", balance=BALANCE_IN_BUY_INS * max(buy_ins)
    )
    sessions = {user.table_name: session_for(user) for user in users}
    set_pause_between_hands(arguments.pause_ms)
    return table_rows, users, sessions, buy_ins


def shared_hands(pairs: list[Any], names: dict[str, int]) -> dict[tuple[str, str], int]:
    """Finished hands each planted pair was dealt into together."""
    from django.db import close_old_connections
    from django.db.models import Count

    from games.models import HandPlayer, HandStatus

    close_old_connections()
    counts = {}
    for pair in pairs:
        rows = (
            HandPlayer.objects.filter(
                hand__status=HandStatus.FINISHED, user_id__in=[names[pair.first], names[pair.second]]
            )
            .values("hand_id")
            .annotate(players=Count("user_id"))
            .filter(players=2)
        )
        counts[(pair.first, pair.second)] = rows.count()
    close_old_connections()
    return counts


async def play(
    bots: list[Any],
    pairs: list[Any],
    names: dict[str, int],
    target: int,
    deadline: float,
    checkpoints: list[int],
    checkpoint: Callable[[int], None],
) -> dict[Any, int]:
    """Run the bots until every pair shared ``target`` hands or the deadline; the last counts. When the fewest hands
    any pair shared passes a number in ``checkpoints``, ``checkpoint(number)`` runs (in a thread, the bots play on)."""
    tasks = [asyncio.create_task(bot.run(deadline)) for bot in bots]
    started = time.monotonic()
    counts: dict[Any, int] = {}
    pending = sorted(checkpoints)
    while time.monotonic() < deadline:
        await asyncio.sleep(CHECK_SECONDS)
        counts = await asyncio.to_thread(shared_hands, pairs, names)
        print(json.dumps({"elapsed_s": round(time.monotonic() - started), "shared": list(counts.values())}), flush=True)
        while pending and counts and min(counts.values()) >= pending[0]:
            await asyncio.to_thread(checkpoint, pending.pop(0))
        if counts and min(counts.values()) >= target:
            break
        if all(task.done() for task in tasks):
            break
    for bot in bots:
        bot.stop()
    await asyncio.gather(*tasks, return_exceptions=True)
    return counts


def wait_until_no_hand_runs(timeout: float = 120) -> None:
    from games.models import Hand, HandStatus

    ends = time.monotonic() + timeout
    while Hand.objects.filter(status=HandStatus.RUNNING).exists() and time.monotonic() < ends:
        time.sleep(1.0)


def detect() -> tuple[Any, int, float]:
    """Feed every settled hand to the site's detection service; the detector as stored, hands fed, seconds taken."""
    from django.utils import timezone

    from compliance.detection.detector import Detector
    from compliance.models import DetectorState
    from compliance.services.detection import detection_advance
    from compliance.services.thresholds import detector_parameters

    started = time.perf_counter()
    fed = 0
    later = timezone.now() + timedelta(minutes=5)  # every connection row counts as settled
    while True:
        batch = detection_advance(hands_per_batch=500, now=later)
        fed += batch.hands
        if not batch.more and not batch.hands and not batch.connections:
            break
    seconds = time.perf_counter() - started
    row = DetectorState.objects.get(name="site")
    return Detector.from_state(row.state, parameters=detector_parameters()), fed, seconds


def names_of(pair: Any, keys: dict[str, str]) -> dict[str, str]:
    """The detector's key of each player of ``pair`` -> the bot's name."""
    return {keys[pair.first]: pair.first, keys[pair.second]: pair.second}


def pair_figures(detector: Any, pair: Any, keys: dict[str, str]) -> dict[str, Any]:
    """Each pair indicator's figures for a planted pair against its bar (for the report: why a pair was missed)."""
    first, second = keys[pair.first], keys[pair.second]
    soft = detector.indicators["soft_play"]
    judged = soft.judge(first, second)
    figures: dict[str, Any] = {
        "soft_play": {
            "verdict": soft.verdict(first, second),
            "decisions": judged["decisions"] if judged else 0,
            "aggressive": judged["observed"] if judged else 0,
            "expected_aggressive": round(judged["expected"], 1) if judged else None,
            "score": round(judged["score"], 2) if judged else None,
            "bar": round(soft.flagging_threshold(), 2),
        }
    }
    dumping = detector.indicators["chip_dumping"]
    candidates = dumping.candidates()
    opponents = dumping.opponents()
    dispersion = dumping.dispersion(opponents)
    for loser, winner in ((first, second), (second, first)):
        stored = dumping._pairs.get((loser, winner))
        if stored is None:
            continue
        score, rates = dumping.score(loser, stored, winner, opponents, dispersion)
        figures.setdefault("chip_dumping", []).append(
            {
                "loser": pair.first if loser == first else pair.second,
                "judged": [stored.counts[0], stored.counts[2], stored.counts[4]],
                "weak": [stored.counts[1], stored.counts[3], stored.counts[5]],
                "weak_transfer_big_blinds": round(stored.weak_transfer, 1),
                "expected_weak_rates": [round(rate, 3) for rate in rates],
                "room_dispersion": round(dispersion, 2),
                "room_weak_rates": [round(rate, 3) for rate in opponents[1]],
                "score": round(score, 2),
                "bar": round(dumping.flagging_threshold(candidates), 2),
                "reaches_minimums": (loser, winner) in candidates,
            }
        )
    pressure = soft.pressure(detector.indicators["pair_evidence"].parameters.pressure_minimum_decisions)
    names = names_of(pair, keys)
    for target, bettor in ((first, second), (second, first)):
        if (target, bettor) in pressure:
            figures.setdefault("betting_pressure", []).append(
                {"target": names[target], "bettor": names[bettor]}
                | {name: value for name, value in pressure[(target, bettor)].items() if name != "chance"}
                | {"chance": float(f"{pressure[(target, bettor)]['chance']:.3g}")}
            )
    flow = detector.indicators["net_flow"]
    judged_pairs = flow.judged_pairs()
    flow_bar = flow.flagging_threshold(judged_pairs)
    for loser, winner in ((first, second), (second, first)):
        judged_flow = flow.judge_losses(loser, winner)
        if judged_flow is None:
            continue
        figures.setdefault("net_flow", []).append(
            {
                "loser": pair.first if loser == first else pair.second,
                "shared": flow.shared_hands(loser, winner),
                "judged_hands": judged_flow["hands"],
                "losses_big_blinds": round(judged_flow["losses"], 1),
                "excess_big_blinds": round(judged_flow["excess"], 1),
                "test": judged_flow["test"],
                "z": round(judged_flow["score"], 2),
                "bar": round(flow_bar, 2),
                "judged": (loser, winner) in judged_pairs,
            }
        )
    return figures


def evaluate(detector: Any, pairs: list[Any], keys: dict[str, str], counts: dict[Any, int]) -> dict[str, Any]:
    flags = detector.flags()
    names = {key: name for name, key in keys.items()}
    planted_players = {name for pair in pairs for name in (pair.first, pair.second)}
    honest = sorted(set(keys) - planted_players)
    rows = []
    for pair in pairs:
        wanted = {keys[pair.first], keys[pair.second]}
        found_by = sorted(
            {flag.indicator for flag in flags if flag.indicator in PAIR_INDICATORS and set(flag.players) == wanted}
        )
        rows.append(
            {
                "kind": pair.kind,
                "players": [pair.first, pair.second],
                "shared_hands": counts.get((pair.first, pair.second), 0),
                "found": bool(found_by),
                "found_by": found_by,
                "figures": pair_figures(detector, pair, keys),
            }
        )
    in_flags: dict[str, set[str]] = {}
    for flag in flags:
        for player in flag.players:
            if names.get(player) in honest:
                in_flags.setdefault(flag.indicator, set()).add(names[player])
    not_timing = sorted({name for indicator, found in in_flags.items() if indicator != "bot_timing" for name in found})
    by_kind = {}
    for kind in ("colluding", "dumping"):
        kind_rows = [row for row in rows if row["kind"] == kind]
        if kind_rows:
            by_kind[kind] = {"planted": len(kind_rows), "found": sum(row["found"] for row in kind_rows)}
    return {
        "pairs": rows,
        "recall": by_kind,
        "honest_bots": len(honest),
        "honest_flagged": not_timing,
        "flags_naming_honest_bots": [
            {
                "indicator": flag.indicator,
                "players": [names[player] for player in flag.players],
                "score": flag.score,
                "threshold": flag.threshold,
                # what a reviewer would read first: the pooled behaviour and its chances, the tests and their figures
                "evidence": {
                    name: value
                    for name, value in flag.evidence.items()
                    if name in ("behaviour", "chances", "test", "judged_hands", "decisions", "aggressive_decisions")
                },
            }
            for flag in flags
            if flag.indicator != "bot_timing" and {names.get(player) for player in flag.players} & set(honest)
        ],
        "honest_in_pair_flags": sorted(
            {name for indicator in PAIR_INDICATORS for name in in_flags.get(indicator, set())}
        ),
        "bot_timing_flagged": {
            "honest": len(in_flags.get("bot_timing", set())),
            "planted": len(
                {names[player] for flag in flags if flag.indicator == "bot_timing" for player in flag.players}
                & planted_players
            ),
        },
        "flags_by_indicator": {
            indicator: sum(flag.indicator == indicator for flag in flags) for indicator in detector.indicators
        },
    }


def save_records(path: Path, pairs: list[Any], keys: dict[str, str]) -> None:
    """Pickle ``{"records": [HandRecord, ...], "pairs": [(kind, first, second), ...], "keys": {name: key}}``: the
    finished hands as the detection service reads them, in the order they were played."""
    from compliance.hand_records import hand_records
    from games.models import Hand, HandStatus

    records = list(hand_records(Hand.objects.filter(status=HandStatus.FINISHED).order_by("pk")))
    planted = [(pair.kind, pair.first, pair.second) for pair in pairs]
    path.write_bytes(pickle.dumps({"records": records, "pairs": planted, "keys": keys}))
    print(f"saved {len(records)} hand records to {path}", flush=True)


def stop_on_signal(number: int, frame: Any) -> None:
    raise KeyboardInterrupt(f"signal {number}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--stakes", default="NL4,NL10,NL25", help="Hold'em stakes, one table each")
    parser.add_argument("--colluding-pairs", type=int, default=2)
    parser.add_argument("--dumping-pairs", type=int, default=2)
    parser.add_argument("--shared-hands", type=int, default=300, help="stop when every planted pair shared this many")
    parser.add_argument("--minutes", type=float, default=25.0, help="time budget for the play")
    parser.add_argument("--think", type=float, nargs=2, default=(0.05, 0.25), metavar=("MIN", "MAX"))
    parser.add_argument("--pause-ms", type=int, default=500, help="pause between hands (a game-rules setting)")
    parser.add_argument("--styles", default="random,tight,loose", help="the honest bots' styles, in turn")
    parser.add_argument(
        "--checkpoints",
        default="100,200,300",
        help="run the detection while the bots play when the fewest shared hands of a pair pass these numbers",
    )
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--json", action="store_true", help="print the report as JSON only")
    parser.add_argument(
        "--save-records",
        metavar="PATH",
        help="pickle the settled hands' detection records, the planted pairs and the players' keys to PATH "
        "(for studying an indicator on the hands of a live run without playing it again)",
    )
    arguments = parser.parse_args()
    stakes = [stake.strip() for stake in arguments.stakes.split(",") if stake.strip()]
    if not 1 <= len(stakes) <= 7 or len(set(stakes)) != len(stakes) or arguments.minutes <= 0:
        parser.error("--stakes must name 1..7 different stakes and --minutes be positive")
    # A terminated run still stops its servers and drops its database (the finally clause below).
    signal.signal(signal.SIGTERM, stop_on_signal)

    from poker_site.embedded import embedded_services

    problems: list[str] = []
    report: dict[str, Any] = {}
    with embedded_services():
        stack = Stack(PROJECT / "var" / "bench-live-detection")
        stack.log_directory.mkdir(parents=True, exist_ok=True)
        try:
            stack.create_database(table_actors=False)  # the per-action durable path, as in the earlier runs
            tables, users, sessions, buy_ins = prepare(stakes, arguments)
            from games.bots.client import Bot, BotSettings, BotStats
            from games.bots.policy import Partnership, plant_pairs

            stack.start_daphnes("site", stack.site_port, "poker_site.asgi:application", 1)
            stack.start("ticker", [sys.executable, str(PROJECT / "manage.py"), "run_ticker", "--interval", "0.2"])
            wait_for_serving(stack.site_port, "/healthz", checks=("database", "redis"))
            base_url = f"http://127.0.0.1:{stack.site_port}"
            seated = [
                [user.table_name for user in users[number * SEATS : (number + 1) * SEATS]]
                for number in range(len(tables))
            ]
            policies, pairs = plant_pairs(
                seated,
                colluding_pairs=arguments.colluding_pairs,
                dumping_pairs=arguments.dumping_pairs,
                styles=tuple(style.strip() for style in arguments.styles.split(",") if style.strip()),
            )
            partnerships = {}
            for pair in pairs:
                partnerships[pair.first] = partnerships[pair.second] = Partnership()
            settings = BotSettings(base_url=base_url, think_seconds=tuple(arguments.think))  # type: ignore[arg-type]
            stats = BotStats()
            rng = Random(arguments.seed)
            bots = [
                Bot(
                    name,
                    sessions[name],
                    tables[number].pk,
                    buy_ins[number],
                    settings,
                    stats,
                    Random(rng.random()),
                    policy=policies[name],
                    partnership=partnerships.get(name),
                )
                for number, names in enumerate(seated)
                for name in names
            ]
            user_ids = {user.table_name: user.pk for user in users}
            print(
                f"{len(bots)} bots on {len(tables)} tables at {base_url}; planted: "
                + ", ".join(f"{pair.kind} {pair.first}/{pair.second}" for pair in pairs),
                flush=True,
            )
            from compliance.hand_records import user_key

            keys = {user.table_name: user_key(user.pk) for user in users}
            report["checkpoints"] = []
            detection_work = [0, 0.0]  # hands fed to the detection and its seconds, over every batch

            def checkpoint(number: int) -> None:
                from django.db import close_old_connections

                close_old_connections()
                counted = shared_hands(pairs, user_ids)
                detector, fed, seconds = detect()
                detection_work[0] += fed
                detection_work[1] += seconds
                found = evaluate(detector, pairs, keys, counted)
                close_old_connections()
                summary = {
                    "fewest_shared_hands": number,
                    "minutes": round((time.monotonic() - started) / 60, 1),
                    "hands_fed_so_far": detector.hands,
                    "shared": [row["shared_hands"] for row in found["pairs"]],
                    "found_by": [row["found_by"] for row in found["pairs"]],
                    "recall": found["recall"],
                    "honest_flagged": found["honest_flagged"],
                    "flags_naming_honest_bots": found["flags_naming_honest_bots"],
                    "bot_timing_flagged": found["bot_timing_flagged"],
                }
                report["checkpoints"].append(summary)
                print(json.dumps({"checkpoint": summary}), flush=True)

            checkpoints = [int(number) for number in arguments.checkpoints.split(",") if number.strip()]
            started = time.monotonic()
            counts = asyncio.run(
                play(
                    bots,
                    pairs,
                    user_ids,
                    arguments.shared_hands,
                    started + 60 * arguments.minutes,
                    checkpoints,
                    checkpoint,
                )
            )
            play_seconds = time.monotonic() - started
            wait_until_no_hand_runs()
            counts = shared_hands(pairs, user_ids)
            from games.models import Hand, HandStatus

            hands = Hand.objects.filter(status=HandStatus.FINISHED).count()
            report["play"] = {
                "stakes": stakes,
                "bots": len(bots),
                "seconds": round(play_seconds, 1),
                "hands": hands,
                "hands_per_second": round(hands / play_seconds, 2) if play_seconds else None,
                "think_seconds": list(arguments.think),
                "pause_between_hands_ms": arguments.pause_ms,
                "bots_summary": stats.summary(),
                "load_average": os.getloadavg(),
            }
            if hands == 0:
                problems.append("no hand was played: see the logs in var/bench-live-detection/")
            elif counts and min(counts.values()) == 0:
                problems.append("a planted pair shared no hand (the stake queue seated the partners apart)")
            if hands:
                detector, fed, seconds = detect()
                detection_work[0] += fed
                detection_work[1] += seconds
                report["detection"] = {
                    "hands_fed": detection_work[0],
                    "seconds": round(detection_work[1], 1),
                    "hands_per_second": round(detection_work[0] / detection_work[1], 1) if detection_work[1] else None,
                }
                report.update(evaluate(detector, pairs, keys, counts))
                if arguments.save_records:
                    save_records(Path(arguments.save_records), pairs, keys)
        except BenchmarkFailed as error:
            problems.append(str(error))
        finally:
            stack.stop()
    if arguments.json:
        print(json.dumps({**report, "problems": problems}, indent=1, default=str))
    else:
        print_report(report)
    for problem in problems:
        print(f"FAILED: {problem}", file=sys.stderr)
    return 1 if problems else 0


def print_report(report: dict[str, Any]) -> None:
    play = report.get("play", {})
    print(json.dumps({"play": play}, default=str))
    for row in report.get("pairs", []):
        print(
            f"{row['kind']:9} {'/'.join(row['players']):22} shared {row['shared_hands']:4}  "
            f"{'FOUND by ' + ', '.join(row['found_by']) if row['found'] else 'missed'}"
        )
        print(f"    {json.dumps(row['figures'])}")
    for key in (
        "recall",
        "honest_bots",
        "honest_flagged",
        "flags_naming_honest_bots",
        "honest_in_pair_flags",
        "bot_timing_flagged",
    ):
        print(f"{key}: {json.dumps(report.get(key))}")
    print(f"detection: {json.dumps(report.get('detection'))}")
    print(f"flags_by_indicator: {json.dumps(report.get('flags_by_indicator'))}")


if __name__ == "__main__":
    sys.exit(main())
