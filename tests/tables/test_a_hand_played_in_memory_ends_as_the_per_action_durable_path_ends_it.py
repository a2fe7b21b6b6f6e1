"""A hand held in memory (``hand_begin``, then ``hand_apply`` for every action with no database access at all, then
``hand_end``) leaves exactly what the per-action durable path (``hand_start``, then ``hand_act`` / ``hand_timeout``
for every action) leaves: the same event log, the same settlement (ledger legs, stacks, rake) and the same seats.

Two identical tables are played side by side — the same seeds, the same stacks, the same random legal actions, clocks
run out (decision time, timebank, reconnection grace for a player without a socket), actions out of turn refused —
one by each path, cash (RAKE-01..08, CASH-22, CASH-23) and tournament tables (TRN-19, RAKE-09), heads-up and 6-max,
several hands in a row so what one hand leaves the next one starts from (issue 27, step 2 of docs/runtime-design.md).
"""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest

from games.engine.state import HandState
from games.models import GameRules, Hand, HandStatus, Table
from games.runtime import presence
from games.runtime.errors import NotYourTurn
from games.runtime.hands import hand_begin, hand_end
from games.runtime.play import ClockDue, HandInPlay, PlayerAction, hand_apply
from games.services import hand_act, hand_start, hand_timeout
from tests.tables.support import START, open_table, player, seat_players
from tests.tables.twins import Pair, normalised, settled, tournament_pair

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("quiet_tournament_realtime")]

HANDS_PER_TABLE = 6


def cash_pair(players: int) -> Pair:
    if players == 2:  # heads-up from the first hand (CASH-06 asks for three unless the rules row lowers it)
        GameRules.objects.update(minimum_players_to_start=2)
    tables = []
    for _ in range(2):
        table = open_table("holdem", "NL10")
        seat_players(table, [player() for _ in range(players)], 1_000)
        tables.append(table)
    return Pair(*tables)


def random_message(state: HandState, hand: Hand, rng: random.Random) -> tuple[str, Any]:
    """A random legal action of the player to act ("act", (type, amount)), or the clock run out ("clock", None)."""
    if rng.random() < 0.15:
        return "clock", None
    legal = state.legal_actions()
    assert legal is not None
    kinds = [kind for kind in legal.kinds if kind in ("fold", "check", "call", "bet", "raise_to", "all_in")]
    kind = rng.choice(kinds)
    amount = None
    if kind in ("bet", "raise_to"):
        low, high = legal.bet_range if kind == "bet" else legal.raise_range  # type: ignore[misc]
        amount = rng.choice([low, high, rng.randint(low, high)])
    return "act", (kind, amount)


def play_pair(pair: Pair, seed: int, django_assert_num_queries: Any) -> int:
    """Play up to HANDS_PER_TABLE hands at both tables of ``pair``; assert after each that both ended alike. Returns how
    many hands were played."""
    rng = random.Random(seed)
    now = START + timedelta(minutes=1)
    played = 0
    for number in range(HANDS_PER_TABLE):
        hand = hand_start(pair.durable, now=now, shuffler=random.Random(seed * 1000 + number))
        live = hand_begin(pair.memory, now=now, shuffler=random.Random(seed * 1000 + number))
        assert (hand is None) == (live is None)
        if hand is None or live is None:
            break
        played += 1
        assert isinstance(live, HandInPlay)
        while not live.state.is_complete:
            memory_hand = live.hand
            assert memory_hand.acting_seat is not None
            assert memory_hand.action_deadline is not None
            if rng.random() < 0.05:  # someone not to act tries: both refuse it and nothing changes
                waiting = next(n for n in sorted(pair.users[pair.memory.pk]) if n != memory_hand.acting_seat)
                with pytest.raises(NotYourTurn):
                    hand_act(pair.durable, pair.users[pair.durable.pk][waiting], "fold", now=now)
                before = (len(live.events), memory_hand.version)
                with django_assert_num_queries(0), pytest.raises(NotYourTurn):
                    hand_apply(live, PlayerAction(pair.users[pair.memory.pk][waiting].pk, "fold"), now)
                assert (len(live.events), memory_hand.version) == before
            what, action = random_message(live.state, memory_hand, rng)
            if what == "clock":
                now = max(now, memory_hand.action_deadline)
                user = pair.users[pair.memory.pk][memory_hand.acting_seat]
                sockets = presence.has_live_socket(user.pk, pair.memory.pk)
                assert hand_timeout(hand.pk, now=now)
                with django_assert_num_queries(0):
                    applied = hand_apply(live, ClockDue(memory_hand.pk, sockets), now)
            else:
                now = now + timedelta(milliseconds=rng.randint(0, 9_000))
                kind, amount = action
                acting = memory_hand.acting_seat
                hand_act(pair.durable, pair.users[pair.durable.pk][acting], kind, amount, hand_id=hand.pk, now=now)
                message = PlayerAction(pair.users[pair.memory.pk][acting].pk, kind, amount, memory_hand.pk)
                with django_assert_num_queries(0):
                    applied = hand_apply(live, message, now)
            assert applied.changed
            if applied.complete:
                assert hand_end(live, now=now) is not None
        assert Hand.objects.get(pk=hand.pk).status == HandStatus.FINISHED
        assert normalised(pair, pair.memory, live.hand) == normalised(pair, pair.durable, hand)
        assert settled(pair.memory, live.hand) == settled(pair.durable, hand)
        now = max(now, Table.objects.get(pk=pair.durable.pk).next_hand_at or now) + timedelta(seconds=1)
    return played


@pytest.fixture
def one_player_without_a_socket(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    absent: list[int] = []
    monkeypatch.setattr(presence, "has_live_socket", lambda user_id, table_id: user_id not in absent)
    return absent


@pytest.mark.parametrize("players", [2, 6], ids=["heads-up", "6-max"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_cash_hands_played_in_memory_end_with_the_events_and_settlement_of_the_per_action_path(
    players: int, seed: int, one_player_without_a_socket: list[int], django_assert_num_queries: Any
) -> None:
    pair = cash_pair(players)
    one_player_without_a_socket.extend(pair.absent)
    assert play_pair(pair, seed, django_assert_num_queries) >= 1


@pytest.mark.parametrize("players", [2, 6], ids=["heads-up", "6-max"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_tournament_hands_played_in_memory_end_with_the_events_and_chips_of_the_per_action_path(
    players: int, seed: int, one_player_without_a_socket: list[int], django_assert_num_queries: Any
) -> None:
    pair = tournament_pair(players)
    one_player_without_a_socket.extend(pair.absent)
    assert play_pair(pair, seed, django_assert_num_queries) >= 1


def test_a_hand_ends_durably_only_once_it_is_complete() -> None:
    pair = cash_pair(2)
    live = hand_begin(pair.memory, now=START + timedelta(minutes=1), shuffler=random.Random(5))
    assert live is not None
    assert not live.state.is_complete
    with pytest.raises(ValueError, match="not complete"):
        hand_end(live, now=START + timedelta(minutes=1))
