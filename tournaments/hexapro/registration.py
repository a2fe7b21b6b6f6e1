"""Registering for HexaPro games and forming them (HEX-03, HEX-04, HEX-05, HEX-07, HEX-21, FEE-06).

``hexapro_register`` is one PLAY of the lobby: ``games`` registrations at one buy-in of one product, paid by one
debit of the total (buy-in × games) into the holding account of that buy-in. In the same transaction, under a lock per
(product, buy-in), the waiting registrations are matched (:func:`tournaments.rules.hexapro_matching.form_games`:
oldest first, a player's registrations always in different games) and every game that can be formed is formed at
once: the multiplier drawn from the queue's committed seed (provably fair, issue 29:
:mod:`tournaments.hexapro.fairness`; the seed is 32 bytes of the CSPRNG, GEN-08), the game's tournament created with
the drawn multiplier's stack, level length and timebank row, the seats' buy-ins moved into its prize pool in one
transfer (the house funds or keeps the difference to multiplier × buy-in), and the game started (the players seated
at random, the first hand dealt after the reveal delay).

``hexapro_withdraw`` takes back a registration still waiting for opponents and refunds its buy-in — the catalog
does not say; a player who paid for a game that no one else joins should not have to wait for ever (decision).

Lock order: the queue lock (an advisory lock per product and buy-in), then the wallet accounts this transaction
moves money on, all locked at once in primary-key order before the first transfer (the ledger's own order), so a
registration never waits for an account while holding another that a concurrent transfer needs first. The house fees
and guarantee accounts, which every game's transfer locks, are among them only when the registration forms a game
(the matching is known before the debit, under the queue lock): the registrations that only wait do not queue
behind the games forming at other buy-ins.
"""

from __future__ import annotations

import secrets
import uuid
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engine.uth.money import format_cents
from poker_site.responsible_gaming.services import play_allowed_or_refuse
from tournaments.hexapro import money
from tournaments.hexapro.fairness import CommittedTicket, draw_commitment_for_queue, draw_commitment_use
from tournaments.hexapro.models import (
    HexaProDrawCommitment,
    HexaProGame,
    HexaProProductVersion,
    HexaProRegistration,
    RegistrationStatus,
)
from tournaments.hexapro.products import product_from_version, version_in_force
from tournaments.models import (
    EntryStatus,
    HandForHandMode,
    Tournament,
    TournamentEntry,
    TournamentKind,
)
from tournaments.rules.common import RandomSource, RuleError
from tournaments.rules.hexapro import (
    HexaProProduct,
    IntegerSource,
    blind_structure,
    buy_in_level,
    draw_multiplier,
    game_money,
    payout_split_cents,
    registration_total_cents,
)
from tournaments.rules.hexapro_matching import WaitingRegistration, form_games
from tournaments.services.catalog import tournament_create
from tournaments.services.errors import (
    InsufficientBalance,
    InvalidRequest,
    KeyReused,
    NotAllowedNow,
    NotRegistered,
    SelfExcluded,
)
from tournaments.services.running import start_locked
from tournaments.services.sanctions import bar_refusal
from wallet.errors import InsufficientFunds, WalletError
from wallet.models import Account, AccountKind
from wallet.services import player_cash_account, system_account
from wallet.services.cashier import check_idempotency_key

_QUEUE_LOCK_CLASS = zlib.crc32(b"tournaments-hexapro-queue") & 0x7FFFFFFF
_NO_BALANCE_LIMIT = 2**62


def queue_lock(product_code: str, buy_in_cents: int) -> None:
    """Serialise registering, matching and withdrawing at one buy-in of one product until the transaction ends."""
    key = zlib.crc32(f"{product_code}:{buy_in_cents}".encode()) & 0x7FFFFFFF
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [_QUEUE_LOCK_CLASS, key])


def accounts_lock(accounts: Sequence[Account]) -> None:
    """Lock ``accounts`` in primary-key order (see the module docstring)."""
    list(
        Account.objects.select_for_update()
        .filter(pk__in=sorted({account.pk for account in accounts}))
        .order_by("pk")
        .values_list("pk", flat=True)
    )


@dataclass(frozen=True)
class Registered:
    """What one PLAY did: its registrations (one per game) and the games formed by it (its own or others')."""

    request: uuid.UUID
    registrations: tuple[HexaProRegistration, ...]
    games: tuple[HexaProGame, ...]
    total_cents: int


