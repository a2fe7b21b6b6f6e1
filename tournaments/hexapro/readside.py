"""What players see of HexaPro: the products' buy-ins with their prize-pool ranges (HEX-02, HEX-03, HEX-20), the
multipliers with their chances and payouts (HEX-06, HEX-09, HEX-22, HEX-25), and a player's registrations and games
with places, prizes and their tables (HEX-10: the history). Plain dictionaries for the pages and the API; money in
cents."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from tournaments.hexapro.fairness import game_draw_proof, queue_commitments
from tournaments.hexapro.models import HexaProGame, HexaProRegistration, RegistrationStatus
from tournaments.hexapro.products import product_from_version, versions_in_force
from tournaments.models import TournamentEntry, TournamentTable
from tournaments.rules.hexapro import HexaProProduct, percent_text, prize_pool_range_cents, rake_equivalent

HISTORY_LENGTH = 200
"""How many of a player's latest games the history lists."""


def product_offer(product: HexaProProduct) -> dict[str, Any]:
    """One product as the lobby tab and the confirmation dialogue show it."""
    return {
        "code": product.code,
        "name": product.name,
        "seats": product.seats,
        "maximum_games": product.maximum_games_per_registration,
        "rake_equivalent": percent_text(rake_equivalent(product)),
        "buy_ins": [
            {
                "buy_in": level.buy_in_cents,
                "prize_pool_min": prize_pool_range_cents(product, level.buy_in_cents)[0],
                "prize_pool_max": prize_pool_range_cents(product, level.buy_in_cents)[1],
            }
            for level in product.buy_ins
        ],
        "multipliers": [
            {
                "multiplier": row.label,
                "weight": row.weight,
                "total_weight": product.total_weight,
                "payout_percentages": list(row.payout_percentages),
                "starting_stack": row.starting_stack,
                "level_minutes": row.level_seconds // 60,
            }
            for row in product.multipliers
        ],
    }


def product_offers(now: datetime | None = None) -> list[dict[str, Any]]:
    """Every product in force, HexaPro first."""
    return [product_offer(product_from_version(version)) for version in versions_in_force(now)]


def _game_row(game: HexaProGame, entry: TournamentEntry | None, table_id: int | None) -> dict[str, Any]:
    tournament = game.tournament
    return {
        "game_id": game.pk,
        "product": game.version.name,
        "product_code": game.product_code,
        "buy_in": game.buy_in_cents,
        "multiplier": game.multiplier_label,
        "prize_pool": game.prize_pool_cents,
        "status": tournament.status,
        "status_name": str(tournament.get_status_display()),
        "formed_at": game.drawn_at.isoformat(),
        "finished_at": tournament.finished_at.isoformat() if tournament.finished_at else None,
        "place": entry.place if entry else None,
        "prize": entry.prize if entry else 0,
        "prize_credited": bool(entry and entry.prize_transfer_id),
        "table_id": table_id,
        "draw_proof": game_draw_proof(game),  # provably fair draw (issue 29): commitment and revealed seed
    }


def player_hexapro(user: Any, *, limit: int = HISTORY_LENGTH) -> dict[str, Any]:
    """``user``'s registrations still waiting for opponents and their latest games (HEX-10), newest first, each with
    its place, prize, whether the prize was credited, and the table to open while it runs."""
    if user is None or not getattr(user, "is_authenticated", False):
        return {"waiting": [], "games": []}
    waiting_rows = list(
        HexaProRegistration.objects.filter(user=user, status=RegistrationStatus.WAITING).order_by("registered_at", "pk")
    )
    # The commitment of the draw the next game of each queue will use (issue 29), shown before that draw.
    commitments = queue_commitments({(row.product_code, int(row.buy_in_cents)) for row in waiting_rows})
    waiting = [
        {
            "registration_id": row.pk,
            "product_code": row.product_code,
            "buy_in": row.buy_in_cents,
            "registered_at": row.registered_at.isoformat(),
            "next_draw_commitment": commitments.get((row.product_code, int(row.buy_in_cents))),
        }
        for row in waiting_rows
    ]
    games = list(
        HexaProGame.objects.filter(registrations__user=user)
        .select_related("tournament", "version")
        .order_by("-drawn_at", "-pk")[:limit]
    )
    ids = [game.pk for game in games]
    entries = {entry.tournament_id: entry for entry in TournamentEntry.objects.filter(tournament_id__in=ids, user=user)}
    tables = dict(
        TournamentTable.objects.filter(tournament_id__in=ids, broken_at__isnull=True).values_list(
            "tournament_id", "table_id"
        )
    )
    return {
        "waiting": waiting,
        "games": [_game_row(game, entries.get(game.pk), tables.get(game.pk)) for game in games],
    }
