"""GEN-09: the sign-up's new fields, the responsible-gaming page, the reminder and every refusal exist in Estonian."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from poker_site.accounts.models import User
from poker_site.responsible_gaming.services import (
    deposit_limit_set,
    deposit_refusal,
    play_refusal,
    self_exclusion_start,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clean_cache")]


def estonian_client() -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="et")
    client.cookies["django_language"] = "et"
    return client


def test_gen_09_the_sign_up_asks_in_estonian() -> None:
    body = estonian_client().get(reverse("accounts:sign_up")).content.decode()
    assert "Sünnikuupäev" in body
    assert "Nõustun kasutustingimuste ja reeglitega" in body
    assert "Date of birth" not in body


def test_gen_09_the_responsible_gaming_page_and_reminder_are_estonian() -> None:
    client = estonian_client()
    user = User.objects.create_user("eesti", "eesti@example.com", "x-unused-password")
    client.force_login(user)
    body = client.get(reverse("responsible_gaming:overview")).content.decode()
    for text in (
        "Mängi vastutustundlikult",
        "Sissemakselimiidid",
        "Seansi meeldetuletus",
        "Enesevälistus",
        "Aeg pausiks?",
    ):
        assert text in body
    for english in ("Deposit limits", "Session reminder", "Self-exclusion", "Time for a break?", "Exclude me"):
        assert english not in body


def test_gen_09_the_refusals_are_estonian() -> None:
    user = User.objects.create_user("eesti", "eesti@example.com", "x-unused-password")
    deposit_limit_set(user, "week", 1_000)
    with translation.override("et"):
        limit = deposit_refusal(user, 2_000, "EUR", timezone.now())
        assert limit is not None
        assert limit.startswith("Sinu iganädalane sissemakselimiit on 10,00")
        self_exclusion_start(user, "permanent", confirmed=True)
        refusal = play_refusal(user.pk, None)
        assert refusal == "Sa ei saa mängida: oled end alatiseks välistanud. Raha väljavõtmine on endiselt võimalik."
