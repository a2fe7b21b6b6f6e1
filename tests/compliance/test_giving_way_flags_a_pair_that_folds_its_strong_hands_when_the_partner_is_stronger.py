"""FRD-11, FRD-01, FRD-02, FRD-19: giving way — one of a pair folds or checks in pots with a third player whenever the
other holds the better hand (colluders who see each other's cards), judged against the same player's play in the same
spots against everybody else; an exact tail, Tarone's bar and "not enough data" for pairs that cannot reach it."""

from __future__ import annotations

import random

from compliance.detection.analysis import AnalysedHand
from compliance.detection.detector import INDICATOR_NAMES, Detector
from compliance.detection.giving_way import GivingWay, GivingWayParameters, preflop_strength
from compliance.detection.records import HandRecord
from compliance.detection.statistics import binomial_sum_lower_tail
from games.engine.actions import Action, Call, Check, Fold, LegalActions
from games.engine.state import HandState, Street
from tests.compliance.hands import policy_hand

PAIR = ("ann", "bea")
OTHERS = ("cid", "dan", "eve", "fay", "gus", "hal")
FAST = GivingWayParameters(holding_samples=40)


def room(hands: int, *, colluding: bool, seed: int = 3) -> list[HandRecord]:
    """Four-handed hands: ann and bea at every other table with two of the others, otherwise four of the others. Before
    the flop everybody goes on (calls or checks) with a chance equal to their hand's strength; after it everybody
    checks. When ``colluding``, ann and bea see each other's cards: the one whose hand is weaker folds when the other
    is still in with a third player."""
    rng = random.Random(seed)
    records = []
    for number in range(hands):
        names = [*PAIR, *rng.sample(OTHERS, 2)] if number % 2 == 0 else rng.sample(OTHERS, 4)
        rng.shuffle(names)
        players = dict(enumerate(names, start=1))
        choices = random.Random(f"{seed}:{number}")

        def policy(
            state: HandState,
            legal: LegalActions,
            players: dict[int, str] = players,
            choices: random.Random = choices,
        ) -> Action:
            seat = legal.seat
            facing = legal.call_amount is not None and legal.call_amount > 0
            if state.street is not Street.PREFLOP:
                return Check(seat) if not facing else Call(seat)
            mine = preflop_strength(state.hole_cards(seat), FAST.preflop_samples)
            if colluding and players[seat] in PAIR:
                partner = next(other for other, name in players.items() if name in PAIR and other != seat)
                live = state.live_seats
                theirs = preflop_strength(state.hole_cards(partner), FAST.preflop_samples)
                if partner in live and len(live) >= 3 and theirs > mine:
                    return Fold(seat) if facing else Check(seat)
            goes_on = choices.random() < 2 * mine - 0.5
            if facing:
                return Call(seat) if goes_on else Fold(seat)
            return Check(seat)

        records.append(policy_hand(f"h-{number}", players, policy, seed=seed * 100_000 + number, button=1))
    return records


def giving_way(records: list[HandRecord], parameters: GivingWayParameters = FAST) -> GivingWay:
    indicator = GivingWay(parameters)
    for record in records:
        indicator.feed_hand(AnalysedHand(record))
    return indicator


def test_a_pair_that_folds_its_strong_hands_when_the_partner_is_stronger_is_flagged() -> None:
    indicator = giving_way(room(600, colluding=True))
    flags = indicator.flags()
    assert [flag.players for flag in flags] == [PAIR]
    flag = flags[0]
    assert flag.score >= flag.threshold
    assert flag.evidence["went_on"] == 0 < flag.evidence["expected_to_go_on"]
    assert flag.evidence["going_on_ratio_interval"][1] <= indicator.parameters.maximum_ratio
    for direction in flag.evidence["by_player"]:
        assert direction["going_on_rate"] == 0.0
        assert direction["going_on_rate_against_others"] > 0.1
    assert flag.severity == min(100.0, 10 * flag.score)
    assert {"FRD-11", "FRD-19"} <= set(flag.requirements)
    assert indicator.verdict(*PAIR) == "flagged"


def test_honest_pairs_dealt_the_same_cards_are_not_flagged() -> None:
    indicator = giving_way(room(600, colluding=False))
    assert indicator.flags() == []
    assert indicator.verdict(*PAIR) == "no finding"


def test_a_pair_with_few_decisions_together_is_not_enough_data_not_honest() -> None:
    """Twenty hands: ann and bea never went on when the other held the better hand, but no count of so few trials
    could reach the bar; the pair is not judged, and not flagged."""
    indicator = giving_way(room(20, colluding=True))
    judged = indicator.judge(*PAIR)
    assert judged is not None
    assert judged["observed"] == 0 < judged["trials"]
    assert indicator.flags() == []
    assert indicator.verdict(*PAIR) == "not enough data"
    assert PAIR not in indicator.judged_pairs()


