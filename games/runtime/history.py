"""A player's cash-game hand histories: the list of their hands and one hand replayed step by step (GEN-07, ENG-28).

The replay is a fold over the hand's stored engine events *as this player may see them* (the domain's
:func:`games.runtime.views.event_view`, the same view the table socket sends): other players' hole cards appear only in
``hand_shown`` events (a showdown), the deck order never. Each step carries the running stacks, the bets of the
current betting round, the pots, the board, the cards shown so far and what happened; the last step adds the rake and
each player's result (the settled stacks).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db.models import QuerySet


def hands_of(user: Any) -> QuerySet[Any]:
    """The user's hand seats (``HandPlayer`` rows) of finished or cancelled hands, newest first."""
    from games.models import HandPlayer, HandStatus

    return (
        HandPlayer.objects.filter(user=user)
        .exclude(hand__status=HandStatus.RUNNING)
        .select_related(
            "hand__table__stake__game_type", "hand__stake_terms", "hand__table__tournament_link__tournament"
        )
        .order_by("-hand_id")
    )


def hand_summary(seat_row: Any) -> dict[str, Any]:
    """One row of the hand list for the player of ``seat_row`` (a ``HandPlayer``)."""
    hand = seat_row.hand
    return {
        "id": hand.pk,
        "table_id": hand.table_id,
        "table_name": hand.table.name,
        **_product_of(hand),
        "number": hand.number,
        "status": hand.status,
        "started_at": hand.started_at,
        "ended_at": hand.ended_at,
        "seat": seat_row.seat_number,
        "start_stack": seat_row.start_stack,
        "end_stack": seat_row.end_stack,
        "net": seat_row.net,
        "pot_total": hand.pot_total,
        "rake": hand.rake,
        "verifiable": bool(hand.deck_commitment),  # provably fair (issue 29): the history's "Verify" link
    }


def hand_replay(hand: Any, viewer: Any) -> dict[str, Any]:
    """The hand as ``viewer`` (a player dealt into it) may replay it: a header and a list of steps."""
    from games.runtime.views import event_view

    return replay_of(hand, lambda row: event_view(row, viewer.pk), viewer_id=viewer.pk)


def replay_of(hand: Any, view: Callable[[Any], dict[str, Any]], *, viewer_id: int | None) -> dict[str, Any]:
    """The replay of ``hand`` with each stored event seen through ``view`` (a ``HandEvent`` row to the dictionary the
    viewer may see: a player's view for the player's replayer, everything for the compliance desk's review,
    ``compliance.replay``); ``viewer_id`` names the player whose seat and cards the header shows (``None``: none)."""
    from games.models import EventAudience, HandEvent, HandPlayer

    players = {row.seat_number: row for row in HandPlayer.objects.filter(hand=hand).select_related("user")}
    viewer_seat = next((seat for seat, row in players.items() if row.user_id == viewer_id), None)
    config = hand.config
    state = _ReplayState({int(seat): int(stack) for seat, stack in config["players"]})
    steps: list[dict[str, Any]] = [state.step("hand_started", {"button": config["button"]})]
    my_cards: list[str] = []
    rows = HandEvent.objects.filter(hand=hand).order_by("sequence")
    for row in rows:
        if row.kind in ("hand_settled", "hand_cancelled"):
            # The service's own record of how the hand ended: the rake taken (stacks after it, as the ledger holds
            # them) or the cancellation (stacks back at the start, nothing in the middle).
            ending = state.end(row.kind, row.payload)
            if ending is not None:
                steps.append(state.step(row.kind, ending))
            continue
        if row.payload.get("hand_sequence") is None or row.audience == EventAudience.AUDIT:
            continue  # table events (seats, sitting out) and the audited deck are not part of the replay
        seen = view(row)
        kind = seen["type"]
        if kind == "hand_started":
            continue
        if kind == "hole_cards_dealt" and "cards" in seen and seen.get("seat") == viewer_seat:
            my_cards = list(seen["cards"])
        details = state.apply(kind, seen)
        if details is not None:
            steps.append(state.step(kind, details))
    result = {
        "rake": hand.rake,
        "pot_total": hand.pot_total,
        "players": [
            {
                "seat": seat,
                "player": row.user.table_name,
                "start_stack": row.start_stack,
                "end_stack": row.end_stack,
                "net": row.net,
            }
            for seat, row in sorted(players.items())
        ],
    }
    steps.append({**state.step("result", {}), "result": result})
    return {
        "hand": {
            "id": hand.pk,
            "table_id": hand.table_id,
            "table_name": hand.table.name,
            **_product_of(hand),
            "number": hand.number,
            "status": hand.status,
            "started_at": hand.started_at,
            "ended_at": hand.ended_at,
            "small_blind": config["small_blind"],
            "big_blind": config["big_blind"],
            "button": config["button"],
            "seats": {
                seat: {"player": row.user.table_name, "start_stack": row.start_stack}
                for seat, row in sorted(players.items())
            },
            "my_seat": viewer_seat,
            "my_cards": my_cards,
            "cancellation_reason": hand.cancellation_reason,
            "fairness": _fairness_of(hand, viewer_seat, my_cards, state),
        },
        "steps": steps,
    }


