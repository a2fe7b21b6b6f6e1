"""The tournament cancellation policy (CXL-01..CXL-11): who gets what when a tournament or a HexaPro game is cancelled
because of a software problem, as a pure function of the tournament at the moment of cancellation.

:func:`cancel` takes a :class:`TournamentAtCancellation` (multi-table or Sit & Go) or a
:class:`HexaProAtCancellation` and returns a :class:`CancellationCalculation`: the state, the rules applied, every
player's compensation with its parts, the money held and what stays with the house. ``to_json()`` gives the record to
archive. Posting the transfers, the preview and the second approval belong to the services built on this.

States and rules (seed 002 › CANCELLATION POLICY #52–#55, with the catalog's decisions):

* Before the start (CXL-02): every purchase is refunded in full (prize contribution, bounty part and fee), all
  multi-entries included; a purchase paid by ticket re-credits its ticket instead of paying money.
* Started, not in the money (CXL-03, CXL-04, CXL-05): "in the money" means every next eliminated player would be
  guaranteed a prize (ET-21), i.e. the remaining players are no more than the places of the prize table; a
  tournament without a prize table yet is not in the money. Each remaining player is refunded their fees; the
  player-supplied pot (all prize contributions net of fees and bounties, AMB-34) is halved: the first half equally
  among the remaining players, the second in proportion to their chips. Added money (guarantee overlay) is not part
  of it and stays with the house — except in a freeroll, where the added prize pool is shared the same way (CXL-05).
* In the money, not at the final table (CXL-06): fees refunded; each remaining player receives the lowest remaining
  prize (the prize of place n for n players left, AMB-35); the rest of the unpaid prizes (places 1..n) in proportion
  to chips.
* In the money, at the final table (CXL-07): fees refunded; the unpaid prizes (places 1..n) by ICM chop (CXL-11).
  At the final table but not in the money, the not-in-the-money rules apply (002 #54: "if they are in the money").
* HexaPro (CXL-09, AMB-16): each remaining player gets the fee component (FEE-06) back and 10 % of the prize pool not
  yet paid out; the rest is chopped by ICM over the game's payout percentages for places 1..n, scaled so that they
  share the whole rest (with all three players left, 80/12/8 of the rest).
* Bounties (CXL-10): each remaining player receives their own current bounty; bounties already won stay won.
* Non-monetary prizes (CXL-08): the prize table carries every prize's cash value, so a ticket, seat or free-spin
  prize is paid as that value.

Decisions made here (the catalog leaves them open):

* "Their fees" (CXL-03, CXL-06, CXL-07) are all the fees a remaining player paid in the tournament: entry,
  re-entries, re-buys and add-ons. They are refunded in money also when the entry was paid by ticket (the ticket was
  spent when play started). Eliminated players' fees stay with the house.
* Places below the remaining players have been paid when those players were eliminated: the unpaid prize pool is the
  prizes of places 1..n (MTT and HexaPro alike).
* Cents (GEN-06, AMB-17): fee refunds, refunds, the lowest remaining prize and bounties are whole cents already.
  The parts that divide a pool (equal share, chip share, ICM share, HexaPro's 10 %) are added up exactly per player
  and that sum is rounded once by the cent rules (down to the cent, leftover cents by largest remainder, ties to the
  larger stack, then the lower seat). So each pool is paid out to the cent and no player is a cent or more away from
  their exact share.
* The money held is prize contributions + added money + fees + bounty parts − prizes and bounties already paid (for
  HexaPro: the drawn prize pool − prizes already paid + every player's fee component). Paid in money + tickets
  re-credited + what stays with the house equals it, to the cent.

Bad or inconsistent input raises ValueError naming the problem (negative amounts, duplicate players, references or
seats, a prize table that does not add up to the prize money, bounties that do not add up to the bounty money held).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum, StrEnum
from fractions import Fraction
from itertools import pairwise
from typing import Any

from tournaments.rules.icm import (
    IcmEquities,
    IcmMethod,
    checked_prizes,
    chop_equities,
    fraction_text,
    round_shares_to_cents,
)

HEXAPRO_SHARE_PER_PLAYER = Fraction(1, 10)  # CXL-09: "all remaining players receive 10% of the prize pool"
PERCENT = 100


class CancellationState(StrEnum):
    BEFORE_START = "before-start"
    STARTED_NOT_IN_THE_MONEY = "started-not-in-the-money"
    IN_THE_MONEY = "in-the-money"
    FINAL_TABLE = "final-table"
    HEXAPRO = "hexapro"


class PurchaseKind(StrEnum):
    ENTRY = "entry"
    RE_ENTRY = "re-entry"
    RE_BUY = "re-buy"
    ADD_ON = "add-on"


class PaidWith(StrEnum):
    MONEY = "money"
    TICKET = "ticket"


@dataclass(frozen=True)
class Purchase:
    """One booked purchase (FEE-04): an entry, re-entry, re-buy or add-on, split into its parts, in cents.

    ``reference`` identifies the purchase (registration or re-buy id) for the postings and the ticket to re-credit.
    """

    reference: str
    player: str
    kind: PurchaseKind
    prize_contribution_cents: int
    fee_cents: int
    bounty_cents: int = 0
    paid_with: PaidWith = PaidWith.MONEY


@dataclass(frozen=True)
class RemainingPlayer:
    """A player still in with chips. ``seat`` orders ties in the cent rules (lower first; across tables the caller
    numbers seats uniquely, e.g. table × 100 + seat). ``bounty_cents``: the player's current bounty (CXL-10)."""

    player: str
    chips: int
    seat: int
    bounty_cents: int = 0


