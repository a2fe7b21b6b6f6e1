"""Every worked example of CARD-03..CARD-11, seed and derived, with the displayed name and five cards."""

from __future__ import annotations

from games.engine.cards import parse_cards
from games.engine.evaluation import HandCategory, HandValue, evaluate_five, evaluate_holdem, evaluate_omaha


def five(text: str) -> HandValue:
    return evaluate_five(parse_cards(text))


def test_card_09_seed_omaha_misread_one_club_in_hand_makes_no_flush_but_kings_and_sixes() -> None:
    """[seed] Hand A♣ K♦ T♦ 8♥, board K♣ 9♣ 6♣ 6♥ Q♣: no flush; best hand K♦ K♣ 6♣ 6♥ A♣."""
    value = evaluate_omaha(parse_cards("A♣ K♦ T♦ 8♥"), parse_cards("K♣ 9♣ 6♣ 6♥ Q♣"))
    assert value.category is HandCategory.TWO_PAIR
    assert value.display_cards == "K♦ K♣ 6♣ 6♥ A♣"
    assert value.name == "Two Pair, Kings and Sixes"


def test_card_08_the_same_omaha_cards_read_as_holdem_would_make_the_flush_the_player_is_warned_about() -> None:
    """Contrast for CARD-09: with any number of hole cards the clubs make an ace-high flush."""
    value = evaluate_holdem(parse_cards("A♣ K♦"), parse_cards("K♣ 9♣ 6♣ 6♥ Q♣"))
    assert value.category is HandCategory.FLUSH
    assert value.display_cards == "A♣ K♣ Q♣ 9♣ 6♣"


def test_card_09_seed_omaha_misread_board_two_pair_makes_no_full_house_but_trip_tens() -> None:
    """[seed] Hand T♥ 9♥ 7♣ 6♣, board K♠ K♣ T♣ T♦ 5♦: no full house; best hand T♥ T♣ T♦ K♠ 9♥."""
    value = evaluate_omaha(parse_cards("T♥ 9♥ 7♣ 6♣"), parse_cards("K♠ K♣ T♣ T♦ 5♦"))
    assert value.category is HandCategory.THREE_OF_A_KIND
    assert value.display_cards == "T♥ T♣ T♦ K♠ 9♥"
    assert value.name == "Three of a Kind, Tens"


def test_card_09_omaha_uses_exactly_two_hole_cards_even_when_four_to_a_straight_are_held() -> None:
    value = evaluate_omaha(parse_cards("9s Ts Jd Qc"), parse_cards("2h 3h 4d Kc 7s"))
    assert value.category is HandCategory.HIGH_CARD
    assert value.display_cards == "K♣ Q♣ J♦ 7♠ 4♦"


def test_card_09_omaha_uses_exactly_three_board_cards_even_when_the_board_is_a_royal_flush() -> None:
    value = evaluate_omaha(parse_cards("2c 3d 7h 8s"), parse_cards("Ah Kh Qh Jh Th"))
    assert value.category is HandCategory.HIGH_CARD
    assert value.name == "High Card, Ace"


def test_card_05_seed_two_to_six_of_hearts_is_a_straight_flush_not_a_flush_or_straight() -> None:
    value = five("2♥ 3♥ 4♥ 5♥ 6♥")
    assert value.category is HandCategory.STRAIGHT_FLUSH
    assert value.name == "Straight Flush, Six High"
    assert value.display_cards == "6♥ 5♥ 4♥ 3♥ 2♥"
    assert value > five("A♥ K♥ Q♥ J♥ 9♥")  # the best flush that is not a straight flush


def test_card_03_seed_six_high_straight_beats_the_wheel_which_is_five_high() -> None:
    wheel = five("A♠ 2♦ 3♣ 4♥ 5♠")
    assert wheel.category is HandCategory.STRAIGHT
    assert wheel.name == "Straight, Five High"
    assert wheel.display_cards == "5♠ 4♥ 3♣ 2♦ A♠"
    assert five("2♠ 3♦ 4♣ 5♥ 6♠") > wheel


def test_card_03_seed_six_high_straight_flush_beats_the_five_high_straight_flush() -> None:
    steel_wheel = five("A♥ 2♥ 3♥ 4♥ 5♥")
    assert steel_wheel.name == "Straight Flush, Five High"
    assert steel_wheel.display_cards == "5♥ 4♥ 3♥ 2♥ A♥"
    assert five("2♠ 3♠ 4♠ 5♠ 6♠") > steel_wheel


def test_card_03_the_wheel_is_the_lowest_straight() -> None:
    wheel = five("A♠ 2♦ 3♣ 4♥ 5♠")
    for top in "6789TJQKA":
        straight = evaluate_holdem((), parse_cards(_straight_to(top)))
        assert straight.category is HandCategory.STRAIGHT
        assert straight > wheel
    assert wheel > five("K♠ Q♦ J♣ T♥ 8♠")  # but any straight beats any three of a kind or lower