def _fairness_of(hand: Any, viewer_seat: int | None, my_cards: list[str], state: _ReplayState) -> dict[str, Any] | None:
    """What the replayer's "Verify this hand" needs (issue 29): the revealed seeds and the cards this viewer saw (their
    own, those shown, the board); None for a hand without a commitment."""
    from games.runtime.fairness import hand_seeds_revealed, hand_verification

    if not hand_seeds_revealed(hand):
        return None
    known = {seat: list(shown["cards"]) for seat, shown in state.shown.items()}
    if viewer_seat is not None and my_cards:
        known[viewer_seat] = list(my_cards)
    return hand_verification(hand, known, state.board)


def hand_phh(hand: Any, viewer: Any) -> str:
    """The hand as a PHH document for ``viewer`` (a player dealt into it): their own hole cards and those shown, the
    others' written ``????`` (PHH's unknown cards), player names, and the provably fair seeds as user-defined fields
    (``_deck_commitment``, ``_server_seed``, ``_client_seeds``, ..., docs/fairness.md) so ``docs/verify_hand.py``
    can check it with the standard library alone. A raked hand's ``finishing_stacks`` are after the rake, written in
    ``_rake``."""
    from games.engine.events import HandShown
    from games.engine.phh import dumps_phh, hand_to_phh
    from games.models import HandPlayer
    from games.runtime.engine_state import hand_engine_state
    from games.runtime.fairness import phh_fairness_fields

    state = hand_engine_state(hand)
    players = {row.seat_number: row for row in HandPlayer.objects.filter(hand=hand).select_related("user")}
    viewer_seat = next((seat for seat, row in players.items() if row.user_id == viewer.pk), None)
    visible = {viewer_seat} | {event.seat for event in state.events if isinstance(event, HandShown)}
    metadata = {"hand": hand.number, "table": hand.table.name, **phh_fairness_fields(hand)}
    settled = {seat: row.end_stack for seat, row in players.items() if row.end_stack is not None}
    fields = hand_to_phh(
        state,
        players=[players[seat].user.table_name for seat in state.seats],
        metadata=metadata,
        # The rake is taken after the engine's result: the finishing stacks are the settled ones (as the ledger, the
        # replayer and the hand list have them), and the rake is written out (``_rake``).
        settled_stacks=settled if hand.rake else None,
        rake=hand.rake or 0,
    )
    hidden = {f"p{index}" for index, seat in enumerate(state.seats, start=1) if seat not in visible}
    unknown = "??" * state.config.variant.hole_card_count
    fields["actions"] = [
        f"d dh {line.split()[2]} {unknown}" if line.startswith("d dh ") and line.split()[2] in hidden else line
        for line in fields["actions"]
    ]
    return dumps_phh(fields)


def _product_of(hand: Any) -> dict[str, Any]:
    """What a hand was played for: a cash hand's game and stake, amounts in euro cents; a tournament hand's game, its
    tournament and level in place of the stake, amounts in chips (TRN-16)."""
    table = hand.table
    if table.stake is not None:
        return {"game": table.stake.game_type.code, "stake": table.stake.label, "currency": "EUR"}
    link = getattr(table, "tournament_link", None)
    name = link.tournament.name if link is not None else table.name
    level = f" · {hand.level_number}" if hand.level_number else ""
    game = "omaha" if hand.config.get("variant") == "PO" else "holdem"
    return {"game": game, "stake": f"{name}{level}", "currency": "CHIPS"}


