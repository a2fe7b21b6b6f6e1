"""What players and the page see: the table, the public round, decision statistics and a player's own view.

Privacy: the dealer's cards and the deck never leave the server before the round is settled (the public round shows
the dealer's cards only once SETTLED); a player's bets, balance, options and results go only to that player. The
player cards and the community cards are common to everyone at the table (UTH-03, AMB-38).
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet, Sum
from django.utils import timezone

from games.engine.cards import Card, parse_cards
from games.engine.evaluation import holdem_strength, strength_name
from games.engine.fairness import ALGORITHM, uth_round_domain
from games.engine.uth.betting import BetAmounts, BetRejected, BetSlip
from games.engine.uth.paytables import BLIND_PAYTABLE, TRIPS_PAYTABLE, HandClass, hand_class
from games.engine.uth.round import DECISION_OPTIONS, Phase
from games.engine.uth.rtp import (
    PUBLISHED_INITIAL_MAIN_BET_RTP,
    PUBLISHED_TOTAL_MAIN_BET_RTP,
    PUBLISHED_TRIPS_RTP,
)
from games.engine.uth.settlement import ResultRow
from games.uth.conversions import engine_hand, slip_of
from games.uth.models import FINISHED_PHASES, HandStatus, UthEvent, UthHand, UthRound, UthSeat, UthTable
from poker_site.accounts.models import User
from wallet.services import player_cash_account

HISTORY_LENGTH = 10


def _cards(cards: tuple[Card, ...] | list[Card]) -> list[str]:
    return [str(card) for card in cards]


def _time(moment: Any) -> str | None:
    return moment.isoformat() if moment is not None else None


def table_public(table: UthTable) -> dict[str, Any]:
    """The table's settings as the page shows them: limits (UTH-22), chips (UTH-25), timings, paytables, RTP."""
    return {
        "id": table.pk,
        "name": table.name,
        "is_open": table.is_open,
        "limits": {
            "ante_minimum": int(table.ante_minimum),
            "ante_maximum": int(table.ante_maximum),
            "trips_minimum": int(table.trips_minimum),
            "trips_maximum": int(table.trips_maximum),
        },
        "chip_values": list(table.chip_values),
        "betting_seconds": table.betting_seconds,
        "decision_seconds": table.decision_seconds,
        "rules_version": table.rules_version,
        "paytables": {
            "blind": [{"hand": hand.display_name, "pays": str(odds)} for hand, odds in BLIND_PAYTABLE.items()],
            "trips": [{"hand": hand.display_name, "pays": str(odds)} for hand, odds in TRIPS_PAYTABLE.items()],
        },
        "rtp": {
            "total_main_bet": f"{float(PUBLISHED_TOTAL_MAIN_BET_RTP) * 100:.2f}%",
            "initial_main_bet": f"{float(PUBLISHED_INITIAL_MAIN_BET_RTP) * 100:.2f}%",
            "trips": f"{float(PUBLISHED_TRIPS_RTP) * 100:.2f}%",
        },
    }


def round_public(round_: UthRound) -> dict[str, Any]:
    """The round as everyone at the table sees it; the dealer's cards only once it is settled."""
    phase = round_.engine_phase
    deck = round_.deck_cards
    dealt = bool(deck)
    view: dict[str, Any] = {
        "id": round_.pk,
        "game_number": round_.game_number,
        "display_number": round_.display_number,
        "phase": phase.value,
        "started_at": _time(round_.started_at),
        "phase_started_at": _time(round_.phase_started_at),
        "phase_deadline": _time(round_.phase_deadline),
        "paused": round_.paused_at is not None,
        "pause_reason": round_.pause_reason,
        "limits": {
            "ante_minimum": int(round_.ante_minimum),
            "ante_maximum": int(round_.ante_maximum),
            "trips_minimum": int(round_.trips_minimum),
            "trips_maximum": int(round_.trips_maximum),
        },
        "player_cards": _cards(deck[0:2]) if dealt and phase is not Phase.CANCELLED else [],
        "community": [],
        "dealer_cards": [],
        "result": None,
        "cancel_reason": round_.cancel_reason,
        "fairness": round_fairness(round_, with_seed=False),
    }
    if dealt and phase is not Phase.CANCELLED:
        visible = {Phase.PREFLOP: 0, Phase.FLOP: 3, Phase.RIVER: 5, Phase.SETTLED: 5}.get(phase, 0)
        view["community"] = _cards(deck[4 : 4 + visible])
        if visible:
            view["player_hand_name"] = strength_name(holdem_strength(deck[0:2] + deck[4 : 4 + visible]))
    if phase is Phase.SETTLED:
        view["dealer_cards"] = _cards(deck[2:4])
        view["result"] = round_.result
    return view


