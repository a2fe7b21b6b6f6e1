"""FRD-12: a player's hand report is refused in the player's language. Every refusal of ``player_report_create`` (a
missing or too long text, a hand the player was not in or still in play, reported players who were not in it, the
day's limit) is passed through gettext, so the translators' catalogue reaches it, and reads in English exactly as it
did before it was marked."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from compliance.errors import ComplianceError
from compliance.services import player_report_create, reports
from games.models import Hand, HandStatus
from tests.compliance.desk.support import played_hand, player

pytestmark = pytest.mark.django_db

WORDS = "Seat 2 never bets into seat 3."

Refusal = Callable[[dict[str, Any]], Any]
"""A refused report, given the hand's players (``alice``, ``bob``, ``carol``, ``outsider``) and ``hand``."""

REFUSALS: dict[str, tuple[Refusal, str]] = {
    "no text": (
        lambda the: player_report_create(the["alice"], the["hand"].pk, [the["bob"].pk], "   "),
        "Say what you saw: the report needs a text.",
    ),
    "a text too long": (
        lambda the: player_report_create(the["alice"], the["hand"].pk, [the["bob"].pk], "x" * 2_001),
        "At most 2000 characters, please (2001 given).",
    ),
    "a hand the player was not in": (
        lambda the: player_report_create(the["outsider"], the["hand"].pk, [the["bob"].pk], WORDS),
        "You were not in hand #{hand}: you can report only hands you played.",
    ),
    "a hand still in play": (
        lambda the: player_report_create(the["alice"], the["running"].pk, [the["bob"].pk], WORDS),
        "This hand is still in play: report it once it has ended.",
    ),
    "players named by something other than their id": (
        lambda the: player_report_create(the["alice"], the["hand"].pk, ["bob"], WORDS),
        "Choose the players you report from the hand's players.",
    ),
    "nobody reported": (
        lambda the: player_report_create(the["alice"], the["hand"].pk, [], WORDS),
        "Choose at least one player you report.",
    ),
    "a player who was not in the hand": (
        lambda the: player_report_create(the["alice"], the["hand"].pk, [the["outsider"].pk], WORDS),
        "You can report only the other players who were in this hand.",
    ),
    "the day's reports used up": (
        lambda the: player_report_create(the["alice"], the["hand"].pk, [the["carol"].pk], WORDS),
        "You can send at most 1 reports a day; the next can be sent after {again} UTC.",
    ),
}


@pytest.fixture
def the(settings: Any) -> dict[str, Any]:
    """Alice, Bob and Carol's finished hand, a hand of theirs still in play, an outsider, and alice's one report of
    the day already sent."""
    settings.COMPLIANCE_REPORTS_PER_DAY = 1
    alice, bob, carol, outsider = player("alice"), player("bob"), player("carol"), player("outsider")
    hand = played_hand([alice, bob, carol])
    running = played_hand([alice, bob, carol], seed=2)
    Hand.objects.filter(pk=running.pk).update(status=HandStatus.RUNNING)
    first = player_report_create(alice, hand.pk, [bob.pk], WORDS)
    again = f"{first.created_at + reports.DAY:%Y-%m-%d %H:%M}"
    return {
        "alice": alice,
        "bob": bob,
        "carol": carol,
        "outsider": outsider,
        "hand": hand,
        "running": running,
        "again": again,
    }


def refusal_of(refused: Refusal, the: dict[str, Any]) -> str:
    with pytest.raises(ComplianceError) as refusal:
        refused(the)
    return str(refusal.value)


@pytest.mark.parametrize("case", REFUSALS)
def test_the_refusal_reads_in_english_as_before(case: str, the: dict[str, Any]) -> None:
    refused, english = REFUSALS[case]

    assert refusal_of(refused, the) == english.format(hand=the["hand"].pk, again=the["again"])


@pytest.mark.parametrize("case", REFUSALS)
def test_the_refusal_is_passed_through_the_translation_catalogue(
    case: str, the: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    refused, english = REFUSALS[case]
    monkeypatch.setattr(reports, "_", lambda message: f"[translated] {message}")

    assert refusal_of(refused, the) == "[translated] " + english.format(hand=the["hand"].pk, again=the["again"])