@dataclass(frozen=True)
class TournamentAtCancellation:
    """A multi-table or Sit & Go tournament at the moment it is cancelled.

    ``prizes``: the prize table in cents, place 1 first (empty while it is not fixed yet); each prize's cash value,
    also for ``non_monetary_places`` (CXL-08). ``added_money_cents``: money the operator put in the prize pool (a
    guarantee's overlay, a freeroll's prizes); the prize table adds up to contributions + added money.
    ``bounties_paid_cents``: bounties already won and paid.
    """

    purchases: tuple[Purchase, ...]
    started: bool
    remaining: tuple[RemainingPlayer, ...] = ()
    prizes: tuple[int, ...] = ()
    non_monetary_places: frozenset[int] = frozenset()
    at_final_table: bool = False
    added_money_cents: int = 0
    freeroll: bool = False
    bounties_paid_cents: int = 0


@dataclass(frozen=True)
class HexaProAtCancellation:
    """A HexaPro (or HexaPro Extreme) game at the moment it is cancelled (CXL-09, AMB-16).

    ``prize_pool_cents``: the drawn pool (multiplier × buy-in). ``payout_percentages``: HEX-09/HEX-25 for the drawn
    multiplier, place 1 first, adding up to 100 (``(100,)`` for winner takes all). ``fee_component_cents``: FEE-06.
    """

    remaining: tuple[RemainingPlayer, ...]
    eliminated: tuple[str, ...]
    prize_pool_cents: int
    payout_percentages: tuple[int | Fraction, ...]
    fee_component_cents: int


@dataclass(frozen=True)
class TicketRecredit:
    reference: str
    value_cents: int


@dataclass(frozen=True)
class Compensation:
    """What one player receives, part by part. Pool parts are exact; ``pool_share_cents`` is their sum after the
    cent rules. ``money_cents`` is everything paid in money; re-credited tickets are listed apart."""

    player: str
    seat: int | None = None
    chips: int | None = None
    eliminated: bool = False
    buy_in_refund_cents: int = 0
    fee_refund_cents: int = 0
    tickets_recredited: tuple[TicketRecredit, ...] = ()
    equal_share: Fraction = Fraction(0)
    chip_share: Fraction = Fraction(0)
    lowest_remaining_prize_cents: int = 0
    icm_share: Fraction = Fraction(0)
    pool_share_cents: int = 0
    bounty_cents: int = 0

    @property
    def pool_share_exact(self) -> Fraction:
        return self.equal_share + self.chip_share + self.lowest_remaining_prize_cents + self.icm_share

    @property
    def money_cents(self) -> int:
        return self.buy_in_refund_cents + self.fee_refund_cents + self.pool_share_cents + self.bounty_cents

    @property
    def tickets_cents(self) -> int:
        return sum(ticket.value_cents for ticket in self.tickets_recredited)