PLAYER_CARD_POSITIONS = (0, 2)
DEALER_CARD_POSITIONS = (2, 4)
BOARD_POSITIONS = (4, 9)
"""Where a UTH round's cards sit in its committed deck (docs/fairness.md, "Dealing from the deck (UTH)"): the two
player cards (common to the table, AMB-38) are deck[0:2], the dealer's deck[2:4], the board (flop, turn, river)
deck[4:9]."""


def round_fairness(round_: UthRound, *, with_seed: bool) -> dict[str, Any] | None:
    """The round's provably fair deck as a player may see it (issue 29, docs/fairness.md): algorithm, domain and the
    commitment published when the round opened; the server seed only with ``with_seed`` and once the round is over
    (settled or cancelled), never while it is in play. None for a round opened before rounds had seeds."""
    if not round_.deck_commitment:
        return None
    view: dict[str, Any] = {
        "algorithm": ALGORITHM,
        "domain": uth_round_domain(round_.table_id, round_.number),
        "commitment": round_.deck_commitment,
        "client_seeds": {},
    }
    if with_seed and round_.phase in FINISHED_PHASES and round_.server_seed:
        view["server_seed"] = round_.server_seed
    return view


def round_verification(round_: UthRound) -> dict[str, Any] | None:
    """The downloadable proof of a round that is over (``docs/verify_hand.py ROUND.json``): its game number, the
    fairness fields with the server seed, and the cards dealt where everyone saw them (the player cards; the dealer's
    and the board once settled). None while the round is in play or when it has no seed."""
    fairness = round_fairness(round_, with_seed=True)
    if fairness is None or "server_seed" not in fairness:
        return None
    deck = round_.deck_cards
    settled = round_.phase == Phase.SETTLED.value
    return {
        "format": "uth-round/v1",
        "game_number": round_.game_number,
        "table_id": round_.table_id,
        "round_number": round_.number,
        "phase": round_.phase,
        **fairness,
        "player_cards": _cards(deck[slice(*PLAYER_CARD_POSITIONS)]) if deck else [],
        "dealer_cards": _cards(deck[slice(*DEALER_CARD_POSITIONS)]) if deck and settled else [],
        "board": _cards(deck[slice(*BOARD_POSITIONS)]) if deck and settled else [],
        "positions": {
            "player_cards": list(PLAYER_CARD_POSITIONS),
            "dealer_cards": list(DEALER_CARD_POSITIONS),
            "board": list(BOARD_POSITIONS),
        },
    }


def decision_stats(round_: UthRound) -> dict[str, Any]:
    """UTH-32: how the players at the table decided in the current decision phase, in percent of those asked."""
    phase = round_.engine_phase
    if not phase.is_decision:
        return stats_of(phase, [])
    hands = UthHand.objects.filter(round=round_, status=HandStatus.IN_PLAY).values_list(
        "decisions", "awaiting_decision"
    )
    return stats_of(phase, list(hands))


def stats_of(phase: Phase, hands: list[tuple[list[dict[str, Any]], bool]]) -> dict[str, Any]:
    """Decision statistics of ``phase`` from the hands in play as (decisions, awaiting a decision) pairs."""
    if not phase.is_decision:
        return {"phase": phase.value, "asked": 0, "counts": {}, "percent": {}}
    counts = {decision.value: 0 for decision in DECISION_OPTIONS[phase]}
    asked = 0
    for decisions, awaiting in hands:
        in_phase = [item for item in decisions if item["phase"] == phase.value]
        if awaiting or in_phase:
            asked += 1
        for item in in_phase:
            counts[item["decision"]] = counts.get(item["decision"], 0) + 1
    percentages = {name: round(100 * count / asked) if asked else 0 for name, count in counts.items()}
    return {"phase": phase.value, "asked": asked, "counts": counts, "percent": percentages}


def observed_rtp(table_id: int) -> dict[str, dict[str, int | float | None]]:
    """UTH-21, LOB-09: the return actually paid per bet type at a table, over its settled hands (cancelled rounds are
    refunded and left out). ``rtp`` is returned ÷ staked, None when nothing was staked on that bet."""
    totals = UthHand.objects.filter(round__table_id=table_id, status=HandStatus.SETTLED).aggregate(
        ante_staked=Sum("ante"),
        trips_staked=Sum("trips"),
        play_staked=Sum("play"),
        ante_returned=Sum("ante_return"),
        blind_returned=Sum("blind_return"),
        play_returned=Sum("play_return"),
        trips_returned=Sum("trips_return"),
    )
    staked = {
        "ante": int(totals["ante_staked"] or 0),
        "blind": int(totals["ante_staked"] or 0),
        "play": int(totals["play_staked"] or 0),
        "trips": int(totals["trips_staked"] or 0),
    }
    report: dict[str, dict[str, int | float | None]] = {}
    for bet, stake in staked.items():
        returned = int(totals[f"{bet}_returned"] or 0)
        report[bet] = {"staked": stake, "returned": returned, "rtp": returned / stake if stake else None}
    main_staked = staked["ante"] + staked["blind"] + staked["play"]
    main_returned = sum(int(report[bet]["returned"] or 0) for bet in ("ante", "blind", "play"))
    report["main"] = {
        "staked": main_staked,
        "returned": main_returned,
        "rtp": main_returned / main_staked if main_staked else None,
    }
    return report


