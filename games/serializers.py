"""Serializers of the cash-table REST API (games/api.py): input validation and the documented response shapes.

Request bodies are read with :class:`~poker_site.core.strict_input.StrictSerializer`s: unknown fields are refused."""

from __future__ import annotations

from rest_framework import serializers

from games.runtime.protocol import MAXIMUM_AMOUNT
from poker_site.core.strict_input import StrictIntegerField, StrictSerializer


class LobbyTableSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    game = serializers.CharField(help_text="Game type code, e.g. holdem, omaha, banzai.")
    game_name = serializers.CharField()
    variant = serializers.CharField(help_text="NT (No-Limit Hold'em) or PO (Pot-Limit Omaha).")
    stake = serializers.CharField(help_text="Stake label, e.g. NL10.")
    stake_id = serializers.IntegerField()
    small_blind = serializers.IntegerField(allow_null=True, help_text="Cents.")
    big_blind = serializers.IntegerField(allow_null=True, help_text="Cents.")
    min_buy_in = serializers.IntegerField(allow_null=True, help_text="Cents (the table's default range).")
    max_buy_in = serializers.IntegerField(allow_null=True, help_text="Cents.")
    seats = serializers.IntegerField()
    players = serializers.IntegerField(help_text="Players seated now.")
    average_pot = serializers.IntegerField(allow_null=True, help_text="Cents, hands finished in the last hour.")
    hands_per_hour = serializers.IntegerField()
    waiting = serializers.IntegerField(help_text="Players queued for this stake (CASH-05).")


class BuyInLimitsSerializer(serializers.Serializer):
    minimum = serializers.IntegerField(help_text="Cents.")
    maximum = serializers.IntegerField(help_text="Cents.")
    kind = serializers.CharField(help_text="How the buy-in would be recorded: normal, rathole_return, banzai_resume...")
    rule = serializers.CharField(help_text="Why these are the limits, in words, with the rule's ID.")
    returning_stack = serializers.IntegerField(
        allow_null=True,
        help_text="Cents: the stack the player left this table (Banzai: this stake) with, if it counts.",
    )
    banzai_resume_stack = serializers.IntegerField(allow_null=True, help_text="Cents: the Banzai stack to resume with.")
    banzai_resets_left = serializers.IntegerField(allow_null=True, help_text="Banzai Resets left today (CASH-31).")
    banzai_reset_amount = serializers.IntegerField(
        allow_null=True, help_text="Cents: the buy-in of a Reset (10 BB), when one is left."
    )


class StrictBooleanField(serializers.BooleanField):
    """A flag that must arrive as JSON ``true`` or ``false``, as the socket protocol takes it: DRF's own BooleanField
    also turns ``"yes"``, ``"on"``, ``"1"``, ``1`` and ``0`` into a flag."""

    default_error_messages = {"strict": "Must be JSON true or false, not {kind}."}

    def to_internal_value(self, data: object) -> bool:
        if type(data) is not bool:
            self.fail("strict", kind=type(data).__name__)
        return data


class JoinStakeSerializer(StrictSerializer):
    buy_in = StrictIntegerField(min_value=1, max_value=MAXIMUM_AMOUNT, help_text="Buy-in in cents.")
    post_big_blind = StrictBooleanField(
        required=False, default=False, help_text="Post a big blind out of position to be dealt in at once (CASH-07)."
    )
    banzai_choice = serializers.ChoiceField(
        choices=["resume", "reset"],
        required=False,
        help_text=(
            "Banzai, returning within 30 minutes with more than 10 BB: resume with that stack (the default) or reset "
            "to 10 BB (CASH-30/31)."
        ),
    )


class SeatingRequestSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    stake_id = serializers.IntegerField()
    status = serializers.CharField(help_text="waiting, seated, cancelled or failed.")
    table_id = serializers.IntegerField(allow_null=True, help_text="The table assigned when seated.")
    message = serializers.CharField(
        allow_blank=True, help_text="Why the player waits (waiting), or why they could not be seated (failed)."
    )
    position = serializers.IntegerField(allow_null=True, help_text="The place in the stake's queue while waiting.")


class CommandResultSerializer(serializers.Serializer):
    ok = serializers.BooleanField()
    table_id = serializers.IntegerField(required=False)
    detail = serializers.CharField(required=False)


class ErrorSerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()


class HandSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    table_id = serializers.IntegerField()
    table_name = serializers.CharField()
    game = serializers.CharField()
    stake = serializers.CharField(help_text="A cash hand's stake; a tournament hand's tournament and level.")
    currency = serializers.CharField(help_text="EUR: amounts in euro cents; CHIPS: tournament chips.")
    number = serializers.IntegerField()
    status = serializers.CharField()
    started_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField(allow_null=True)
    seat = serializers.IntegerField()
    start_stack = serializers.IntegerField()
    end_stack = serializers.IntegerField(allow_null=True)
    net = serializers.IntegerField(allow_null=True)
    pot_total = serializers.IntegerField(allow_null=True)
    rake = serializers.IntegerField(allow_null=True)


class ReplayStepSerializer(serializers.Serializer):
    kind = serializers.CharField(
        help_text="hand_started, forced_bet_posted, action_taken, uncalled_bet_returned, street_dealt, hand_shown, "
        "pot_awarded, hand_ended, result"
    )
    stacks = serializers.DictField(child=serializers.IntegerField(), help_text="Seat → stack (cents) after the step.")
    bets = serializers.DictField(child=serializers.IntegerField(), help_text="Seat → bet in this betting round.")
    pot = serializers.IntegerField(help_text="Chips in the middle (pots and bets) after the step.")
    pots = serializers.ListField(child=serializers.DictField())
    board = serializers.ListField(child=serializers.CharField())
    shown = serializers.DictField(help_text="Seat → cards shown at showdown and the hand's name.")
    folded = serializers.ListField(child=serializers.IntegerField())
    result = serializers.DictField(required=False, help_text="Last step only: rake, pot total, each player's result.")


class HandReplaySerializer(serializers.Serializer):
    hand = serializers.DictField(help_text="Table, stake, blinds, button, seats, my seat and my hole cards.")
    steps = ReplayStepSerializer(many=True)
