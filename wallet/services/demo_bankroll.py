"""The demo bots' money: ``demo_bot_fund`` tops a demo bot's cash balance up from the demo bankroll.

The demo site (``make run``) keeps its tables and tournaments alive with bots (``games.bots.demo_life``). Their money
is play money, but it moves like any other: one idempotent ledger transfer from the system account
``demo_bankroll`` (which may go negative: it gives without limit) to the bot's cash account. Only demo bots are funded:
accounts named with :data:`DEMO_BOT_PREFIX` that nobody can log in to (no usable password; the bots use sessions the
demo process makes), and only while ``DEMO_BOTS`` is on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.conf import settings
from django.db import transaction

from wallet.errors import InvalidTransfer
from wallet.models import AccountKind, Transfer
from wallet.services.accounts import player_cash_account, system_account
from wallet.services.ledger import MAX_AMOUNT_CENTS, TransferLeg, transfer_create

if TYPE_CHECKING:
    from poker_site.accounts.models import User

DEMO_BOT_PREFIX = "demobot"
DEMO_FUNDING_KIND = "demo_funding"


def is_demo_bot(user: User) -> bool:
    """A demo bot: named ``demobot…`` and without a usable password, so no person can sign in as one."""
    return user.username.startswith(DEMO_BOT_PREFIX) and not user.has_usable_password()


@transaction.atomic(durable=True)
def demo_bot_fund(user: User, up_to: int) -> Transfer | None:
    """Bring ``user``'s cash balance up to ``up_to`` cents from the demo bankroll; None when it already has that much.

    Refused (``InvalidTransfer``, nothing moved): demo bots are off, ``user`` is not a demo bot, or ``up_to`` is not a
    positive whole number of cents below the ledger's limit. The idempotency key names the bot's cash account as it
    stands (its last leg), so a retry of the same top-up books once and a later one is a new transfer."""
    if not settings.DEMO_BOTS:
        raise InvalidTransfer("Demo bots are off (DEMO_BOTS): no demo funding.")
    if not is_demo_bot(user):
        raise InvalidTransfer(f"{user.username} is not a demo bot: only demo bots are funded from the demo bankroll.")
    if isinstance(up_to, bool) or not isinstance(up_to, int) or not 0 < up_to < MAX_AMOUNT_CENTS:
        raise InvalidTransfer("The demo funding target must be a positive whole number of cents.")
    cash = player_cash_account(user)
    last_leg = cash.legs.order_by("-pk").values_list("pk", flat=True).first() or 0
    shortfall = up_to - cash.balance
    if shortfall <= 0:
        return None
    bankroll = system_account(AccountKind.DEMO_BANKROLL)
    return transfer_create(
        kind=DEMO_FUNDING_KIND,
        legs=[TransferLeg(bankroll, -shortfall), TransferLeg(cash, shortfall)],
        idempotency_key=f"demo-funding:{user.pk}:{last_leg}",
        reference=f"demo-bot:{user.pk}",
        description=f"Demo bot {user.username} topped up to {up_to} cents",
    )
