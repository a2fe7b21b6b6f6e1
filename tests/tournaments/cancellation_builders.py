"""Small builders for the cancellation tests: purchases and remaining players with readable defaults (cents)."""

from __future__ import annotations

from tournaments.rules.cancellation import PaidWith, Purchase, PurchaseKind, RemainingPlayer


def entry(
    player: str,
    contribution: int,
    fee: int,
    *,
    kind: PurchaseKind = PurchaseKind.ENTRY,
    bounty: int = 0,
    ticket: bool = False,
    number: int = 1,
) -> Purchase:
    return Purchase(
        reference=f"{player}-{kind.value}-{number}",
        player=player,
        kind=kind,
        prize_contribution_cents=contribution,
        fee_cents=fee,
        bounty_cents=bounty,
        paid_with=PaidWith.TICKET if ticket else PaidWith.MONEY,
    )


def entries(count: int, contribution: int, fee: int, *, prefix: str = "p") -> tuple[Purchase, ...]:
    """One entry each for players ``p1`` .. ``p<count>``."""
    return tuple(entry(f"{prefix}{number}", contribution, fee) for number in range(1, count + 1))


def still_in(*stacks: int, prefix: str = "p") -> tuple[RemainingPlayer, ...]:
    """Players ``p1``, ``p2`` … with these stacks in seats 1, 2 …"""
    return tuple(
        RemainingPlayer(player=f"{prefix}{seat}", chips=chips, seat=seat) for seat, chips in enumerate(stacks, start=1)
    )
