"""The cash-game catalogue as data: seeding and the rows in force (CASH-01..03, TB-02, RAKE-02)."""

from __future__ import annotations

from django.db import transaction

from games.cash.catalog_seed import seed_catalog
from games.models import GameRules, GameType, Stake, StakeTerms


@transaction.atomic
def seed_stakes() -> int:
    """Create the five game types, their rules rows and every RAKE-02 stake if missing; return how many rows were
    added. Idempotent: rows staff have configured are left alone."""
    return seed_catalog(GameType, GameRules, Stake, StakeTerms)