def _checked_product(product_code: object, moment: datetime) -> tuple[HexaProProductVersion, HexaProProduct]:
    if not isinstance(product_code, str) or not product_code:
        raise InvalidRequest("Choose HexaPro or HexaPro Extreme.")
    try:
        version = version_in_force(product_code, moment)
        return version, product_from_version(version)
    except RuleError as error:
        raise InvalidRequest(str(error)) from error


REQUEST_NAMESPACE = uuid.UUID("6f1f3c52-56a4-4c5e-9d55-1f0d3a0b7c21")
"""Names a PLAY's request after the player and their Idempotency-Key (uuid5), so a retried PLAY finds the first."""


def request_of(user: Any, idempotency_key: str) -> uuid.UUID:
    return uuid.uuid5(REQUEST_NAMESPACE, f"{user.pk}:{idempotency_key}")


def _already_registered(
    user: Any, request: uuid.UUID, product_code: object, buy_in_cents: int, games: int
) -> Registered | None:
    """The PLAY already made under ``request`` (a retry with the same Idempotency-Key), or None. The same key for a
    different PLAY is refused, as the cashier refuses a key reused for another amount."""
    rows = list(HexaProRegistration.objects.filter(request=request).order_by("pk"))
    if not rows:
        return None
    if (rows[0].user_id, rows[0].product_code, rows[0].buy_in_cents, len(rows)) != (
        user.pk,
        product_code,
        buy_in_cents,
        games,
    ):
        raise KeyReused(_("This Idempotency-Key was already used for another registration: use a new key."))
    formed = HexaProGame.objects.filter(registrations__in=rows).distinct().order_by("pk")
    total = sum(int(leg.amount) for leg in rows[0].registration_transfer.legs.all() if leg.amount > 0)
    return Registered(request, tuple(rows), tuple(formed), total)


@transaction.atomic(durable=True)
def hexapro_register(
    user: Any,
    product_code: str,
    buy_in_cents: int,
    games: int,
    *,
    idempotency_key: str | None = None,
    now: datetime | None = None,
    draw_source: IntegerSource | None = None,
    randomness: RandomSource | None = None,
) -> Registered:
    """Register ``games`` games of ``product_code`` at ``buy_in_cents`` for ``user`` and form every game that can be
    formed (see the module docstring). Refused, with nothing changed: a product or buy-in not offered, a number of
    games that is not a whole number from 1 to the product's maximum (:class:`InvalidRequest`), a balance below the
    total (:class:`InsufficientBalance`), a player barred from tournaments (:class:`NotEligible`, TRN-28).
    ``draw_source`` and ``randomness`` are for tests; production draws the multiplier from the CSPRNG and seats the
    players with the operating system's randomness.

    ``idempotency_key`` (the client's Idempotency-Key, checked as the cashier checks it): a retry with the same key is
    the same PLAY, answered as the first was and debiting nothing more; the same key for another PLAY is refused
    (:class:`KeyReused`)."""
    moment = now or timezone.now()
    request = uuid.uuid4()
    if idempotency_key is not None:
        try:
            request = request_of(user, check_idempotency_key(idempotency_key))
        except WalletError as error:
            raise InvalidRequest(str(error)) from error
        earlier = _already_registered(user, request, product_code, buy_in_cents, games)
        if earlier is not None:
            return earlier
    bar_refusal(user)  # cancel-desk: TRN-28, a barred player enters no tournament
    play_allowed_or_refuse(int(user.pk), _("You cannot register for HexaPro games"), SelfExcluded, at=moment)
    version, product = _checked_product(product_code, moment)
    try:  # the buy-in and the number of games, whatever the balance
        registration_total_cents(product, buy_in_cents, games, _NO_BALANCE_LIMIT)
    except RuleError as error:
        raise InvalidRequest(str(error)) from error
    queue_lock(product.code, buy_in_cents)
    if draw_source is None:
        draw_commitment_for_queue(product.code, buy_in_cents, moment)  # committed before any game of this queue forms
    cash = player_cash_account(user)
    holding = money.holding_account(product.code, buy_in_cents)
    house = [system_account(AccountKind.HOUSE_FEES), system_account(AccountKind.HOUSE_GUARANTEE)]
    # The house accounts every game's transfer moves money on are locked only when this PLAY forms a game.
    accounts_lock([cash, holding, *(house if forms_a_game(product, buy_in_cents, user, games) else [])])
    cash.refresh_from_db(fields=["balance"])
    try:
        total = registration_total_cents(product, buy_in_cents, games, cash.balance)
    except RuleError as error:
        raise InsufficientBalance(str(error)) from error
    if idempotency_key is not None:
        # A retry that raced the first past the check above waited on the locks: the first has committed now.
        earlier = _already_registered(user, request, product_code, buy_in_cents, games)
        if earlier is not None:
            return earlier
    try:
        transfer = money.registration_debit(
            cash, holding, request, games=games, total_cents=total, product_name=product.name
        )
    except InsufficientFunds as error:
        raise InsufficientBalance(f"Your balance does not cover {format_cents(total)}.") from error
    registrations = HexaProRegistration.objects.bulk_create(
        HexaProRegistration(
            user=user,
            product_code=product.code,
            buy_in_cents=buy_in_cents,
            request=request,
            registered_at=moment,
            registration_transfer=transfer,
        )
        for _ in range(games)
    )
    formed = games_form(
        version,
        product,
        buy_in_cents,
        holding,
        moment,
        draw_source=draw_source,
        randomness=randomness,
    )
    fresh = {row.pk: row for row in HexaProRegistration.objects.filter(request=request)}
    return Registered(request, tuple(fresh[row.pk] for row in registrations), tuple(formed), total)