@dataclass(frozen=True)
class MoneyHeld:
    """The money held for the tournament when it is cancelled, by origin (cents)."""

    prize_pool_cents: int
    added_money_cents: int
    fees_cents: int
    bounties_cents: int
    prizes_already_paid_cents: int
    bounties_already_paid_cents: int

    @property
    def total_cents(self) -> int:
        """Prize pool (added money included) + fees + bounties − what was already paid out of them."""
        return (
            self.prize_pool_cents
            + self.fees_cents
            + self.bounties_cents
            - self.prizes_already_paid_cents
            - self.bounties_already_paid_cents
        )


@dataclass(frozen=True)
class HouseKeeps:
    reason: str
    cents: int


@dataclass(frozen=True)
class CancellationCalculation:
    """The archived calculation: inputs, state, rules applied, each player's compensation and the totals."""

    cancelled: TournamentAtCancellation | HexaProAtCancellation
    state: CancellationState
    rules: tuple[str, ...]
    money_held: MoneyHeld
    compensations: tuple[Compensation, ...]
    kept_by_house: tuple[HouseKeeps, ...]
    icm: IcmEquities | None = None

    @property
    def paid_in_money_cents(self) -> int:
        return sum(compensation.money_cents for compensation in self.compensations)

    @property
    def tickets_recredited_cents(self) -> int:
        return sum(compensation.tickets_cents for compensation in self.compensations)

    @property
    def kept_by_house_cents(self) -> int:
        return sum(kept.cents for kept in self.kept_by_house)

    def to_json(self) -> dict[str, Any]:
        """The record as JSON-ready values: fractions as "numerator/denominator", amounts in cents."""
        return {
            "state": self.state.value,
            "rules": list(self.rules),
            "input": _plain(self.cancelled),
            "icm": _icm_record(self.icm),
            "money_held": {**_plain(self.money_held), "total_cents": self.money_held.total_cents},
            "compensations": [
                {
                    **_plain(compensation),
                    "pool_share_exact": fraction_text(compensation.pool_share_exact),
                    "money_cents": compensation.money_cents,
                    "tickets_cents": compensation.tickets_cents,
                }
                for compensation in self.compensations
            ],
            "kept_by_house": [_plain(kept) for kept in self.kept_by_house],
            "totals": {
                "paid_in_money_cents": self.paid_in_money_cents,
                "tickets_recredited_cents": self.tickets_recredited_cents,
                "kept_by_house_cents": self.kept_by_house_cents,
                "money_held_cents": self.money_held.total_cents,
            },
        }


def cancel(cancelled: TournamentAtCancellation | HexaProAtCancellation) -> CancellationCalculation:
    """Every player's compensation for a cancelled tournament or HexaPro game (see the module docstring).

    ValueError on bad or inconsistent input.
    """
    if isinstance(cancelled, HexaProAtCancellation):
        return _cancel_hexapro(cancelled)
    _check_tournament(cancelled)
    state = cancellation_state(cancelled)
    if state is CancellationState.BEFORE_START:
        return _cancel_before_start(cancelled)
    if state is CancellationState.STARTED_NOT_IN_THE_MONEY:
        return _cancel_not_in_the_money(cancelled)
    return _cancel_in_the_money(cancelled, state)


