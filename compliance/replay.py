"""The reviewers' replay of a hand (FRD-04, FRD-19): every hole card, the deck, each decision's time and the equities
on each street, on top of the players' own replay (:func:`games.runtime.history.replay_of`).

Only hands that have ended: nobody sees the cards of a hand in play (architecture rule 4), reviewers included
(:class:`~compliance.errors.NotAllowed`).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from compliance.detection.analysis import AnalysedHand, street_equities
from compliance.detection.records import RecordError
from compliance.errors import NotAllowed
from compliance.hand_records import decision_times, hand_record

EQUITY_SAMPLES = 2_000
"""Monte-Carlo run-outs per street when the run-outs are too many to enumerate (standard error at most 1.1 points)."""


def full_view(row: Any) -> dict[str, Any]:
    """A stored event as the review sees it: everything, hole cards and all."""
    return {
        **row.payload,
        "sequence": row.sequence,
        "type": row.kind,
        "hand_id": row.hand_id,
        "audience": row.audience,
        "at": row.created_at.isoformat(),
    }


def review_replay(hand: Any) -> dict[str, Any]:
    """The player's replay of ``hand`` with, for the review: ``hand.hole_cards`` (seat → cards), ``hand.deck`` (the
    deck in dealing order, each card with what it became), ``hand.players`` (seat → username, user id, cards, start
    stack and result), each
    action step's ``decision_ms`` (``None`` for a timeout or when unknown) and ``equities`` (street → seats with their
    equity), shown on the step that deals the street (preflop on the first step), and ``hand.chat``: the table chat
    posted during the hand (sequence, ``at`` in ISO 8601, user id, name, seat, text)."""
    from games.models import HandEvent, HandPlayer, HandStatus
    from games.runtime.history import replay_of

    if hand.status == HandStatus.RUNNING:
        raise NotAllowed(f"Hand #{hand.pk} is still in play: its cards are shown once it has ended.")
    replay = replay_of(hand, full_view, viewer_id=None)
    rows = list(HandEvent.objects.filter(hand=hand).order_by("sequence"))
    hole_cards = {
        int(row.payload["seat"]): list(row.payload["cards"]) for row in rows if row.kind == "hole_cards_dealt"
    }
    players = {
        row.seat_number: {
            "username": row.user.username,
            "user_id": row.user_id,
            "cards": hole_cards.get(row.seat_number, []),
            "start_stack": row.start_stack,
            "net": row.net,
        }
        for row in HandPlayer.objects.filter(hand=hand).select_related("user")
    }
    header = replay["hand"]
    header["hole_cards"] = {str(seat): cards for seat, cards in sorted(hole_cards.items())}
    header["players"] = {str(seat): value for seat, value in sorted(players.items())}
    header["deck"] = _deck(list(hand.deck or []), hole_cards, _board(rows))
    _add_decision_times(replay["steps"], rows, hand)
    header["equities"] = _add_equities(replay["steps"], hand)
    header["chat"] = _chat(hand)
    return replay


def _chat(hand: Any) -> list[dict[str, Any]]:
    """The table chat posted while the hand was in play (issue 22), each line with its UTC time as ISO 8601."""
    from games.chat.services import chat_of_hand

    return [{**line, "at": line["at"].isoformat()} for line in chat_of_hand(hand)]


def _board(rows: list[Any]) -> list[str]:
    board: list[str] = []
    for row in rows:
        if row.kind == "street_dealt":
            board = list(row.payload.get("board", board))
    return board


def _deck(deck: list[str], hole_cards: dict[int, list[str]], board: list[str]) -> list[dict[str, Any]]:
    use: dict[str, str] = {}
    for seat, cards in hole_cards.items():
        for card in cards:
            use[card] = f"seat {seat}"
    for index, card in enumerate(board):
        use[card] = "flop" if index < 3 else "turn" if index == 3 else "river"
    return [{"position": number, "card": card, "use": use.get(card, "")} for number, card in enumerate(deck, 1)]


def _add_decision_times(steps: list[dict[str, Any]], rows: list[Any], hand: Any) -> None:
    ended = hand.ended_at or (rows[-1].created_at if rows else hand.started_at)
    from games.runtime.policy import policy_for

    decision = policy_for(hand.table).hand_rules(hand, hand.table).decision_seconds
    times = decision_times(rows, timedelta(seconds=decision), ended)
    actions = [step for step in steps if step["kind"] == "action_taken"]
    for step, milliseconds in zip(actions, times, strict=False):
        step["decision_ms"] = milliseconds


def _add_equities(steps: list[dict[str, Any]], hand: Any) -> dict[str, Any]:
    """Attach each street's equities to the step that deals it; returns them by street (empty for a cancelled hand,
    whose run-out never happened)."""
    try:
        analysed = AnalysedHand(hand_record(hand))
    except RecordError:
        return {}
    by_street: dict[str, Any] = {}
    for found in street_equities(analysed, samples=EQUITY_SAMPLES):
        by_street[found.street] = [
            {
                "seat": seat,
                "equity": round(player.equity, 4),
                "win": round(player.win, 4),
                "tie": round(player.tie, 4),
                "standard_error": round(player.standard_error, 4),
                "exact": found.result.exact,
            }
            for seat, player in zip(found.seats, found.result.players, strict=True)
        ]
    for step in steps:
        if step["kind"] == "hand_started" and "preflop" in by_street:
            step["equities"] = by_street["preflop"]
        elif step["kind"] == "street_dealt" and step.get("street") in by_street:
            step["equities"] = by_street[step["street"]]
    return by_street