def event_json(event: UthEvent) -> dict[str, Any]:
    return {"sequence": event.sequence, "kind": event.kind, **event.payload}


def events_between(table_id: int, first: int, last: int) -> list[dict[str, Any]]:
    return [
        event_json(event)
        for event in UthEvent.objects.filter(table_id=table_id, sequence__gte=first, sequence__lte=last).order_by(
            "sequence"
        )
    ]


def events_since(table_id: int, since: int, limit: int) -> list[dict[str, Any]]:
    return [
        event_json(event)
        for event in UthEvent.objects.filter(table_id=table_id, sequence__gt=since).order_by("sequence")[:limit]
    ]


def _hand_result(hand: UthHand) -> dict[str, Any] | None:
    if hand.status == HandStatus.REFUNDED:
        return {"refunded": int(hand.refunded), "description": "Round cancelled: every bet was refunded."}
    if hand.status != HandStatus.SETTLED:
        return None
    bets: list[dict[str, Any]] = []
    stakes = {"ante": int(hand.ante), "blind": int(hand.ante), "play": int(hand.play), "trips": int(hand.trips)}
    returns = {
        "ante": hand.ante_return,
        "blind": hand.blind_return,
        "play": hand.play_return,
        "trips": hand.trips_return,
    }
    for spot, stake in stakes.items():
        if not stake:
            continue
        returned = int(returns[spot] or 0)
        outcome = "win" if returned > stake else "push" if returned == stake else "lose"
        bets.append({"spot": spot, "stake": stake, "returned": returned, "net": returned - stake, "outcome": outcome})
    net = sum(int(bet["net"]) for bet in bets)
    return {
        "row": hand.result_row,
        "description": ResultRow(hand.result_row).description if hand.result_row else "",
        "bets": bets,
        "net": net,
        "returned": sum(int(bet["returned"]) for bet in bets),
    }


def hand_view(hand: UthHand, round_: UthRound, balance: int) -> dict[str, Any]:
    """One player's hand: bets (UTH-31 total), decisions, the options offered now (AMB-39) and the result."""
    engine = engine_hand(hand)
    phase = round_.engine_phase
    options: list[str] = []
    if hand.status == HandStatus.IN_PLAY and phase.is_decision and round_.paused_at is None:
        options = [decision.value for decision in engine.options(phase, balance)]
    return {
        "round_id": round_.pk,
        "game_number": round_.game_number,
        "status": hand.status,
        "ante": int(hand.ante),
        "blind": int(hand.ante),
        "trips": int(hand.trips),
        "play": int(hand.play),
        "total_bet": hand.stake,
        "folded": hand.folded,
        "decisions": [item["label"] for item in hand.decisions],
        "options": options,
        "steps": len(hand.steps),
        "result": _hand_result(hand),
    }


def _controls(hand: UthHand | None, round_: UthRound | None, seat: UthSeat, balance: int) -> dict[str, bool]:
    """Which betting buttons are usable now (REPEAT before the first chip, DOUBLE after one, UNDO while any)."""
    betting = (
        round_ is not None
        and round_.engine_phase is Phase.BETTING
        and round_.paused_at is None
        and round_.phase_deadline is not None
        and timezone.now() < round_.phase_deadline
    )
    if not betting or round_ is None:
        return {"bet": False, "repeat": False, "double": False, "undo": False}
    slip = slip_of(hand) if hand is not None and hand.status == HandStatus.BETTING else None
    limits = round_.limits
    previous = BetAmounts(int(seat.previous_ante), int(seat.previous_trips)) if seat.previous_ante else None
    empty = slip is None or slip.is_empty
    can_repeat = empty and previous is not None and previous.stake <= balance
    if can_repeat:
        try:
            (slip or BetSlip()).verify_repeat(previous, limits)
        except BetRejected:
            can_repeat = False
    can_double = False
    if slip is not None and not slip.is_empty:
        try:
            can_double = slip.verify_double(limits).stake <= balance
        except BetRejected:
            can_double = False
    return {"bet": True, "repeat": can_repeat, "double": can_double, "undo": not empty}


