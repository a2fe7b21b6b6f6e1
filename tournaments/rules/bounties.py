"""Bounty tournaments (TRN-41..TRN-44, AMB-18, AMB-48, AMB-61): who wins what when a player is knocked out, in whole
cents. Pure: the standard library and ``games.engine`` only.

* Regular bounty (TRN-41): the eliminated player's whole bounty goes to the player who knocked them out.
* Progressive bounty (TRN-42, AMB-18): of the eliminated player's bounty, ``credited_percent`` is credited to the
  knocking-out player and ``bounty_percent`` is added to that player's own bounty (the two add up to 100; default
  50/50). **Decision**: the credited part is rounded down to the cent; the cent left over goes to the bounty, so
  the money stays whole and in the tournament.
* VIP bounty (TRN-43, AMB-61): a unique special bounty on one designated player, paid only to whoever knocks that
  player out of the tournament (here there is no re-buy, so every knock-out is the final one). It is paid in full
  in cash, also in a progressive tournament.
* Split knock-outs (TRN-44, AMB-48): when several players win the pot(s) holding the eliminated player's last
  chips, the bounty is split in the proportion in which those chips were split: each pot holding some of the
  eliminated player's chips passes them to its winners in equal parts (ENG-27's split, before odd chips), so a
  winner's share of the bounty is the sum over those pots of (eliminated chips in the pot / all eliminated chips) ÷
  (winners of the pot). Each share is rounded down to the cent; the cents left over go one at a time in ENG-27
  order — clockwise, starting with the first seat clockwise from the button — to the winners whose exact share
  is not whole (so nobody gets more than their exact share rounded up). With one pot split equally this is exactly
  ENG-27's split: €10.01 between seats 2 and 5, button at 4 → seat 5 €5.01, seat 2 €5.00.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from games.engine.pots import clockwise_from_button

PERCENT = 100
DEFAULT_CREDITED_PERCENT = 50  # AMB-18
DEFAULT_BOUNTY_PERCENT = 50


class BountyKind(StrEnum):
    NONE = "none"
    REGULAR = "regular"
    PROGRESSIVE = "progressive"


class BountyError(ValueError):
    """Bad input to the bounty rules: says what is wrong."""


@dataclass(frozen=True)
class PotTaken:
    """One pot holding some of the eliminated player's chips: how many (``chips``) and the seats that won it in
    equal parts (``winners``)."""

    chips: int
    winners: tuple[int, ...]


@dataclass(frozen=True)
class BountyAward:
    """What one knocking-out player wins from one knock-out, in cents: ``cash`` credited at once, ``added_to_bounty``
    added to their own bounty (progressive), ``vip`` the VIP bounty (paid in cash)."""

    seat: int
    cash: int
    added_to_bounty: int
    vip: int = 0

    @property
    def credited(self) -> int:
        return self.cash + self.vip


def pots_taken(
    contributions: Mapping[int, int],
    folded: Iterable[int],
    pot_winners: Sequence[Sequence[int]],
    eliminated: int,
) -> tuple[PotTaken, ...]:
    """The pots that took the ``eliminated`` seat's chips: ``contributions`` is everything each seat put in the hand,
    ``folded`` the seats that folded, ``pot_winners`` each pot's winners (main pot first, as the engine forms the pots
    with :func:`games.engine.pots.layer_pots`: one pot per distinct contribution of a player still in the hand)."""
    out = set(folded)
    if eliminated not in contributions or eliminated in out:
        raise BountyError(f"seat {eliminated} was not in the hand to the end")
    levels = sorted({amount for seat, amount in contributions.items() if seat not in out and amount > 0})
    if len(levels) != len(pot_winners):
        raise BountyError(f"{len(pot_winners)} pots given for {len(levels)} contribution levels")
    chips = contributions[eliminated]
    taken = []
    previous = 0
    for level, winners in zip(levels, pot_winners, strict=True):
        part = min(chips, level) - min(chips, previous)
        previous = level
        if part <= 0:
            continue
        if not winners or eliminated in winners:
            raise BountyError(f"a pot holding seat {eliminated}'s last chips was won by {list(winners)}")
        taken.append(PotTaken(part, tuple(winners)))
    if not taken:
        raise BountyError(f"seat {eliminated} put no chips in the hand")
    return tuple(taken)


def knock_out_fractions(pots: Sequence[PotTaken]) -> dict[int, Fraction]:
    """Each winner's exact share (adding up to 1) of the eliminated player's chips (TRN-44, AMB-48)."""
    total = sum(pot.chips for pot in pots)
    if total <= 0 or any(pot.chips < 0 or not pot.winners for pot in pots):
        raise BountyError("the pots must hold some of the eliminated player's chips and have winners")
    shares: dict[int, Fraction] = {}
    for pot in pots:
        if len(set(pot.winners)) != len(pot.winners):
            raise BountyError(f"winner seats repeat: {list(pot.winners)}")
        each = Fraction(pot.chips, total * len(pot.winners))
        for seat in pot.winners:
            shares[seat] = shares.get(seat, Fraction(0)) + each
    return shares


def split_cents(amount: int, fractions: Mapping[int, Fraction], button: int, table_size: int) -> dict[int, int]:
    """``amount`` cents split by ``fractions`` (seat → exact share, adding up to 1): each rounded down, the cents
    left over one at a time in ENG-27 order to the seats whose exact share is not whole (see the module docstring).
    The values add up to ``amount``."""
    if type(amount) is not int or amount < 0:
        raise BountyError(f"an amount is whole, non-negative cents, not {amount!r}")
    if not fractions or sum(fractions.values()) != 1 or any(share < 0 for share in fractions.values()):
        raise BountyError("the shares must be non-negative and add up to 1")
    exact = {seat: amount * share for seat, share in fractions.items()}
    cents = {seat: int(value) for seat, value in exact.items()}  # Fractions ≥ 0: int() rounds down
    left = amount - sum(cents.values())
    for seat in clockwise_from_button(list(fractions), button, table_size):
        if left == 0:
            break
        if exact[seat] != cents[seat]:
            cents[seat] += 1
            left -= 1
    assert left == 0
    return cents


def progressive_parts(share: int, credited_percent: int, bounty_percent: int) -> tuple[int, int]:
    """A progressive knock-out's ``share`` of a bounty as (credited, added to the winner's own bounty) (TRN-42,
    AMB-18): the credited part rounded down to the cent, the rest to the bounty."""
    check_percentages(credited_percent, bounty_percent)
    credited = share * credited_percent // PERCENT
    return credited, share - credited


def check_percentages(credited_percent: int, bounty_percent: int) -> None:
    for value in (credited_percent, bounty_percent):
        if type(value) is not int or not 0 <= value <= PERCENT:
            raise BountyError(f"a percentage is a whole number from 0 to 100, not {value!r}")
    if credited_percent + bounty_percent != PERCENT:
        raise BountyError(
            f"the credited and the added percentages add up to 100, not {credited_percent + bounty_percent}"
        )


def knock_out_awards(
    *,
    kind: BountyKind | str,
    bounty: int,
    pots: Sequence[PotTaken],
    button: int,
    table_size: int,
    credited_percent: int = DEFAULT_CREDITED_PERCENT,
    bounty_percent: int = DEFAULT_BOUNTY_PERCENT,
    vip_bounty: int = 0,
) -> tuple[BountyAward, ...]:
    """What each winner of the pots holding the eliminated player's last chips wins from the knock-out: the
    eliminated player's current ``bounty`` (none in a tournament without bounties) and the ``vip_bounty`` when the
    eliminated player is the VIP, both split by :func:`split_cents`. Winners in ENG-27 order; awards of nothing are
    left out."""
    kind = BountyKind(kind)
    if kind == BountyKind.NONE and bounty:
        raise BountyError("a tournament without bounties has no bounty to win")
    for name, value in (("bounty", bounty), ("VIP bounty", vip_bounty)):
        if type(value) is not int or value < 0:
            raise BountyError(f"the {name} is whole, non-negative cents, not {value!r}")
    fractions = knock_out_fractions(pots)
    bounty_shares = split_cents(bounty, fractions, button, table_size)
    vip_shares = split_cents(vip_bounty, fractions, button, table_size)
    awards = []
    for seat in clockwise_from_button(list(fractions), button, table_size):
        share = bounty_shares[seat]
        if kind == BountyKind.PROGRESSIVE:
            cash, added = progressive_parts(share, credited_percent, bounty_percent)
        else:
            cash, added = share, 0
        if cash or added or vip_shares[seat]:
            awards.append(BountyAward(seat=seat, cash=cash, added_to_bounty=added, vip=vip_shares[seat]))
    return tuple(awards)


def bounty_settings_problems(
    *,
    kind: BountyKind | str,
    bounty: int,
    credited_percent: int,
    bounty_percent: int,
    vip_bounty: int,
    has_vip: bool,
) -> dict[str, str]:
    """What is wrong with a tournament's bounty settings, by field (empty: nothing)."""
    problems: dict[str, str] = {}
    try:
        kind = BountyKind(kind)
    except ValueError:
        return {"bounty_kind": f"Unknown bounty kind {kind!r}."}
    if kind == BountyKind.NONE and bounty:
        problems["bounty"] = "A tournament without bounties has no bounty per entry: set it to 0 or choose a kind."
    if kind != BountyKind.NONE and bounty <= 0:
        problems["bounty"] = "A bounty tournament needs a bounty per entry of at least €0.01 (TRN-41)."
    if kind == BountyKind.PROGRESSIVE:
        try:
            check_percentages(credited_percent, bounty_percent)
        except BountyError as error:
            problems["bounty_credited_percent"] = f"Progressive bounty (TRN-42, AMB-18): {error}."
    if has_vip and vip_bounty <= 0:
        problems["vip_bounty"] = "A VIP carries a special bounty of at least €0.01 (TRN-43)."
    if vip_bounty and not has_vip:
        problems["vip_player"] = "A VIP bounty needs its VIP player (TRN-43)."
    return problems
