"""Cards and the deck (CARD-01, CARD-03): one standard 52-card deck, text and symbol forms, parsing."""

from __future__ import annotations

import copy
import pickle

import pytest

from games.engine.cards import FULL_DECK, RANKS, SUITS, Card, InvalidCardError, format_cards, parse_cards


def test_card_01_the_deck_has_52_distinct_cards_13_ranks_of_4_suits_and_no_jokers() -> None:
    assert len(FULL_DECK) == 52
    assert len(set(FULL_DECK)) == 52
    assert {card.rank for card in FULL_DECK} == set(range(2, 15))
    assert {card.suit for card in FULL_DECK} == {"c", "d", "h", "s"}
    for rank in range(2, 15):
        assert sorted(card.suit for card in FULL_DECK if card.rank == rank) == ["c", "d", "h", "s"]


def test_the_full_deck_is_in_a_fixed_order_and_each_card_knows_its_position() -> None:
    assert [str(card) for card in FULL_DECK[:5]] == ["2c", "2d", "2h", "2s", "3c"]
    assert str(FULL_DECK[-1]) == "As"
    for position, card in enumerate(FULL_DECK):
        assert card.index == position
        assert Card.from_index(position) is card


def test_card_03_the_ace_has_rank_14_and_the_deuce_rank_2() -> None:
    assert Card.from_text("As").rank == 14
    assert Card.from_text("2c").rank == 2
    assert [Card.from_text(character + "h").rank for character in RANKS] == list(range(2, 15))


def test_a_card_reads_and_writes_its_two_character_text_form() -> None:
    card = Card.from_text("As")
    assert (card.rank, card.suit) == (14, "s")
    assert str(card) == "As"
    assert all(str(Card.from_text(str(card))) == str(card) for card in FULL_DECK)


def test_text_parsing_accepts_lower_case_ten_as_10_and_suit_symbols() -> None:
    assert Card.from_text("td") is Card.from_text("Td")
    assert Card.from_text("10d") is Card.from_text("Td")
    assert Card.from_text("aS") is Card.from_text("As")
    assert Card.from_text("A♠") is Card.from_text("As")
    assert Card.from_text(" K♦ ") is Card.from_text("Kd")


def test_the_display_form_uses_suit_symbols() -> None:
    assert Card.from_text("As").symbol == "A♠"
    assert Card.from_text("Td").symbol == "T♦"
    assert Card.from_text("6h").symbol == "6♥"
    assert Card.from_text("2c").symbol == "2♣"
    assert Card.from_text("Qh").name == "Queen of Hearts"


@pytest.mark.parametrize("text", ["", "A", "1s", "Ax", "AsK", "Ass", "11h", "Zs", "0c", "As Kd"])
def test_text_that_is_not_one_card_is_rejected(text: str) -> None:
    with pytest.raises(InvalidCardError):
        Card.from_text(text)


def test_constructing_a_card_from_rank_and_suit_returns_the_one_interned_instance() -> None:
    assert Card(14, "s") is Card.from_text("As")
    assert Card(10, "h") == Card.from_text("Th")
    with pytest.raises(InvalidCardError):
        Card(1, "s")
    with pytest.raises(InvalidCardError):
        Card(15, "s")
    with pytest.raises(InvalidCardError):
        Card(14, "x")
    with pytest.raises(InvalidCardError):
        Card.from_index(52)


def test_cards_are_immutable() -> None:
    card = Card.from_text("As")
    with pytest.raises(AttributeError):
        card.rank = 2
    with pytest.raises(AttributeError):
        del card.suit


def test_cards_survive_pickle_and_copy_as_the_same_value() -> None:
    card = Card.from_text("Qh")
    assert pickle.loads(pickle.dumps(card)) is card
    assert copy.copy(card) is card
    assert copy.deepcopy([card]) == [card]


def test_cards_hash_by_deck_position_so_set_order_is_the_same_in_every_process() -> None:
    assert [hash(card) for card in FULL_DECK] == list(range(52))
    assert len({Card.from_text("As"), Card.from_text("As"), Card.from_text("Ks")}) == 2


def test_cards_sort_by_rank_then_suit() -> None:
    cards = parse_cards("As 2d Kc 2c Ah")
    assert [str(card) for card in sorted(cards)] == ["2c", "2d", "Kc", "Ah", "As"]
    assert Card.from_text("2s") < Card.from_text("3c")


def test_parse_cards_reads_lists_with_or_without_separators() -> None:
    expected = (Card.from_text("As"), Card.from_text("Kd"), Card.from_text("7h"))
    assert parse_cards("As Kd 7h") == expected
    assert parse_cards("AsKd7h") == expected
    assert parse_cards("A♠ K♦ 7♥") == expected
    assert parse_cards("As,Kd, 7h") == expected
    assert parse_cards("10s") == (Card.from_text("Ts"),)
    assert parse_cards("") == ()


@pytest.mark.parametrize("text", ["As K", "AsKx", "As Kd 7", "hello"])
def test_parse_cards_rejects_anything_that_is_not_a_card_list(text: str) -> None:
    with pytest.raises(InvalidCardError):
        parse_cards(text)


def test_format_cards_prints_symbols_or_text() -> None:
    cards = parse_cards("Kd Kc 6c 6h Ac")
    assert format_cards(cards) == "K♦ K♣ 6♣ 6♥ A♣"
    assert format_cards(cards, symbols=False) == "Kd Kc 6c 6h Ac"


def test_suit_characters_are_in_a_fixed_order() -> None:
    assert SUITS == "cdhs"