def history_hands(user: User, table_id: int | None = None) -> QuerySet[UthHand]:
    """The player's hands of finished rounds, newest first (UTH-35 Game History), with their rounds and tables."""
    hands = UthHand.objects.filter(player=user, round__phase__in=FINISHED_PHASES).exclude(
        status__in=(HandStatus.EMPTY, HandStatus.VOIDED)
    )
    if table_id is not None:
        hands = hands.filter(round__table_id=table_id)
    return hands.select_related("round", "round__table").order_by("-round_id")


def history_row(hand: UthHand) -> dict[str, Any]:
    """One finished round of the player's history: cards, decisions, bets, the result and the round's proof."""
    round_ = hand.round
    return {
        "game_number": round_.game_number,
        "display_number": round_.display_number,
        "started_at": _time(round_.started_at),
        "phase": round_.phase,
        "player_cards": _cards(round_.deck_cards[0:2]) if round_.deck else [],
        "dealer_cards": _cards(round_.deck_cards[2:4]) if round_.phase == Phase.SETTLED.value else [],
        "community": _cards(round_.deck_cards[4:9]) if round_.phase == Phase.SETTLED.value else [],
        "total_bet": hand.stake,
        "decisions": [item["label"] for item in hand.decisions],
        "result": _hand_result(hand),
        "fairness": round_verification(round_),
    }


def history(user: User, table_id: int | None = None, limit: int = HISTORY_LENGTH) -> list[dict[str, Any]]:
    """The player's last finished rounds with their results (UTH-35 Game History)."""
    return [history_row(hand) for hand in history_hands(user, table_id)[:limit]]


def player_view(table: UthTable, user: User | None) -> dict[str, Any] | None:
    """The logged-in player's own view of the table, or None for a visitor who is not logged in."""
    if user is None or not user.is_authenticated:
        return None
    seat = UthSeat.objects.filter(table=table, player=user).first()
    balance = int(player_cash_account(user).balance)
    round_ = UthRound.objects.filter(table=table).order_by("-number").first()
    hand = UthHand.objects.filter(round=round_, player=user).first() if round_ is not None else None
    seated = seat is not None and seat.left_at is None
    view: dict[str, Any] = {
        "user": user.table_name,
        "seated": seated,
        "balance": balance,
        "hand": hand_view(hand, round_, balance) if hand is not None and round_ is not None else None,
        "controls": _controls(hand, round_, seat, balance) if seated and seat is not None else None,
        "previous_bets": (
            {"ante": int(seat.previous_ante), "trips": int(seat.previous_trips)}
            if seat is not None and seat.previous_ante
            else None
        ),
        "history": history(user, table.pk),
    }
    return view


def snapshot(table: UthTable, user: User | None) -> dict[str, Any]:
    """Everything a table page needs at once; ``sequence`` is the last public event it includes."""
    table.refresh_from_db()
    round_ = UthRound.objects.filter(table=table).order_by("-number").first()
    return {
        "sequence": int(table.last_sequence),
        "server_time": timezone.now().isoformat(),
        "table": table_public(table),
        "round": round_public(round_) if round_ is not None else None,
        "stats": decision_stats(round_) if round_ is not None else None,
        "players": UthSeat.objects.filter(table=table, left_at__isnull=True).count(),
        "me": player_view(table, user),
        "next_round_at": _time(table.next_round_at),
        "chat": recent_chat(table),
    }


RECENT_CHAT_LINES = 30
"""Chat lines a snapshot carries (UTH-33), so that a page opened or reconnected shows the conversation so far."""
RECENT_CHAT_EVENTS = 500
"""How far back in the table's log the snapshot looks for them (a bounded read, however long the table has run)."""


def recent_chat(table: UthTable) -> list[dict[str, Any]]:
    """The last chat lines among the table's last :data:`RECENT_CHAT_EVENTS` events, oldest first, as events."""
    rows = UthEvent.objects.filter(
        table=table, kind="chat_message", sequence__gt=int(table.last_sequence) - RECENT_CHAT_EVENTS
    ).order_by("-sequence")[:RECENT_CHAT_LINES]
    return [event_json(row) for row in reversed(rows)]


def result_summary(deck_text: str) -> dict[str, Any]:
    """The round's result as stored on the round: both hands, their names, classes and whether the dealer qualified."""
    deck = parse_cards(deck_text)
    player = holdem_strength(deck[0:2] + deck[4:9])
    dealer = holdem_strength(deck[2:4] + deck[4:9])
    return {
        "player_hand": strength_name(player),
        "player_class": hand_class(player).display_name,
        "dealer_hand": strength_name(dealer),
        "dealer_class": hand_class(dealer).display_name,
        "dealer_qualifies": hand_class(dealer) >= HandClass.PAIR,
        "winner": "player" if player > dealer else "dealer" if dealer > player else "tie",
    }