def cancellation_state(tournament: TournamentAtCancellation) -> CancellationState:
    """The tournament's state for the policy: before the start, not in the money, in the money, final table."""
    if not tournament.started:
        return CancellationState.BEFORE_START
    in_the_money = 0 < len(tournament.remaining) <= len(tournament.prizes)
    if not in_the_money:
        return CancellationState.STARTED_NOT_IN_THE_MONEY
    return CancellationState.FINAL_TABLE if tournament.at_final_table else CancellationState.IN_THE_MONEY


# --- before the start (CXL-02) ---------------------------------------------------------------------------------------


def _cancel_before_start(tournament: TournamentAtCancellation) -> CancellationCalculation:
    by_player: dict[str, Compensation] = {}
    for purchase in tournament.purchases:
        compensation = by_player.get(purchase.player, Compensation(player=purchase.player))
        if purchase.paid_with is PaidWith.TICKET:
            value = purchase.prize_contribution_cents + purchase.fee_cents + purchase.bounty_cents
            ticket = TicketRecredit(purchase.reference, value)
            compensation = dataclasses.replace(
                compensation, tickets_recredited=(*compensation.tickets_recredited, ticket)
            )
        else:
            compensation = dataclasses.replace(
                compensation,
                buy_in_refund_cents=compensation.buy_in_refund_cents
                + purchase.prize_contribution_cents
                + purchase.bounty_cents,
                fee_refund_cents=compensation.fee_refund_cents + purchase.fee_cents,
            )
        by_player[purchase.player] = compensation
    kept = _nonzero(
        [HouseKeeps("added money: nothing is owed before the start (CXL-02)", tournament.added_money_cents)]
    )
    return CancellationCalculation(
        cancelled=tournament,
        state=CancellationState.BEFORE_START,
        rules=("CXL-02",),
        money_held=_money_held(tournament, prizes_already_paid=0),
        compensations=tuple(by_player.values()),
        kept_by_house=kept,
    )


# --- started, not in the money (CXL-03, CXL-04, CXL-05) -----------------------------------------------------------


def _cancel_not_in_the_money(tournament: TournamentAtCancellation) -> CancellationCalculation:
    remaining = tournament.remaining
    contributions = sum(purchase.prize_contribution_cents for purchase in tournament.purchases)
    pot = contributions + (tournament.added_money_cents if tournament.freeroll else 0)
    half = Fraction(pot, 2)
    total_chips = sum(player.chips for player in remaining)
    equal = half / len(remaining)
    parts = {
        player.player: {"equal_share": equal, "chip_share": half * player.chips / total_chips} for player in remaining
    }
    rules = ["CXL-03", "CXL-04", "AMB-34"]
    if tournament.freeroll:
        rules.append("CXL-05")
    kept = [_eliminated_fees(tournament)]
    if not tournament.freeroll:
        kept.append(
            HouseKeeps("added money is not part of the player-supplied pot (AMB-34)", tournament.added_money_cents)
        )
    return _started_calculation(
        tournament, CancellationState.STARTED_NOT_IN_THE_MONEY, rules, parts, kept, prizes_already_paid=0
    )


# --- in the money (CXL-06, CXL-07) -----------------------------------------------------------------------------------


def _cancel_in_the_money(tournament: TournamentAtCancellation, state: CancellationState) -> CancellationCalculation:
    remaining = tournament.remaining
    players = len(remaining)
    unpaid = list(tournament.prizes[:players])
    already_paid = sum(tournament.prizes[players:])
    parts: dict[str, dict[str, Any]]
    icm = None
    if state is CancellationState.IN_THE_MONEY:
        lowest = unpaid[-1]
        rest = sum(unpaid) - players * lowest
        total_chips = sum(player.chips for player in remaining)
        parts = {
            player.player: {
                "lowest_remaining_prize_cents": lowest,
                "chip_share": Fraction(rest * player.chips, total_chips),
            }
            for player in remaining
        }
        rules = ["CXL-06", "AMB-35"]
    else:
        icm = chop_equities([player.chips for player in remaining], unpaid, method=IcmMethod.EXACT)
        parts = {player.player: {"icm_share": share} for player, share in zip(remaining, icm.equities, strict=True)}
        rules = ["CXL-07", "CXL-11"]
    if set(tournament.non_monetary_places) & set(range(1, players + 1)):
        rules.append("CXL-08")
    return _started_calculation(
        tournament, state, rules, parts, [_eliminated_fees(tournament)], prizes_already_paid=already_paid, icm=icm
    )


