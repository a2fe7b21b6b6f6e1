"""The rule pages publish the v2.7 rules in English and Estonian (LOB-06, GEN-09)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from poker_site.core.rules import PAGES

pytestmark = pytest.mark.django_db


POKER_PAGES = [page.slug for page in PAGES if page.poker_rules]


@pytest.mark.parametrize("slug", POKER_PAGES)
def test_every_poker_rule_page_answers_in_english_with_the_rules_version(client: Client, slug: str) -> None:
    """GEN-02: the page says which rules version it summarises."""
    response = client.get(reverse("rules:page", args=[slug]), HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    body = response.content.decode()
    assert 'lang="en"' in body
    assert "Rules version 2.7" in body


@pytest.mark.parametrize("slug", [page.slug for page in PAGES])
def test_every_rule_page_has_its_own_estonian_text(client: Client, slug: str) -> None:
    english = client.get(reverse("rules:page", args=[slug]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    estonian = client.get(reverse("rules:page", args=[slug]), HTTP_ACCEPT_LANGUAGE="et").content.decode()
    assert 'lang="et"' in estonian
    if slug in POKER_PAGES:
        assert "Reeglite versioon 2.7" in estonian
    english_article = english.split("<article", 1)[1]
    estonian_article = estonian.split("<article", 1)[1]
    assert english_article != estonian_article


def test_the_cash_game_rules_carry_the_seed_numbers_in_both_languages(client: Client) -> None:
    """CASH-17 (10 minutes), CASH-20 (500 seconds), TB-02 (15 s, cap 30 s), CASH-22 (20 s grace)."""
    english = client.get(reverse("rules:page", args=["cash-games"]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    estonian = client.get(reverse("rules:page", args=["cash-games"]), HTTP_ACCEPT_LANGUAGE="et").content.decode()
    for body in (english, estonian):
        assert "10 minut" in body
        assert "500" in body
        assert "20" in body
    assert "500 seconds" in english
    assert "500 sekundit" in estonian


def test_the_betting_example_is_the_seed_example_in_both_languages(client: Client) -> None:
    """ENG-15 / SX-01: bet 5, raise to 15, next raise to at least 25; SX-02 side pot 300 / 1800."""
    for language in ("en", "et"):
        body = client.get(reverse("rules:page", args=["texas-holdem"]), HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert "15" in body
        assert "25" in body
        assert "300" in body
        assert "1800" in body


def test_the_rules_index_opens_the_first_page(client: Client) -> None:
    response = client.get(reverse("rules:index"))
    assert response.status_code == 302
    assert response["Location"] == reverse("rules:page", args=[PAGES[0].slug])


def test_an_unknown_rule_page_is_not_found(client: Client) -> None:
    assert client.get("/rules/no-such-page/").status_code == 404


def test_the_ultimate_texas_holdem_rules_carry_the_pay_tables_in_both_languages(client: Client) -> None:
    """LOB-06 with seed 003: Blind 500:1 (royal flush), Trips 3:1 (three of a kind), dealer qualifies with a pair."""
    for language, qualify in (("en", "pair or better"), ("et", "paari või parema")):
        body = client.get(
            reverse("rules:page", args=["ultimate-texas-holdem"]), HTTP_ACCEPT_LANGUAGE=language
        ).content.decode()
        assert "500:1" in body
        assert "3:1" in body
        assert qualify in body
