"""What each staff role may do in the back office (LOB-10), admin page by admin page: the one written table.

For every model registered in the admin: which of view / add / change / delete the admin grants each role, which admin
actions it offers them, and which of the model's extra admin pages (by URL name) they may open. The roles are the
"Support staff" and "Compliance reviewers" groups (:mod:`poker_site.accounts.roles`) and administrators (superusers).
A staff member who is neither a superuser nor in a role group gets nothing.

The group permissions in :mod:`poker_site.accounts.roles` and the admins' own checks produce this table; a test walks
every registered admin for each role and compares. ``docs/roles.md`` states it (``manage.py role_table --write``
renders it there, and a test fails when the page and this table drift apart).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from poker_site.accounts.roles import COMPLIANCE_REVIEWERS, SUPPORT_STAFF

ADMINISTRATORS = "Administrators (superusers)"
ROLES = (SUPPORT_STAFF, COMPLIANCE_REVIEWERS, ADMINISTRATORS)

VERBS = ("view", "add", "change", "delete")
DELETE_SELECTED = "delete_selected"  # the admin's built-in bulk delete, offered with the delete permission
USER_PASSWORD_PAGE = "auth_user_password_change"  # the user admin's "set a password" page: administrators only
SEND_PASSWORD_RESET_PAGE = "accounts_user_send_password_reset"  # issue 30: a reset link to the address on file
PROPOSE_EMAIL_PAGE = "accounts_user_propose_email"  # issue 30: a new e-mail address, approved by a second staff member
HOLD_DECISION_PAGE = "wallet_hold_decide"  # release a hold or propose its seizure, with a reason
PROPOSE_TERMS_PAGE = "games_stake_propose_terms"
PROPOSE_RULES_PAGE = "games_gametype_propose_rules"
RULE_CHANGE_DECISION_PAGES = ("core_rulechangeproposal_approve", "core_rulechangeproposal_reject")
PAYOUT_STRUCTURE_PAGES = ("tournaments_payoutstructure_propose", "tournaments_payoutstructure_propose_new")
PROPOSE_RESOLUTION_PAGE = "wallet_unresolvedgamefunds_propose"  # CASH-25: propose an unresolved game's payouts
PROPOSAL_DECISION_PAGES = ("wallet_adjustmentproposal_approve", "wallet_adjustmentproposal_reject")


@dataclass(frozen=True)
class Powers:
    """What one role may do with one admin model."""

    verbs: frozenset[str] = frozenset()  # among VERBS
    actions: frozenset[str] = frozenset()  # admin action names, as get_actions lists them
    pages: frozenset[str] = frozenset()  # URL names of the model admin's extra pages

    def describe(self) -> str:
        """One table cell: the verbs in their usual order, then the actions and pages by name ("—" for nothing)."""
        parts = [verb for verb in VERBS if verb in self.verbs]
        parts += [f"action `{name}`" for name in sorted(self.actions)]
        parts += [f"page `{name}`" for name in sorted(self.pages)]
        return ", ".join(parts) or "—"


def may(*verbs: str, actions: Iterable[str] = (), pages: Iterable[str] = ()) -> Powers:
    unknown = set(verbs) - set(VERBS)
    if unknown:
        raise ValueError(f"not an admin permission verb: {sorted(unknown)}")
    return Powers(frozenset(verbs), frozenset(actions), frozenset(pages))


NOTHING = may()
READ = may("view")
EVERYTHING = may(*VERBS, actions=(DELETE_SELECTED,))


@dataclass(frozen=True)
class ModelPowers:
    """One row: what each role may do with one admin model, and what the admin limits further (per row)."""

    support: Powers
    compliance: Powers
    administrators: Powers
    note: str = field(default="")

    def of(self, role: str) -> Powers:
        return {
            SUPPORT_STAFF: self.support,
            COMPLIANCE_REVIEWERS: self.compliance,
            ADMINISTRATORS: self.administrators,
        }[role]


def read_only_record(note: str = "") -> ModelPowers:
    """A record every role reads and nobody edits (hands, events, ledger rows: they change only through services)."""
    return ModelPowers(READ, READ, READ, note)


def administrators_only(administrators: Powers = EVERYTHING, note: str = "") -> ModelPowers:
    return ModelPowers(NOTHING, NOTHING, administrators, note or "Administrators only, whatever permissions are held.")


def catalogue(note: str, *, support_actions: Iterable[str] = ()) -> ModelPowers:
    """Back-office data support maintains and reviewers read (game types, stakes, rules and terms rows)."""
    return ModelPowers(
        may("view", "add", "change", actions=support_actions),
        READ,
        may(*VERBS, actions=(DELETE_SELECTED, *support_actions)),
        note,
    )


def compliance_record(note: str = "") -> ModelPowers:
    """A compliance record: reviewers and administrators read it, support staff do not see it (LOB-08: support reads
    a player's standing in the player overview only), and it changes only through the desk's services."""
    return ModelPowers(NOTHING, READ, READ, note or "Changed only through the compliance desk (/compliance/).")


SCHEDULER_NOTE = "The scheduler's tables (django_celery_beat): administrators only, whatever permissions are held."
UTH_ROUND_ACTIONS = ("pause_rounds", "resume_rounds", "cancel_rounds")
UTH_TABLE_ACTIONS = ("open_tables", "close_tables")
CASH_TABLE_ACTIONS = ("cancel_hand_in_play", "close_tables")
TOURNAMENT_ACTIONS = (
    "delay_tournament",
    "cancel_tournaments",
    "set_hand_for_hand",
    "pause_tournaments",
    "resume_tournaments",
    "propose_cancellation",
)
TOURNAMENT_ENTRY_ACTIONS = ("disqualify_entries", "credit_prizes")
TOURNAMENT_FEE_REPORT_PAGE = "tournaments_tournament_fees"  # LOB-09: tournament and Sit & Go fees
RAKE_REPORT_PAGE = "games_hand_rake"  # LOB-09: the cash-game rake per day, game and stake, and per player
DECK_AUDIT_PAGE = "games_hand_deck_audit"  # issue 29: the month's card-position chi-square of the provably fair decks
TICKET_ACTIONS = ("void_tickets",)
TICKET_ISSUE_PAGE = "tournaments_tournamentticket_issue"  # TRN-37: issue a tournament ticket
TOURNAMENT_CANCELLATION_PAGE = "tournaments_tournament_cancellation"  # CXL-01: the preview and the proposal
CANCELLATION_DECISION_PAGES = (
    "tournaments_tournamentcancellation_approve",  # CXL-01: the second staff member's approval
    "tournaments_tournamentcancellation_withdraw",
    "tournaments_tournamentcancellation_alter",  # CXL-12: management alters the payouts before the approval
)
HEXAPRO_GAME_ACTIONS = ("park_incomplete_games",)
CHAT_MUTE_ACTIONS = ("lift_mutes",)
HEXAPRO_AUDIT_PAGE = "tournaments_hexaprogame_audit"  # HEX-31: the multiplier audit

ADMIN_POWERS: dict[str, ModelPowers] = {
    # --- people and privileges ---
    "accounts.user": ModelPowers(
        support=may("view", "change", pages=(SEND_PASSWORD_RESET_PAGE, PROPOSE_EMAIL_PAGE)),
        compliance=READ,
        administrators=may(
            *VERBS, actions=(DELETE_SELECTED,), pages=(USER_PASSWORD_PAGE, SEND_PASSWORD_RESET_PAGE, PROPOSE_EMAIL_PAGE)
        ),
        note="Support changes players' accounts only (names, active): an account that is staff, superuser or holds "
        "any group or permission is read-only to them. Nobody but an administrator sets a password (issue 30): support "
        "sends a password-reset link to the address on file (reason required, audited) and the player chooses the "
        "password. The e-mail address is read-only to support: a new one is proposed (reason required) and changes "
        "when another staff member approves it (`accounts.change_user`, rule change proposals); the old and the new "
        "address are told. Administrators set a password (reason required; never another administrator's) and edit "
        "the address directly. Staff "
        "status, superuser status, groups, permissions and the dates the account was made and last used (account age "
        "decides freeroll eligibility) are read-only to everyone but administrators. An administrator's grant of staff "
        "status, superuser status, a group or a permission is only proposed (reason required) and applied when another "
        "administrator approves it (issue 30, kind `staff_privileges`); a removal applies at once. The page links to "
        "the player's overview, ledger, transfers and hands.",
    ),
    "auth.group": administrators_only(
        note="Roles: administrators only, whatever is held. A group's permissions are read-only here (issue 30, four "
        "eyes): the role groups' are set in code (`poker_site/accounts/roles.py`); an account's own are granted by "
        "proposal on its page."
    ),
    "django_celery_beat.periodictask": administrators_only(
        may(
            *VERBS,
            actions=(DELETE_SELECTED, "enable_tasks", "disable_tasks", "toggle_tasks", "run_tasks"),
        ),
        note=SCHEDULER_NOTE,
    ),
    "django_celery_beat.clockedschedule": administrators_only(note=SCHEDULER_NOTE),
    "django_celery_beat.crontabschedule": administrators_only(note=SCHEDULER_NOTE),
    "django_celery_beat.intervalschedule": administrators_only(note=SCHEDULER_NOTE),
    "django_celery_beat.solarschedule": administrators_only(note=SCHEDULER_NOTE),
    # --- cash tables ---
    "games.gametype": ModelPowers(
        may("view", "add", "change", pages=(PROPOSE_RULES_PAGE,)),
        READ,
        may(*VERBS, actions=(DELETE_SELECTED,), pages=(PROPOSE_RULES_PAGE,)),
        "The game, rake table and buy-in rule are chosen when the game type is made and never change (another game "
        "is another game type). New rules are proposed on the game type's page (`games.add_gamerules`, reason "
        "required) and become a new rules row when another staff member approves them (issue 30, rule change "
        "proposals).",
    ),
    "games.gamerules": read_only_record(
        "A change is a new row, proposed on the game type's page and added when a second staff member approves it "
        "(issue 30); no row is added, edited or deleted here by anyone. Less time to act, to reconnect or in the "
        "timebank, or a shorter return window, than the rule documents give needs an administrator's approval."
    ),
    "games.stake": ModelPowers(
        may("view", "add", "change", actions=("open_tables",), pages=(PROPOSE_TERMS_PAGE,)),
        READ,
        may(*VERBS, actions=(DELETE_SELECTED, "open_tables"), pages=(PROPOSE_TERMS_PAGE,)),
        "Tables open from here (`open_tables`, needs the permission to add tables). A stake's game type is fixed "
        "once it is made. New terms are proposed on the stake's page (`games.add_staketerms`, reason required) and "
        "become a new terms row when another staff member approves them (issue 30, rule change proposals).",
    ),
    "games.staketerms": read_only_record(
        "A change is a new row, proposed on the stake's page and added when a second staff member approves it (issue "
        "30); no row is added, edited or deleted here by anyone. A rake rate over 10 % or a cap over the catalog's "
        "highest needs an administrator's approval."
    ),
    "games.table": ModelPowers(
        support=may("view", "change", actions=CASH_TABLE_ACTIONS),
        compliance=READ,
        administrators=may("view", "change", "delete", actions=(DELETE_SELECTED, *CASH_TABLE_ACTIONS)),
        note="Only a table's name is editable; tables open from the stakes list. Cancelling the hand in play and "
        "closing need `games.cancel_hand` and `games.close_table`.",
    ),
    "games.hand": ModelPowers(
        support=may("view", actions=("cancel_hands",), pages=(RAKE_REPORT_PAGE, DECK_AUDIT_PAGE)),
        compliance=may("view", pages=(RAKE_REPORT_PAGE, DECK_AUDIT_PAGE)),
        administrators=may("view", actions=("cancel_hands",), pages=(RAKE_REPORT_PAGE, DECK_AUDIT_PAGE)),
        note="The deck is hidden while the hand runs. The rake report (LOB-09: per day, game and stake, and per "
        "player for rakeback and VIP) needs `games.view_hand`.",
    ),
    "games.handevent": read_only_record("Hole-card and deck payloads are hidden while their hand runs."),
    "games.seat": read_only_record(),
    "games.tablesession": read_only_record(),
    "games.seatingrequest": read_only_record(),
    "games.playerdailycounter": read_only_record(),
    "games.playertablesettings": catalogue("Banzai exclusion (CASH-32) is set here."),
    # Table chat (issue 22, UTH-33)
    "games.chatmute": ModelPowers(
        support=may("view", "add", actions=CHAT_MUTE_ACTIONS),
        compliance=READ,
        administrators=may("view", "add", actions=CHAT_MUTE_ACTIONS),
        note="Muting a player's chat for a period and lifting a mute (UTH-33: support restores chat) need "
        "`games.mute_chat` and a reason; both audited. Mutes are never edited or deleted.",
    ),
    # --- Ultimate Texas Hold'em ---
    "uth.uthtable": catalogue(
        "A new table opens with the default limits. Changed bet limits, chips and clocks are only proposed when saved "
        "(reason required) and applied, and recorded, when another staff member approves them (issue 30; a maximum "
        "over the highest at any table or shorter clocks than the defaults: an administrator). Opening, closing and "
        "renaming are saved at once and recorded.",
        support_actions=UTH_TABLE_ACTIONS,
    ),
    "uth.uthround": ModelPowers(
        support=may("view", actions=UTH_ROUND_ACTIONS),
        compliance=READ,
        administrators=may("view", actions=UTH_ROUND_ACTIONS),
        note=(
            "Game recall; the deck and the dealer's cards are hidden while the round is in play (here and in the "
            "API's recall). Pausing, resuming and cancelling a round (UTH-36, UTH-37) need `uth.change_uthround`."
        ),
    ),
    "uth.uthhand": read_only_record(),
    "uth.uthbetrecord": read_only_record(),
    "uth.uthevent": read_only_record(),
    "uth.uthlimitchange": read_only_record(),
    # --- tournaments ---
    "tournaments.tournament": ModelPowers(
        support=may(
            "view",
            "add",
            "change",
            actions=TOURNAMENT_ACTIONS,
            pages=(TOURNAMENT_FEE_REPORT_PAGE, TOURNAMENT_CANCELLATION_PAGE),
        ),
        compliance=may("view", pages=(TOURNAMENT_FEE_REPORT_PAGE,)),
        administrators=may(
            *VERBS,
            actions=(DELETE_SELECTED, *TOURNAMENT_ACTIONS),
            pages=(TOURNAMENT_FEE_REPORT_PAGE, TOURNAMENT_CANCELLATION_PAGE),
        ),
        note="Definitions with their levels, through the services, audited. The house's money (guarantee, added "
        "prize money, VIP bounty) is only proposed when saved (reason required) and applied when another staff "
        "member approves it (issue 30; over €10,000 in one tournament, an administrator). Once a player has paid an "
        "entry, the prices are fixed; once started, buy-in, fee, stack, table size, kind, seats, game, start and the "
        "house's money are fixed, and so are the levels up to the current one; a finished or cancelled tournament is "
        "read-only. Delay, cancel (before the start), hand-for-hand, pause and resume need "
        "`tournaments.run_tournament`. The fee report (LOB-09) needs `tournaments.view_tournament`. A running "
        "tournament's cancellation preview and proposal (CXL-01, `propose_cancellation` opens it) need "
        "`tournaments.run_tournament`.",
    ),
    "tournaments.tournamentcancellation": ModelPowers(
        support=may("view", pages=CANCELLATION_DECISION_PAGES),
        compliance=READ,
        administrators=may("view", pages=CANCELLATION_DECISION_PAGES),
        note="CXL-01: the archived calculation (inputs, rules, each share in euros) is read by every role. Approving "
        "needs `tournaments.approve_cancellation` and another staff member than the proposer and than whoever altered "
        "the payouts; altering the payouts (CXL-12, reason required) and withdrawing need "
        "`tournaments.run_tournament`. All through the services, audited.",
    ),
    "tournaments.tournamententry": ModelPowers(
        support=may("view", actions=TOURNAMENT_ENTRY_ACTIONS),
        compliance=READ,
        administrators=may("view", actions=TOURNAMENT_ENTRY_ACTIONS),
        note="Disqualifying (TRN-28) needs `tournaments.disqualify_player` and is immediate. Forfeiting the unpaid "
        "prize (in full or in part) takes the player's money: it is offered with the disqualification only to holders "
        "of `tournaments.forfeit_prize` (compliance reviewers, who propose it from a case on the desk, and "
        "administrators; not support, whose disqualification keeps the prize), proposed with it and done when another "
        "holder approves it (issue 30, rule change proposals): until then the prize is withheld, and a rejection pays "
        "it. A manual prize credit needs `tournaments.run_tournament`. All audited.",
    ),
    "tournaments.tournamentticket": ModelPowers(
        support=may("view", actions=TICKET_ACTIONS, pages=(TICKET_ISSUE_PAGE,)),
        compliance=READ,
        administrators=may("view", actions=TICKET_ACTIONS, pages=(TICKET_ISSUE_PAGE,)),
        note="Tickets are money-equivalent (TRN-37): never edited. Issuing one (funded by the house) is proposed on "
        "the issue page and done when another staff member approves it (issue 30; over support's goodwill limit, an "
        "administrator); voiding a usable one (its value back to the house) is proposed by the action and done the "
        "same way when another staff member approves it. Both need "
        "`tournaments.manage_tickets`, go through the ledger and are audited. Each ticket shows its audit trail "
        "(issued, used, returned, expired, voided).",
    ),
    "tournaments.tournamentseries": catalogue(
        "Recurring tournaments (TRN-37, AMB-54): a ticket for a series pays any of its tournaments of the ticket's "
        "value."
    ),
    "tournaments.tournamentbar": ModelPowers(
        support=may("view", "add", actions=("lift_bars",)),
        compliance=READ,
        administrators=may("view", "add", actions=("lift_bars",)),
        note="Players barred from tournaments (TRN-28, TRN-09): their registrations are refused. Adding a bar and "
        "lifting one (reason required) need `tournaments.disqualify_player` (a disqualification can bar too); a bar "
        "is a record, never deleted: lifting keeps the row as history. Audited.",
    ),
    "tournaments.tournamenttable": read_only_record("Links to each table's live page."),
    "tournaments.tournamentbreak": read_only_record(),
    "tournaments.tournamentbountyaward": read_only_record(
        "The bounties won per knock-out and winner (TRN-41..TRN-44), each with its transfer."
    ),
    "tournaments.hexaproproductversion": ModelPowers(
        support=READ,
        compliance=READ,
        administrators=may("view", "change", "delete", actions=("schedule_new_version",)),
        note="The HexaPro products' tables (buy-ins with fee components, multipliers, blinds) by effective-from time, "
        "with the expected multiplier and rake equivalent computed from them; the games keep the version they were "
        "drawn with. Administrators alone change them: the copy action schedules a new version from a later time, "
        "whose tables they edit (each save must pass the product rules; audited) or delete until it takes effect; a "
        "version in force, past or used by a game is read-only.",
    ),
    "tournaments.hexaprogame": ModelPowers(
        support=may("view", actions=HEXAPRO_GAME_ACTIONS, pages=(HEXAPRO_AUDIT_PAGE,)),
        compliance=may("view", pages=(HEXAPRO_AUDIT_PAGE,)),
        administrators=may("view", actions=HEXAPRO_GAME_ACTIONS, pages=(HEXAPRO_AUDIT_PAGE,)),
        note="Search by game id or player; the players' places and prizes link to the entry list for a manual prize "
        "credit (HEX-10). Putting an incomplete game in the 90-day queue (HEX-17) needs `tournaments.run_tournament`; "
        "it is decided by the CXL-09 cancellation. The multiplier audit (HEX-31) needs `tournaments.view_hexaprogame`.",
    ),
    "tournaments.hexaproregistration": read_only_record(
        "One registered HexaPro game each: waiting, in a game, withdrawn."
    ),
    "tournaments.payoutstructure": ModelPowers(
        support=may("view", pages=PAYOUT_STRUCTURE_PAGES),
        compliance=READ,
        administrators=may("view", pages=PAYOUT_STRUCTURE_PAGES),
        note="Read only (issue 30): a new structure, a change of one's name and entrant ranges, or its deletion is "
        "proposed on the propose pages (`tournaments.change_payoutstructure`, reason required) and applied when "
        "another holder approves it (rule change proposals). A structure whose shares do not add up to 10,000, "
        "increase from a place to the next, or whose ranges overlap or leave a gap is refused, as is deleting one a "
        "tournament uses; changing one whose tournaments take registrations with players registered needs an "
        "administrator.",
    ),
    # --- site ---
    "core.rulechangeproposal": ModelPowers(
        support=may("view", pages=RULE_CHANGE_DECISION_PAGES),
        compliance=may("view", pages=RULE_CHANGE_DECISION_PAGES),
        administrators=may("view", pages=RULE_CHANGE_DECISION_PAGES),
        note="Issue 30, four eyes on rules: each change, proposed on its rule's page with a reason, is applied when "
        "another staff member than the proposer approves it with that kind's permission (detection thresholds: "
        "`compliance.change_indicatorsetting`; stake terms: `games.add_staketerms`; a game type's rules: "
        "`games.add_gamerules`; payout structures: "
        "`tournaments.change_payoutstructure`; a tournament's guarantee, added prize money and VIP bounty: "
        "`tournaments.change_tournament`; a UTH table's limits and clocks: `uth.change_uthtable`; tournament "
        "tickets: `tournaments.manage_tickets`; an unresolved game's payouts: `wallet.adjust_balance`; a player's "
        "e-mail address: `accounts.change_user`; a seizure of withheld funds: `wallet.seize_hold`; a disqualified "
        "player's prize forfeiture: `tournaments.forfeit_prize`); one out of the "
        "usual range (a rake rate over 10 %, a rake cap over "
        "the catalog's highest, less time to act or to reconnect or a shorter return window than the rule documents "
        "give, a payout change reaching players already registered, over €10,000 of the house's "
        "money in one tournament, a ticket over support's goodwill limit, paying a player whose money was not in the "
        "game) needs an administrator (`core.approve_any_rule_change`, held by no role group). Rejecting needs a "
        "reason. Audited.",
    ),
    # --- wallet ---
    "wallet.account": ModelPowers(
        support=may("view", actions=("propose_adjustment",)),
        compliance=READ,
        administrators=may("view", actions=("propose_adjustment",)),
        note="Proposing an adjustment of a player's cash account needs `wallet.propose_adjustment` (issue 30).",
    ),
    "wallet.adjustmentproposal": ModelPowers(
        support=may("view", "add", pages=PROPOSAL_DECISION_PAGES),
        compliance=READ,
        administrators=may("view", "add", pages=PROPOSAL_DECISION_PAGES),
        note="Issue 30, four eyes on money: a manual adjustment is a proposal (player cash accounts only, never a "
        "system or game account; amount in euros, category, reason) that another staff member than the proposer "
        "approves (booked then, once) or rejects (reason required). Support (`wallet.approve_adjustment`) approves "
        "credits up to the limit of their category (`WALLET_ADJUSTMENT_SUPPORT_LIMITS`: goodwill up to €50.00); any "
        "other credit and every debit needs an administrator (`wallet.approve_any_adjustment`, held by no role "
        "group). Audited.",
    ),
    "wallet.staffadjustment": read_only_record(
        "Adjustments booked by one staff member alone before issue 30: history. New ones are adjustment proposals."
    ),
    "wallet.hold": ModelPowers(
        support=READ,
        compliance=may("view", pages=(HOLD_DECISION_PAGE,)),
        administrators=may("view", pages=(HOLD_DECISION_PAGE,)),
        note="Releasing a hold needs `wallet.release_hold`. Issue 30, four eyes on money: seizing one is only "
        "proposed here (or on the case's page of the desk) by a holder of `wallet.seize_hold`, and applied when "
        "another holder approves the rule change proposal (never the proposer); releasing the hold meanwhile withdraws "
        "the proposal.",
    ),
    "wallet.cashierlimits": ModelPowers(
        support=READ,
        compliance=READ,
        administrators=may("view", "add"),
        note="New limits are a new row; past rows stay.",
    ),
    "wallet.transfer": read_only_record(),
    "wallet.leg": read_only_record(),
    "wallet.cashiertransaction": ModelPowers(
        support=may("view", pages=("wallet_cashiertransaction_settle",)),
        compliance=READ,
        administrators=may("view", pages=("wallet_cashiertransaction_settle",)),
        note="Read only. A deposit a payment provider error left pending (no retry finished it) is settled on its "
        "settle page once 15 minutes old: after checking with the provider, a staff member proposes that it charged "
        "it (its reference: credited under the deposit's key) or did not (the reservation released), reason required "
        "(`wallet.adjust_balance`); it is applied when another holder approves it (issue 30, rule change proposals). "
        "Audited.",
    ),
    "wallet.unresolvedgamefunds": ModelPowers(
        support=may("view", pages=(PROPOSE_RESOLUTION_PAGE,)),
        compliance=READ,
        administrators=may("view", pages=(PROPOSE_RESOLUTION_PAGE,)),
        note="CASH-25 queue, read only. Whom an open case's funds go to is proposed on the case's page "
        "(`wallet.adjust_balance`, reason required) and paid when another holder approves it (issue 30, rule change "
        "proposals); paying a player whose money was not in the game needs an administrator. A HexaPro game's case is "
        "decided by its cancellation (CXL-09).",
    ),
    "wallet.auditentry": read_only_record(
        "The back office's one audit log (LOB-10): every staff action and every admin change, with before and after; "
        "the database refuses UPDATE and DELETE."
    ),
    # --- responsible gaming ---
    "responsible_gaming.depositlimitchange": read_only_record(
        "The player's own deposit limits, one row per change with the time it takes effect (a raise after 24 h)."
    ),
    "responsible_gaming.selfexclusion": read_only_record(
        "Set by the player only; nobody can lift or shorten it before it ends, whatever permissions are held."
    ),
    # --- compliance ---
    "compliance.accountstanding": compliance_record(),
    "compliance.case": compliance_record("Cases are worked on the desk (/compliance/, `compliance.review_cases`)."),
    "compliance.caseaction": compliance_record("Append-only: the database refuses UPDATE and DELETE."),
    "compliance.connectionrecord": compliance_record("Recorded at log-in and at every table socket connect."),
    "compliance.detectorstate": compliance_record("Changed only by the detection task."),
    "compliance.flag": compliance_record(),
    "compliance.playerreport": compliance_record(),
    "compliance.prohibitedprogramreport": compliance_record("Sent by the player's client (FRD-08)."),
    "compliance.videorecordingrequest": compliance_record(),
    "compliance.indicatorsetting": ModelPowers(
        support=NOTHING,
        compliance=may("view", pages=("compliance_indicatorsetting_propose",)),
        administrators=may("view", pages=("compliance_indicatorsetting_propose",)),
        note="The indicators' thresholds (FRD-19): one row per parameter, read only. A change is proposed (new value "
        "and reason; 0 or less refused) with `compliance.change_indicatorsetting` and applied when another reviewer "
        "approves it (issue 30, rule change proposals).",
    ),
    "compliance.playeroverview": ModelPowers(
        support=READ,
        compliance=READ,
        administrators=READ,
        note="LOB-08: balances, holds, sanctions, today's counters, Banzai exclusion, open cases (read only; no "
        "cards, no evidence).",
    ),
}


def markdown_table() -> str:
    """The table as Markdown, one row per admin model in label order (what ``docs/roles.md`` shows)."""
    lines = [
        "| Admin model | " + " | ".join(ROLES) + " | Limits |",
        "|---" * (len(ROLES) + 2) + "|",
    ]
    for label in sorted(ADMIN_POWERS):
        row = ADMIN_POWERS[label]
        cells = [f"`{label}`", *(row.of(role).describe() for role in ROLES), row.note or "—"]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


TABLE_START = "<!-- role table: generated from poker_site/accounts/role_table.py by `manage.py role_table --write` -->"
TABLE_END = "<!-- end of the role table -->"


def page_with_table(page: str) -> str:
    """``page`` (the text of ``docs/roles.md``) with the part between the markers replaced by :func:`markdown_table`.

    Raises ValueError when the markers are missing or out of order."""
    start, end = page.find(TABLE_START), page.find(TABLE_END)
    if start < 0 or end < start:
        raise ValueError(f"the page has no role table between {TABLE_START!r} and {TABLE_END!r}")
    return page[: start + len(TABLE_START)] + "\n" + markdown_table() + page[end:]