def _started_calculation(
    tournament: TournamentAtCancellation,
    state: CancellationState,
    rules: list[str],
    pool_parts: dict[str, dict[str, Any]],
    kept: list[HouseKeeps],
    *,
    prizes_already_paid: int,
    icm: IcmEquities | None = None,
) -> CancellationCalculation:
    """Fee refunds, the pool parts rounded once per player by the cent rules, bounties; eliminated players last."""
    remaining = tournament.remaining
    fees = _fees_by_player(tournament.purchases)
    compensations = [
        Compensation(
            player=player.player,
            seat=player.seat,
            chips=player.chips,
            fee_refund_cents=fees[player.player],
            bounty_cents=player.bounty_cents,
            **pool_parts[player.player],
        )
        for player in remaining
    ]
    compensations = _with_pool_cents(compensations, remaining)
    still_in = {player.player for player in remaining}
    compensations += [Compensation(player=player, eliminated=True) for player in fees if player not in still_in]
    if any(player.bounty_cents for player in remaining) or tournament.bounties_paid_cents:
        rules.append("CXL-10")
    rules.append("AMB-17")
    return CancellationCalculation(
        cancelled=tournament,
        state=state,
        rules=tuple(rules),
        money_held=_money_held(tournament, prizes_already_paid=prizes_already_paid),
        compensations=tuple(compensations),
        kept_by_house=_nonzero(kept),
        icm=icm,
    )


def _with_pool_cents(compensations: Sequence[Compensation], remaining: Sequence[RemainingPlayer]) -> list[Compensation]:
    """The remaining players' compensations with their pool parts rounded together by the cent rules (AMB-17)."""
    cents = round_shares_to_cents(
        [compensation.pool_share_exact for compensation in compensations],
        [player.chips for player in remaining],
        [player.seat for player in remaining],
    )
    return [
        dataclasses.replace(compensation, pool_share_cents=share)
        for compensation, share in zip(compensations, cents, strict=True)
    ]


def _fees_by_player(purchases: Iterable[Purchase]) -> dict[str, int]:
    fees: dict[str, int] = {}
    for purchase in purchases:
        fees[purchase.player] = fees.get(purchase.player, 0) + purchase.fee_cents
    return fees


def _eliminated_fees(tournament: TournamentAtCancellation) -> HouseKeeps:
    still_in = {player.player for player in tournament.remaining}
    cents = sum(purchase.fee_cents for purchase in tournament.purchases if purchase.player not in still_in)
    return HouseKeeps("fees of eliminated players: only remaining players are refunded", cents)


def _money_held(tournament: TournamentAtCancellation, *, prizes_already_paid: int) -> MoneyHeld:
    purchases = tournament.purchases
    return MoneyHeld(
        prize_pool_cents=sum(purchase.prize_contribution_cents for purchase in purchases)
        + tournament.added_money_cents,
        added_money_cents=tournament.added_money_cents,
        fees_cents=sum(purchase.fee_cents for purchase in purchases),
        bounties_cents=sum(purchase.bounty_cents for purchase in purchases),
        prizes_already_paid_cents=prizes_already_paid,
        bounties_already_paid_cents=tournament.bounties_paid_cents,
    )


# --- HexaPro (CXL-09) ------------------------------------------------------------------------------------------------