class _ReplayState:
    """Running stacks, bets, pots, board and shown cards while the events are folded in."""

    def __init__(self, stacks: dict[int, int]) -> None:
        self.stacks = dict(stacks)
        self.bets = dict.fromkeys(stacks, 0)
        self.pots: list[dict[str, Any]] = []
        self.board: list[str] = []
        self.shown: dict[int, dict[str, Any]] = {}
        self.folded: set[int] = set()
        self.awarded = 0

    def apply(self, kind: str, event: dict[str, Any]) -> dict[str, Any] | None:
        """Fold one event in; return what the step shows, or None for an event that is not a step of its own."""
        if kind == "forced_bet_posted":
            self.stacks[event["seat"]] -= event["amount"]
            self.bets[event["seat"]] += event["amount"]
            return {key: event[key] for key in ("seat", "blind", "amount", "all_in")}
        if kind == "hole_cards_dealt":
            return None  # the viewer's own cards are in the header; nobody else's are known
        if kind == "action_taken":
            seat = event["seat"]
            self.stacks[seat] -= event["amount"]
            self.bets[seat] = event["total_bet"]
            if event["resolved"] == "fold":
                self.folded.add(seat)
            return {
                "seat": seat,
                "action": event["resolved"],
                "amount": event["amount"],
                "total_bet": event["total_bet"],
                "all_in": event["all_in"],
                "timed_out": event["action"].get("type") == "timeout",
            }
        if kind == "uncalled_bet_returned":
            self.stacks[event["seat"]] += event["amount"]
            self.bets[event["seat"]] = max(0, self.bets[event["seat"]] - event["amount"])
            return {"seat": event["seat"], "amount": event["amount"]}
        if kind == "pots_formed":
            self.pots = [{"amount": pot["amount"], "eligible": pot["eligible"]} for pot in event["pots"]]
            self.bets = dict.fromkeys(self.bets, 0)
            return None
        if kind == "street_dealt":
            self.board = list(event["board"])
            return {"street": event["street"], "cards": list(event["cards"])}
        if kind == "hand_shown":
            self.shown[event["seat"]] = {"cards": list(event["cards"]), "hand_name": event.get("hand_name")}
            return {"seat": event["seat"], "cards": list(event["cards"]), "hand_name": event.get("hand_name")}
        if kind == "hand_evaluated":
            if event["seat"] in self.shown:
                self.shown[event["seat"]]["hand_name"] = event["hand_name"]
            return None
        if kind == "pot_awarded":
            pot = event["pot"]
            for seat, share in pot["shares"]:
                self.stacks[seat] += share
            self.awarded += pot["amount"]
            return {
                "pot_index": event["pot_index"],
                "amount": pot["amount"],
                "shares": pot["shares"],
                "hand_name": event.get("hand_name"),
            }
        if kind == "hand_ended":
            self.stacks.update({seat: stack for seat, stack in event["stacks"]})
            self.bets = dict.fromkeys(self.bets, 0)
            return {"street_reached": event["street_reached"], "showdown": event["showdown"]}
        return None

    def end(self, kind: str, payload: dict[str, Any]) -> dict[str, Any] | None:
        """Fold in the service's ``hand_settled`` (a step only when rake was taken) or ``hand_cancelled`` event."""
        stacks = {int(seat): int(stack) for seat, stack in payload.get("stacks", {}).items()}
        if kind == "hand_cancelled":
            self.stacks.update(stacks)
            self.bets = dict.fromkeys(self.bets, 0)
            self.pots = []
            self.awarded = 0
            return {"reason": payload.get("reason", "")}
        if not payload.get("rake"):
            return None
        self.stacks.update(stacks)
        return {
            "rake": payload["rake"],
            "rake_per_pot": list(payload.get("rake_per_pot", [])),
            "pot_total": payload.get("pot_total"),
        }

    def step(self, kind: str, details: dict[str, Any]) -> dict[str, Any]:
        return {
            "kind": kind,
            **details,
            "stacks": dict(sorted(self.stacks.items())),
            "bets": {seat: bet for seat, bet in sorted(self.bets.items()) if bet},
            "pot": max(0, sum(pot["amount"] for pot in self.pots) + sum(self.bets.values()) - self.awarded),
            "pots": [dict(pot) for pot in self.pots],
            "board": list(self.board),
            "shown": {seat: dict(value) for seat, value in sorted(self.shown.items())},
            "folded": sorted(self.folded),
        }
