"""Provably fair HexaPro draws (issue 29, HEX-05, HEX-06, HEX-22): the queue's draw commitment is shown to the players
waiting before their game forms, the game's multiplier is the one the committed seed's ticket falls on, the seed is
revealed with the game (and never shown before), an altered seed fails the check, and the public ticket mapping in
docs/fairness.md is the catalog's."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from games.engine.fairness import commitment, derived_integer
from tests.tournaments.support import START, player
from tournaments.hexapro.models import HexaProDrawCommitment, HexaProGame
from tournaments.hexapro.readside import player_hexapro
from tournaments.hexapro.registration import hexapro_register
from tournaments.rules.hexapro import HEXAPRO, HEXAPRO_EXTREME, multiplier_for_ticket

pytestmark = pytest.mark.django_db

DOCS = Path(__file__).resolve().parents[2] / "docs" / "fairness.md"


def register(user: Any) -> Any:
    """The production draw: no injected draw source."""
    return hexapro_register(user, "hexapro", 1_000, 1, now=START, randomness=random.Random(user.pk))


def test_the_commitment_is_shown_while_waiting_and_the_game_draws_from_it() -> None:
    first, second, third = player(), player(), player()
    register(first)
    shown = player_hexapro(first)["waiting"][0]["next_draw_commitment"]
    committed = HexaProDrawCommitment.objects.get(game__isnull=True, product_code="hexapro", buy_in_cents=1_000)
    assert shown == committed.commitment
    client = Client()
    client.force_login(first)
    for page in ("/api/tournaments/hexapro/mine/", "/tournaments/hexapro/"):
        body = client.get(page).content.decode()
        assert shown in body
        assert committed.server_seed not in body  # the seed is secret until the draw
    register(second)
    (game,) = register(third).games

    committed.refresh_from_db()
    assert committed.game_id == game.pk
    seed = bytes.fromhex(committed.server_seed)
    assert commitment(committed.domain, seed) == shown
    ticket = derived_integer(HEXAPRO.total_weight, seed, {}, committed.domain)
    assert (game.draw_ticket, game.draw_total_weight) == (ticket, 100_000)
    assert game.multiplier_tenths == multiplier_for_ticket(HEXAPRO, ticket).multiplier_tenths
    # Revealed with the game; the queue has a fresh commitment for the next game.
    proof = player_hexapro(first)["games"][0]["draw_proof"]
    assert (proof["commitment"], proof["server_seed"], proof["ticket"]) == (shown, committed.server_seed, ticket)
    following = HexaProDrawCommitment.objects.get(game__isnull=True, product_code="hexapro", buy_in_cents=1_000)
    assert following.commitment != shown


def test_an_altered_seed_does_not_match_the_published_commitment() -> None:
    users = [player() for _ in range(3)]
    for user in users:
        register(user)
    committed = HexaProDrawCommitment.objects.get(game__isnull=False)
    seed = bytearray(bytes.fromhex(committed.server_seed))
    seed[5] ^= 0x40
    assert commitment(committed.domain, bytes(seed)) != committed.commitment


def test_every_game_formed_at_once_has_its_own_commitment() -> None:
    users = [player() for _ in range(3)]
    for user in users:
        hexapro_register(user, "hexapro", 1_000, 2, now=START, randomness=random.Random(user.pk))
    games = list(HexaProGame.objects.all())
    assert len(games) == 2
    used = list(HexaProDrawCommitment.objects.filter(game__in=games))
    assert len({row.commitment for row in used}) == 2
    assert HexaProDrawCommitment.objects.filter(game__isnull=True).count() == 1


@pytest.mark.parametrize("product", [HEXAPRO, HEXAPRO_EXTREME], ids=["hexapro", "extreme"])
def test_the_public_ticket_mapping_in_the_docs_is_the_catalogs(product: Any) -> None:
    text = DOCS.read_text(encoding="utf-8")
    section = text.split(f"| {product.name} | tickets | weight |")[1].split("\n\n")[0]
    rows = re.findall(r"\| ([\d.]+x) \| ([\d,]+) – ([\d,]+) \| ([\d,]+) \|", section)
    assert len(rows) == len(product.multipliers)
    for (label, low, high, weight), row in zip(rows, product.multipliers, strict=True):
        low_ticket, high_ticket = int(low.replace(",", "")), int(high.replace(",", ""))
        assert (label, int(weight.replace(",", ""))) == (row.label, row.weight)
        assert multiplier_for_ticket(product, low_ticket) == row
        assert multiplier_for_ticket(product, high_ticket) == row