def _cancel_hexapro(game: HexaProAtCancellation) -> CancellationCalculation:
    _check_hexapro(game)
    remaining = game.remaining
    players = len(remaining)
    percentages = [Fraction(percentage) for percentage in game.payout_percentages]
    already_paid_exact = sum((game.prize_pool_cents * share / PERCENT for share in percentages[players:]), Fraction(0))
    if already_paid_exact.denominator != 1:
        raise ValueError(f"the prizes below place {players} come to {already_paid_exact} cents, not whole cents")
    unpaid = game.prize_pool_cents - int(already_paid_exact)
    equal = unpaid * HEXAPRO_SHARE_PER_PLAYER
    rest = unpaid - players * equal
    unpaid_percentages = [share for share in percentages[:players] if share]
    icm_prizes = [rest * share / sum(unpaid_percentages) for share in unpaid_percentages]
    icm: IcmEquities | None = None
    if rest:
        icm = chop_equities([player.chips for player in remaining], icm_prizes, method=IcmMethod.EXACT)
        icm_shares = icm.equities
    else:
        icm_shares = tuple(Fraction(0) for _ in remaining)
    compensations = [
        Compensation(
            player=player.player,
            seat=player.seat,
            chips=player.chips,
            fee_refund_cents=game.fee_component_cents,
            equal_share=equal,
            icm_share=share,
        )
        for player, share in zip(remaining, icm_shares, strict=True)
    ]
    compensations = _with_pool_cents(compensations, remaining)
    compensations += [Compensation(player=player, eliminated=True) for player in game.eliminated]
    kept = HouseKeeps(
        "fee components of eliminated players: only remaining players are refunded (CXL-09)",
        game.fee_component_cents * len(game.eliminated),
    )
    return CancellationCalculation(
        cancelled=game,
        state=CancellationState.HEXAPRO,
        rules=("CXL-09", "AMB-16", "CXL-11", "AMB-17"),
        money_held=MoneyHeld(
            prize_pool_cents=game.prize_pool_cents,
            added_money_cents=0,
            fees_cents=game.fee_component_cents * (players + len(game.eliminated)),
            bounties_cents=0,
            prizes_already_paid_cents=int(already_paid_exact),
            bounties_already_paid_cents=0,
        ),
        compensations=tuple(compensations),
        kept_by_house=_nonzero([kept]),
        icm=icm,
    )


# --- input checks ----------------------------------------------------------------------------------------------------


def _check_tournament(tournament: TournamentAtCancellation) -> None:
    purchases = tournament.purchases
    _check_unique("purchase reference", [purchase.reference for purchase in purchases])
    for purchase in purchases:
        for name in ("prize_contribution_cents", "fee_cents", "bounty_cents"):
            _check_cents(f"{name} of purchase {purchase.reference}", getattr(purchase, name))
    for name in ("added_money_cents", "bounties_paid_cents"):
        _check_cents(name, getattr(tournament, name))
    if not tournament.started:
        if tournament.remaining:
            raise ValueError("before the start no player has chips: leave remaining empty")
        if tournament.bounties_paid_cents:
            raise ValueError("before the start no bounty has been won: bounties_paid_cents must be 0")
        return
    if not tournament.remaining:
        raise ValueError("a started tournament has at least one remaining player")
    _check_remaining(tournament.remaining)
    registered = {purchase.player for purchase in purchases}
    for player in tournament.remaining:
        if player.player not in registered:
            raise ValueError(f"remaining player {player.player} has no purchase: every player in it registered")
    if tournament.prizes:
        checked_prizes(tournament.prizes, len(tournament.prizes))
        if any(isinstance(prize, Fraction) or prize == 0 for prize in tournament.prizes):
            raise ValueError("every place of the prize table pays a whole, positive number of cents")
        prize_money = sum(purchase.prize_contribution_cents for purchase in purchases) + tournament.added_money_cents
        if sum(tournament.prizes) != prize_money:
            raise ValueError(
                f"the prize table adds up to {sum(tournament.prizes)} cents, but the prize contributions and added"
                f" money come to {prize_money}"
            )
    outside = set(tournament.non_monetary_places) - set(range(1, len(tournament.prizes) + 1))
    if outside:
        raise ValueError(f"non-monetary places {sorted(outside)} are not places of the prize table")
    bounty_money = sum(purchase.bounty_cents for purchase in purchases) - tournament.bounties_paid_cents
    bounties = sum(player.bounty_cents for player in tournament.remaining)
    if bounties != bounty_money:
        raise ValueError(
            f"the remaining players' bounties add up to {bounties} cents, but the bounty money held is {bounty_money}"
            " (bounty parts of the purchases − bounties paid)"
        )