def forms_a_game(product: HexaProProduct, buy_in_cents: int, user: Any, games: int) -> bool:
    """Whether ``games`` new registrations of ``user`` would form a game with those waiting (under the queue lock the
    answer holds until the transaction ends)."""
    waiting = [
        WaitingRegistration(registration, int(player))
        for registration, player in HexaProRegistration.objects.filter(
            product_code=product.code, buy_in_cents=buy_in_cents, status=RegistrationStatus.WAITING
        )
        .order_by("registered_at", "pk")
        .values_list("pk", "user_id")
    ]
    newest = max((row.registration for row in waiting), default=0)
    new = [WaitingRegistration(newest + number, int(user.pk)) for number in range(1, games + 1)]
    return bool(form_games([*waiting, *new], seats=product.seats).games)


def games_form(
    version: HexaProProductVersion,
    product: HexaProProduct,
    buy_in_cents: int,
    holding: Account,
    now: datetime,
    *,
    draw_source: IntegerSource | None,
    randomness: RandomSource | None = None,
) -> list[HexaProGame]:
    """HEX-04: form every game the waiting registrations at the buy-in allow (the caller holds the queue lock).

    Each game's multiplier is drawn from the queue's committed seed (issue 29, :mod:`tournaments.hexapro.fairness`)
    unless a test injects ``draw_source``; the queue then gets its next commitment, which the waiting players see."""
    waiting = list(
        HexaProRegistration.objects.select_for_update()
        .filter(product_code=product.code, buy_in_cents=buy_in_cents, status=RegistrationStatus.WAITING)
        .order_by("registered_at", "pk")
    )
    by_id = {row.pk: row for row in waiting}
    matching = form_games(
        [WaitingRegistration(row.pk, int(row.user_id)) for row in waiting],
        seats=product.seats,
    )
    chance: RandomSource = randomness if randomness is not None else secrets.SystemRandom()
    formed = []
    for seats in matching.games:
        committed: HexaProDrawCommitment | None = None
        source: IntegerSource
        if draw_source is None:
            committed = draw_commitment_for_queue(product.code, buy_in_cents, now)
            source = CommittedTicket(committed)
        else:
            source = draw_source
        game = game_form(
            version,
            product,
            buy_in_cents,
            [by_id[seat.registration] for seat in seats],
            holding,
            now,
            draw_source=source,
            randomness=chance,
        )
        if committed is not None:
            draw_commitment_use(committed, game)
        formed.append(game)
    if draw_source is None:
        draw_commitment_for_queue(product.code, buy_in_cents, now)  # the next game's, shown to those who wait
    return formed


