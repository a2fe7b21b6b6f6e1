#!/usr/bin/env python3
"""Verify a provably fair poker hand from its PHH hand history, or an Ultimate Texas Hold'em round from its proof
file, with the Python standard library only (3.11+).

Usage: ``python3 verify_hand.py HAND.phh [MORE.phh ...]`` (``.phhs`` files with several hands work too). Download a
hand's history from the hand replayer ("Download PHH") or ``GET /api/games/hands/<id>/phh/``.

UTH: ``python3 verify_hand.py uth-<game number>.json`` (the table page's Game history, "Download", or
``GET /api/uth/rounds/<game number>/verification/``). It checks the commitment against the seed and that the player
cards are deck[0:2], the dealer's cards deck[2:4] and the board deck[4:9] (no client seeds); add
``--commitment HEX`` to compare with the commitment you noted before the deal.

For each hand it checks, as ``docs/fairness.md`` describes:

1. the commitment published before the first card (``_deck_commitment``) is SHA-256 of the framed domain and the
   revealed server seed (``_server_seed``);
2. the deck derived from the server seed and the client seeds (``_client_seeds``) deals exactly the hole cards
   (``d dh`` lines; ``??`` cards are not known to you and are skipped) and the board (``d db`` lines) of the history.

Prints ``verified`` or what does not match, per hand; exits 1 if any hand does not verify.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import sys
import tomllib

RANKS = "23456789TJQKA"
SUITS = "cdhs"
DECK = [rank + suit for rank in RANKS for suit in SUITS]  # 2c 2d 2h 2s 3c ... As: the fixed starting order
ALGORITHM = "hmac-sha256-fisher-yates/v1"


def frame(data: bytes) -> bytes:
    """4-byte big-endian length, then the bytes."""
    return len(data).to_bytes(4, "big") + data


def commitment(domain: str, server_seed: bytes) -> str:
    return hashlib.sha256(frame(domain.encode("utf-8")) + server_seed).hexdigest()


def derived_deck(server_seed: bytes, client_seeds: dict[int, bytes], domain: str) -> list[str]:
    """Fisher-Yates over DECK driven by the HMAC-SHA-256 stream, one byte per draw, biased bytes rejected."""
    material = frame(domain.encode("utf-8")) + len(client_seeds).to_bytes(4, "big")
    for seat in sorted(client_seeds):
        material += seat.to_bytes(4, "big") + frame(client_seeds[seat])
    stream = bytearray()
    counter = 0
    position = 0
    deck = list(DECK)
    for i in range(len(deck) - 1, 0, -1):
        bound = i + 1
        limit = 256 - 256 % bound
        while True:
            if position == len(stream):
                stream += hmac.new(server_seed, material + counter.to_bytes(8, "big"), hashlib.sha256).digest()
                counter += 1
            byte = stream[position]
            position += 1
            if byte < limit:
                break
        j = byte % bound
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def cards_of(text: str) -> list[str]:
    return [text[index : index + 2] for index in range(0, len(text), 2)]


def verify(fields: dict) -> list[str]:
    """The problems of one PHH hand (empty: verified)."""
    if fields.get("_fairness_algorithm") != ALGORITHM:
        return [f"unknown or missing _fairness_algorithm {fields.get('_fairness_algorithm')!r}"]
    domain = fields["_fairness_domain"]
    server_seed = bytes.fromhex(fields["_server_seed"])
    client_seeds = {}
    for item in fields.get("_client_seeds", []):
        seat, seed = item.split(":")
        client_seeds[int(seat)] = bytes.fromhex(seed)
    problems = []
    recomputed = commitment(domain, server_seed)
    if recomputed != fields["_deck_commitment"].lower():
        problems.append(f"commitment {fields['_deck_commitment']} is not SHA-256 of the revealed seed ({recomputed})")
    deck = derived_deck(server_seed, client_seeds, domain)
    players = len(fields["starting_stacks"])  # p1..pn: the dealing order, first seat after the button
    holes = 4 if fields["variant"] == "PO" else 2
    board = deck[players * holes :]
    dealt_board: list[str] = []
    for action in fields["actions"]:
        parts = action.split("#")[0].split()
        if parts[:2] == ["d", "dh"]:
            player = int(parts[2][1:]) - 1
            for round_, card in enumerate(cards_of(parts[3])):
                expected = deck[round_ * players + player]
                if card != "??" and card != expected:
                    problems.append(f"p{player + 1}'s hole card {round_ + 1} is {card}, the seeds give {expected}")
        elif parts[:2] == ["d", "db"]:
            dealt_board += cards_of(parts[2])
    if dealt_board != board[: len(dealt_board)]:
        problems.append(f"the board is {' '.join(dealt_board)}, the seeds give {' '.join(board[: len(dealt_board)])}")
    return problems


UTH_FORMAT = "uth-round/v1"
UTH_POSITIONS = {"player_cards": (0, 2), "dealer_cards": (2, 4), "board": (4, 9)}
"""Where a UTH round's cards sit in its deck (docs/fairness.md, "Dealing from the deck (UTH)")."""


