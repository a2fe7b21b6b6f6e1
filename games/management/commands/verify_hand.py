"""``manage.py verify_hand HAND_ID...``: check a stored hand's provably fair deck (issue 29, ``docs/fairness.md``).

For each hand: the SHA-256 commitment published before the first card is recomputed from the server seed, the deck
is derived again from the seeds (``games.engine.fairness``) and compared with the stored deck, and every hole card
and board card the event log dealt is compared with its place in that deck. Prints ``hand N: verified`` or each
problem, and exits with an error when any hand does not verify. A hand still in play is refused: its seed is secret
until it ends.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games.models import Hand, HandStatus
from games.runtime.fairness import hand_verify


class Command(BaseCommand):
    help = "Verify hands' provably fair decks: the commitment, the deck derived from the seeds, the dealt cards."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("hand_ids", nargs="+", type=int, metavar="HAND_ID")

    def handle(self, *args: Any, **options: Any) -> None:
        failed = []
        for hand_id in options["hand_ids"]:
            hand = Hand.objects.filter(pk=hand_id).first()
            if hand is None:
                raise CommandError(f"hand {hand_id}: no such hand")
            if hand.status == HandStatus.RUNNING:
                raise CommandError(f"hand {hand_id}: still in play; its server seed is revealed when it ends")
            problems = hand_verify(hand)
            if problems:
                failed.append(hand_id)
                for problem in problems:
                    self.stdout.write(f"hand {hand_id}: {problem}")
            else:
                self.stdout.write(f"hand {hand_id}: verified (commitment {hand.deck_commitment})")
        if failed:
            raise CommandError(f"{len(failed)} hand(s) do not verify: {failed}")