def _straight_to(top: str) -> str:
    ranks = "A23456789TJQKA"
    end = ranks.rindex(top)
    suits = "sdchs"
    return " ".join(ranks[end - offset] + suits[offset] for offset in range(5))


def test_card_03_seed_ten_to_ace_is_the_highest_straight_and_the_royal_flush_the_highest_hand() -> None:
    broadway = five("T♠ J♦ Q♣ K♥ A♠")
    assert broadway.name == "Straight, Ace High"
    assert broadway.display_cards == "A♠ K♥ Q♣ J♦ T♠"
    assert broadway > five("9♠ T♦ J♣ Q♥ K♠")
    royal = five("T♣ J♣ Q♣ K♣ A♣")
    assert royal.category is HandCategory.STRAIGHT_FLUSH
    assert royal.is_royal_flush
    assert royal.category_name == "Royal Flush"
    assert royal.name == "Royal Flush"
    assert royal > five("9♣ T♣ J♣ Q♣ K♣")


def test_card_03_amb_49_queen_king_ace_two_three_does_not_wrap_around_into_a_straight() -> None:
    value = five("Q♠ K♦ A♣ 2♥ 3♠")
    assert value.category is HandCategory.HIGH_CARD
    assert value.name == "High Card, Ace"
    for wrap in ("J♠ Q♦ K♣ A♥ 2♠", "K♠ A♦ 2♣ 3♥ 4♠"):
        assert five(wrap).category is HandCategory.HIGH_CARD
    suited = five("Q♥ K♥ A♥ 2♥ 3♥")
    assert suited.category is HandCategory.FLUSH


def test_card_06_derived_kicker_decides_two_pair_kings_and_sixes() -> None:
    """[derived] K-K-6-6-A beats K-K-6-6-Q."""
    ace_kicker = five("K♠ K♦ 6♣ 6♥ A♠")
    queen_kicker = five("K♣ K♥ 6♠ 6♦ Q♠")
    assert ace_kicker > queen_kicker
    assert ace_kicker.name == queen_kicker.name == "Two Pair, Kings and Sixes"


def test_card_06_derived_flushes_are_decided_at_the_fifth_card() -> None:
    """[derived] flush A-K-9-7-3 beats flush A-K-9-7-2."""
    higher = five("A♦ K♦ 9♦ 7♦ 3♦")
    lower = five("A♠ K♠ 9♠ 7♠ 2♠")
    assert higher > lower
    assert higher.name == lower.name == "Flush, Ace High"
    assert higher.display_cards == "A♦ K♦ 9♦ 7♦ 3♦"


def test_card_07_derived_equal_straights_of_different_suits_tie() -> None:
    """[derived] 9-8-7-6-5 of mixed suits ties with 9-8-7-6-5 of other mixed suits."""
    first = five("9♠ 8♦ 7♣ 6♥ 5♠")
    second = five("9♦ 8♣ 7♥ 6♠ 5♦")
    assert first == second
    assert not first < second
    assert not first > second
    assert hash(first) == hash(second)
    assert first.display_cards != second.display_cards


def test_card_07_identical_flushes_in_different_suits_tie() -> None:
    assert five("A♠ J♠ 8♠ 6♠ 2♠") == five("A♥ J♥ 8♥ 6♥ 2♥")


def test_card_06_quads_compare_by_quad_rank_then_kicker() -> None:
    assert five("9♠ 9♦ 9♣ 9♥ 2♠") > five("8♠ 8♦ 8♣ 8♥ A♠")
    assert five("9♠ 9♦ 9♣ 9♥ K♠") > five("9♠ 9♦ 9♣ 9♥ Q♠")
    assert five("9♠ 9♦ 9♣ 9♥ K♠").name == "Four of a Kind, Nines"


def test_card_06_full_houses_compare_by_trips_then_pair() -> None:
    assert five("3♠ 3♦ 3♣ 2♥ 2♠") > five("2♦ 2♣ 2♥ A♦ A♣")
    assert five("Q♠ Q♦ Q♣ 5♥ 5♠") > five("Q♠ Q♦ Q♥ 4♥ 4♠")
    assert five("Q♠ Q♦ Q♣ 5♥ 5♠").name == "Full House, Queens full of Fives"
    assert five("5♥ Q♠ 5♠ Q♦ Q♣").display_cards == "Q♠ Q♦ Q♣ 5♥ 5♠"