def game_form(
    version: HexaProProductVersion,
    product: HexaProProduct,
    buy_in_cents: int,
    registrations: list[HexaProRegistration],
    holding: Account,
    now: datetime,
    *,
    draw_source: IntegerSource,
    randomness: RandomSource,
) -> HexaProGame:
    """One game from ``registrations`` (one per player): the draw (HEX-05), the tournament with the drawn multiplier's
    tables (HEX-11..HEX-15, HEX-26..HEX-29), the money (HEX-07, HEX-21, FEE-06) and the start."""
    draw = draw_multiplier(product, draw_source)
    row = draw.row
    level = buy_in_level(product, buy_in_cents)
    amounts = game_money(product, buy_in_cents, row.multiplier_tenths)
    prizes = payout_split_cents(product, buy_in_cents, row.multiplier_tenths)
    timebank = row.timebank
    tournament = tournament_create(
        name=f"{product.name} {format_cents(buy_in_cents)}",
        kind=TournamentKind.HEXAPRO,
        seats_to_start=product.seats,
        table_size=product.seats,
        buy_in=level.buy_in_cents - level.fee_component_cents,
        fee=level.fee_component_cents,
        structure=blind_structure(product, row.multiplier_tenths),
        minimum_entrants=product.seats,
        unregistration_allowed=False,
        hand_for_hand_mode=HandForHandMode.OFF,
        decision_seconds=product.decision_seconds,
        reconnect_grace_seconds=product.reconnect_grace_seconds,
        final_stage_reconnect_seconds=0,
        timebank_first_hand_seconds=timebank.first_hand_seconds,
        timebank_replenish_seconds=timebank.replenish_seconds,
        timebank_replenish_every_hands=timebank.replenish_every_hands,
        timebank_cap_seconds=timebank.cap_seconds,
        created_at=now,
        # Fixed when the game forms: the seats, the pool and the prizes by place (HEX-09, HEX-25).
        registration_closed_at=now,
        entrants=product.seats,
        prize_pool=amounts.prize_pool_cents,
        prizes=list(prizes),
    )
    TournamentEntry.objects.bulk_create(
        TournamentEntry(
            tournament=tournament,
            user_id=registration.user_id,
            status=EntryStatus.REGISTERED,
            registered_at=registration.registered_at,
            prize_contribution=level.buy_in_cents - level.fee_component_cents,
            fee=level.fee_component_cents,
            registration_transfer_id=registration.registration_transfer_id,
        )
        for registration in registrations
    )
    game = HexaProGame.objects.create(
        tournament=tournament,
        version=version,
        product_code=product.code,
        buy_in_cents=buy_in_cents,
        fee_component_cents=level.fee_component_cents,
        multiplier_tenths=row.multiplier_tenths,
        draw_ticket=draw.ticket,
        draw_total_weight=draw.total_weight,
        drawn_at=now,
        prize_pool_cents=amounts.prize_pool_cents,
        payout_percentages=list(row.payout_percentages),
        formation_transfer=money.game_fund(tournament, holding, amounts, multiplier_label=row.label),
    )
    HexaProRegistration.objects.filter(pk__in=[registration.pk for registration in registrations]).update(
        status=RegistrationStatus.SEATED, game=game
    )
    started = Tournament.objects.select_for_update().get(pk=tournament.pk)
    start_locked(started, now, randomness)
    game.tournament = started
    return game


@transaction.atomic(durable=True)
def hexapro_withdraw(user: Any, registration_id: int) -> HexaProRegistration:
    """Withdraw ``user``'s registration ``registration_id`` while it waits for opponents, refunding its buy-in.
    Refused: not the player's registration (:class:`NotRegistered`), already in a game or withdrawn
    (:class:`NotAllowedNow`)."""
    if type(registration_id) is not int:
        raise InvalidRequest("Give the registration's number.")
    row = HexaProRegistration.objects.filter(pk=registration_id, user=user).first()
    if row is None:
        raise NotRegistered("You have no such HexaPro registration.")
    queue_lock(row.product_code, row.buy_in_cents)
    locked = HexaProRegistration.objects.select_for_update().get(pk=row.pk)
    if locked.status != RegistrationStatus.WAITING:
        raise NotAllowedNow(
            "This registration is already in a game."
            if locked.status == RegistrationStatus.SEATED
            else "This registration was already withdrawn."
        )
    cash = player_cash_account(user)
    holding = money.holding_account(locked.product_code, locked.buy_in_cents)
    locked.refund_transfer = money.registration_refund(locked, cash, holding)
    locked.status = RegistrationStatus.WITHDRAWN
    locked.save(update_fields=["refund_transfer", "status"])
    return locked