def verify_uth(fields: dict, noted_commitment: str | None = None) -> list[str]:
    """The problems of one UTH round proof (empty: verified)."""
    if fields.get("algorithm") != ALGORITHM:
        return [f"unknown or missing algorithm {fields.get('algorithm')!r}"]
    domain = fields["domain"]
    server_seed = bytes.fromhex(fields["server_seed"])
    problems = []
    if not domain.startswith("uth-deck/v1/"):
        problems.append(f"the domain {domain!r} is not a UTH round's")
    recomputed = commitment(domain, server_seed)
    if recomputed != fields["commitment"].lower():
        problems.append(f"commitment {fields['commitment']} is not SHA-256 of the revealed seed ({recomputed})")
    if noted_commitment is not None and noted_commitment.lower() != fields["commitment"].lower():
        noted = noted_commitment
        problems.append(f"commitment {fields['commitment']} is not the one you noted before the deal ({noted})")
    deck = derived_deck(server_seed, {}, domain)
    for name, (start, end) in UTH_POSITIONS.items():
        dealt = list(fields.get(name, []))
        expected = deck[start : start + len(dealt)]
        if len(dealt) > end - start or dealt != expected:
            label = name.replace("_", " ")
            problems.append(f"the {label} are {' '.join(dealt)}, the seeds give {' '.join(deck[start:end])}")
    return problems


def hands_in(text: str) -> list[tuple[str, dict]]:
    document = tomllib.loads(text)
    if "variant" in document:
        return [("hand", document)]
    return [(f"hand [{key}]", value) for key, value in document.items() if isinstance(value, dict)]


def main(arguments: list[str]) -> int:
    failed = 0
    noted = None
    paths = []
    iterator = iter(arguments)
    for argument in iterator:
        if argument == "--commitment":
            noted = next(iterator, "")
        else:
            paths.append(argument)
    for path in paths:
        with open(path, "rb") as source:
            text = source.read().decode("utf-8")
        if text.lstrip().startswith("{"):
            document = json.loads(text)
            if document.get("format") != UTH_FORMAT:
                failed += 1
                print(f"{path}: not a UTH round proof (format {document.get('format')!r})")
                continue
            problems = verify_uth(document, noted)
            label = f"{path} game {document.get('game_number', '?')} {document.get('domain', '')}"
            failed += bool(problems)
            for problem in problems or ["verified"]:
                print(f"{label}: {problem}")
            continue
        for name, fields in hands_in(text):
            problems = verify(fields)
            label = f"{path} {name} {fields.get('_fairness_domain', '')}".strip()
            if problems:
                failed += 1
                for problem in problems:
                    print(f"{label}: {problem}")
            else:
                print(f"{label}: verified")
    return 1 if failed else 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        print(__doc__)
        sys.exit(2)
    sys.exit(main(sys.argv[1:]))