def test_the_chance_is_the_exact_tail_of_a_sum_of_binomials_one_per_spot() -> None:
    """Trials at different rates: the exact tail of their sum, smaller than a binomial at the mean rate would say."""
    groups = [(10, 0.05), (10, 0.6)]
    exact = binomial_sum_lower_tail(groups, 1)
    none_on = 0.95**10 * 0.4**10
    one_on = 10 * 0.05 * 0.95**9 * 0.4**10 + 0.95**10 * 10 * 0.6 * 0.4**9
    assert abs(exact - (none_on + one_on)) < 1e-12


def test_the_detector_reports_giving_way_and_pools_it_into_the_pairs_collusion_test() -> None:
    assert "giving_way" in INDICATOR_NAMES
    detector = Detector({"giving_way": {"holding_samples": 40}})
    detector.feed_hands(room(600, colluding=True))
    flags = detector.flags()
    assert PAIR in [flag.players for flag in flags if flag.indicator == "giving_way"]
    pooled = detector.indicators["pair_evidence"]
    tests = pooled.tests()  # type: ignore[attr-defined]
    assert "giving_way" in tests[PAIR]["collusion"][1]
    state = detector.state()
    again = Detector.from_state(state, {"giving_way": {"holding_samples": 40}})
    assert again.indicators["giving_way"].state() == state["indicators"]["giving_way"]


def test_two_batches_merged_or_stored_and_read_back_give_what_one_pass_gives() -> None:
    records = room(200, colluding=True)
    whole = giving_way(records)
    first, second = giving_way(records[:120]), giving_way(records[120:])
    first.merge(second)
    assert first.state()["totals"] == whole.state()["totals"]
    assert first.state()["players"] == whole.state()["players"]
    read_back = GivingWay(FAST)
    read_back.load_state(whole.state())
    assert read_back.state() == whole.state()
    assert read_back.judge(*PAIR) == whole.judge(*PAIR)


def swinging_player(opponents: int = 12) -> GivingWay:
    """Dan has 60 trials against each of ``opponents`` others in one spot and goes on in 54 of them against half the
    opponents and 6 against the other half: his play changes from table to table (a dumper who stays in cheaply until
    the hand to dump in comes), not from one opponent's hidden cards to another's."""
    names = [f"opp{number:02d}" for number in range(opponents)]
    went_on = {name: 54 if number % 2 == 0 else 6 for number, name in enumerate(names)}
    indicator = GivingWay()
    total_on = sum(went_on.values())
    indicator.load_state(
        {
            "format": 1,
            "totals": [0, 60 * opponents, total_on],
            "players": {"dan": [0, 60 * opponents, total_on]},
            "pairs": [["dan", name, [0, 60, went_on[name]], [], []] for name in names],
        }
    )
    return indicator


def test_a_player_whose_going_on_swings_from_opponent_to_opponent_gives_less_evidence_per_trial() -> None:
    indicator = swinging_player()
    plain = indicator.judge("dan", "opp01")
    assert plain is not None
    assert plain["observed"] == 6
    assert plain["expected"] > 25
    assert plain["probability"] < 1e-6  # judged as plain binomials, six of 60 would be far below one in a million
    dispersions = indicator.dispersions(
        {key: figures for key in indicator._pairs if (figures := indicator.judge(*key, tail=False)) is not None}
    )
    assert dispersions["dan"] > 10
    assert indicator.flags() == []
    assert indicator.verdict("dan", "opp01") == "not enough data"


def test_a_player_who_met_too_few_opponents_for_his_own_dispersion_takes_the_rooms() -> None:
    """Dan swings as above against six opponents, fewer than the ten his own estimate needs (a live room of a few
    tables): the room's dispersion (over every player's counts, here his) stands in for his, not a binomial's 1, so his
    six of 60 against one opponent are not giving way (issue 31: two honest bots were flagged live this way)."""
    indicator = swinging_player(opponents=6)
    assert indicator.parameters.dispersion_minimum_opponents > 6
    dispersions = indicator.dispersions(
        {key: figures for key in indicator._pairs if (figures := indicator.judge(*key, tail=False)) is not None}
    )
    assert dispersions["dan"] > 10
    assert dispersions["opp01"] == dispersions["dan"]  # no counts of his own: the room's
    assert indicator.flags() == []


def test_an_opponent_flagged_for_dumping_with_a_player_leaves_the_players_baseline() -> None:
    indicator = swinging_player()
    before = indicator._field_counts("dan", {}, "opp01")[0]
    indicator.exclude_from_baselines([("dan", "opp00")])
    after = indicator._field_counts("dan", {}, "opp01")[0]
    assert after == [before[0] - 60, before[1] - 54]
