"""FRD-19, FRD-02: soft play judges a pair on the decisions one player made against the other even when that other
never made a counted decision himself (he only ever folded, or always faced bets of his whole stack). Such a pair
once made computing the flags raise a KeyError, and with it every detection batch of the site after it."""

from __future__ import annotations

from compliance.detection.soft_play import _WIDTH, SoftPlay


def soft_play_with_one_sided_pair(decisions: int, aggressive: int) -> SoftPlay:
    indicator = SoftPlay()
    state = indicator.state()
    against = [0] * _WIDTH
    against[0], against[1] = decisions, aggressive  # the first situation: ann's decisions against bea
    field = [0] * _WIDTH
    field[0], field[1] = decisions + 400, aggressive + 240  # ann against everybody, bea included
    state["totals"] = list(field)
    state["players"] = {"ann": field}  # bea has no counted decision of her own
    state["pairs"] = [["ann", "bea", against, [0] * _WIDTH, ["hand:1"]]]
    indicator.load_state(state)
    return indicator


def test_a_pair_whose_second_player_never_decided_is_judged_on_the_first_players_decisions() -> None:
    indicator = soft_play_with_one_sided_pair(decisions=60, aggressive=30)

    judged = indicator.judge("ann", "bea")

    assert judged is not None
    assert judged["decisions"] == 60
    assert judged["second_expected"] == 0.0
    assert indicator.verdict("ann", "bea") == "no finding"
    assert indicator.flags() == []


def test_such_a_pair_sparing_its_partner_is_still_flagged() -> None:
    indicator = soft_play_with_one_sided_pair(decisions=200, aggressive=0)

    (flag,) = indicator.flags()

    assert flag.players == ("ann", "bea")
    assert flag.score >= flag.threshold