def _check_hexapro(game: HexaProAtCancellation) -> None:
    if not game.remaining:
        raise ValueError("a cancelled HexaPro game has at least one remaining player")
    _check_remaining(game.remaining)
    _check_unique("player", [player.player for player in game.remaining] + list(game.eliminated))
    if any(player.bounty_cents for player in game.remaining):
        raise ValueError("HexaPro games have no bounties")
    _check_cents("prize_pool_cents", game.prize_pool_cents)
    _check_cents("fee_component_cents", game.fee_component_cents)
    if len(game.remaining) * HEXAPRO_SHARE_PER_PLAYER > 1:
        raise ValueError(f"{len(game.remaining)} players cannot each receive 10 % of the prize pool")
    percentages = game.payout_percentages
    if not percentages or any(
        isinstance(share, bool) or not isinstance(share, int | Fraction) for share in percentages
    ):
        raise ValueError("payout percentages are numbers, place 1 first")
    if any(share < 0 for share in percentages) or sum(percentages) != PERCENT:
        raise ValueError(f"payout percentages {list(percentages)} must be non-negative and add up to 100")
    if any(later > earlier for earlier, later in pairwise(percentages)):
        raise ValueError(f"payout percentages {list(percentages)} must be listed from first place down")
    seated = len(game.remaining) + len(game.eliminated)
    if len(percentages) > seated:
        raise ValueError(f"{len(percentages)} payout percentages for a game of {seated} players")


def _check_remaining(remaining: Sequence[RemainingPlayer]) -> None:
    _check_unique("remaining player", [player.player for player in remaining])
    _check_unique("seat", [player.seat for player in remaining])
    for player in remaining:
        if isinstance(player.chips, bool) or not isinstance(player.chips, int) or player.chips <= 0:
            raise ValueError(f"remaining player {player.player} has {player.chips!r} chips: at least one is needed")
        _check_cents(f"bounty of {player.player}", player.bounty_cents)


def _check_unique(what: str, values: Sequence[object]) -> None:
    seen: set[object] = set()
    for value in values:
        if value in seen:
            raise ValueError(f"{what} {value} appears twice")
        seen.add(value)


def _check_cents(what: str, amount: object) -> None:
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise ValueError(f"{what} is {amount!r}: amounts are whole cents")
    if amount < 0:
        raise ValueError(f"{what} is {amount}: amounts cannot be negative")


# --- the record ------------------------------------------------------------------------------------------------------


def _nonzero(kept: Iterable[HouseKeeps]) -> tuple[HouseKeeps, ...]:
    return tuple(entry for entry in kept if entry.cents)


def _plain(value: Any) -> Any:
    """Dataclasses, enums, fractions and sets as JSON-ready values (fractions as "numerator/denominator")."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {item.name: _plain(getattr(value, item.name)) for item in dataclasses.fields(value)}
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Fraction):
        return fraction_text(value)
    if isinstance(value, frozenset | set):
        return sorted(_plain(item) for item in value)
    if isinstance(value, tuple | list):
        return [_plain(item) for item in value]
    return value


def _icm_record(icm: IcmEquities | None) -> dict[str, Any] | None:
    if icm is None:
        return None
    return {
        "method": icm.method.value,
        "equities": [fraction_text(equity) for equity in icm.equities],
        "standard_errors": None if icm.standard_errors is None else [round(error, 6) for error in icm.standard_errors],
        "samples": icm.samples,
        "seed": icm.seed,
    }