def test_card_06_three_of_a_kind_compares_trips_then_higher_then_lower_kicker() -> None:
    assert five("7♠ 7♦ 7♣ 3♥ 2♠") > five("6♠ 6♦ 6♣ A♥ K♠")
    assert five("7♠ 7♦ 7♣ A♥ 2♠") > five("7♠ 7♦ 7♥ K♥ Q♠")
    assert five("7♠ 7♦ 7♣ A♥ 3♠") > five("7♠ 7♦ 7♥ A♦ 2♠")


def test_card_06_two_pair_compares_higher_pair_then_lower_pair_then_kicker() -> None:
    assert five("A♠ A♦ 2♣ 2♥ 3♠") > five("K♠ K♦ Q♣ Q♥ J♠")
    assert five("A♠ A♦ 3♣ 3♥ 2♠") > five("A♣ A♥ 2♣ 2♥ K♠")


def test_card_06_a_pair_compares_pair_rank_then_each_kicker_in_turn() -> None:
    assert five("2♠ 2♦ 5♣ 4♥ 3♠") > five("A♠ K♦ Q♣ J♥ 9♠")
    assert five("J♠ J♦ A♣ 4♥ 3♠") > five("J♣ J♥ K♣ Q♥ T♠")
    assert five("J♠ J♦ A♣ K♥ 3♠") > five("J♣ J♥ A♦ K♣ 2♠")
    assert five("J♠ J♦ A♣ K♥ 3♠").name == "Pair of Jacks"


def test_card_06_high_cards_compare_from_the_highest_down_to_the_fifth() -> None:
    assert five("A♠ Q♦ 9♣ 7♥ 3♠") > five("A♣ Q♥ 9♦ 7♠ 2♣")
    assert five("A♠ Q♦ 9♣ 7♥ 3♠") < five("A♣ K♥ 4♦ 3♥ 2♣")


def test_card_04_the_categories_rank_in_the_published_order() -> None:
    ladder = [
        five("A♠ Q♦ 9♣ 7♥ 3♠"),
        five("2♠ 2♦ 5♣ 4♥ 3♠"),
        five("3♠ 3♦ 2♣ 2♥ 4♠"),
        five("2♠ 2♦ 2♣ 4♥ 3♠"),
        five("A♠ 2♦ 3♣ 4♥ 5♠"),
        five("2♦ 3♦ 4♦ 5♦ 7♦"),
        five("2♠ 2♦ 2♣ 3♥ 3♠"),
        five("2♠ 2♦ 2♣ 2♥ 3♠"),
        five("A♥ 2♥ 3♥ 4♥ 5♥"),
    ]
    assert [value.category for value in ladder] == list(HandCategory)
    assert ladder == sorted(ladder)
    assert [category.display_name for category in HandCategory] == [
        "High Card",
        "Pair",
        "Two Pair",
        "Three of a Kind",
        "Straight",
        "Flush",
        "Full House",
        "Four of a Kind",
        "Straight Flush",
    ]


def test_card_08_holdem_may_use_both_one_or_no_hole_cards() -> None:
    board = parse_cards("Q♠ J♠ T♠ 9♦ 2♣")
    both = evaluate_holdem(parse_cards("A♠ K♠"), board)
    assert both.name == "Royal Flush"
    assert both.display_cards == "A♠ K♠ Q♠ J♠ T♠"
    one = evaluate_holdem(parse_cards("K♦ 3♣"), board)
    assert one.name == "Straight, King High"
    assert one.display_cards == "K♦ Q♠ J♠ T♠ 9♦"
    none = evaluate_holdem(parse_cards("3♦ 5♣"), parse_cards("A♠ K♠ Q♠ J♠ T♠"))
    assert none.name == "Royal Flush"
    assert none.display_cards == "A♠ K♠ Q♠ J♠ T♠"


def test_card_10_uth_player_and_dealer_make_the_best_five_of_seven_and_can_tie_on_the_board() -> None:
    board = parse_cards("A♠ K♦ Q♣ J♥ T♠")
    player = evaluate_holdem(parse_cards("2♣ 3♦"), board)
    dealer = evaluate_holdem(parse_cards("4♥ 7♥"), board)
    assert player == dealer
    assert player.name == "Straight, Ace High"


def test_card_11_the_result_carries_category_five_cards_and_a_comparable_key() -> None:
    value = evaluate_holdem(parse_cards("K♦ 6♥"), parse_cards("K♣ 6♣ A♣ 2♦ 9♠"))
    assert value.category is HandCategory.TWO_PAIR
    assert len(value.cards) == 5
    assert value.display_cards == "K♦ K♣ 6♥ 6♣ A♣"
    assert str(value) == "Two Pair, Kings and Sixes (K♦ K♣ 6♥ 6♣ A♣)"
    assert value.ranks == (13, 6, 14)
    assert isinstance(value.strength, int)
