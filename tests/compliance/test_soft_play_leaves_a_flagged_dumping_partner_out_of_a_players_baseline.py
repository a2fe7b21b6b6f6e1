"""FRD-02, FRD-19, issue 31: a player's play against "the field" is their ordinary play — soft play leaves out of a
player's baseline the decisions against an opponent they were flagged with for dumping or net flow. A receiver who
bets into its dumper every time is not, for that, sparing an honest player it plays as it plays everybody else."""

from __future__ import annotations

from compliance.detection.soft_play import SoftPlay


def counts(decisions: int, aggressive: int) -> list[int]:
    """Decisions after the flop when nobody has bet (the third situation), and the aggressive ones."""
    return [0, 0, 0, 0, decisions, aggressive, 0, 0]


def room() -> SoftPlay:
    """``rec`` bets into its dumper ``dum`` 180 times in 200, and plays everybody else — ``hon`` included — at one bet
    in four; so does ``hon``."""
    indicator = SoftPlay()
    indicator.load_state(
        {
            "format": 1,
            "totals": counts(4_000, 1_000),
            "players": {
                "rec": counts(200 + 100 + 300, 180 + 25 + 75),
                "hon": counts(100 + 300, 25 + 75),
                "dum": counts(200, 20),
            },
            "pairs": [
                ["dum", "rec", counts(200, 20), counts(200, 180), []],
                ["hon", "rec", counts(100, 25), counts(100, 25), []],
            ],
        }
    )
    return indicator


def test_with_the_dumping_partner_in_its_baseline_the_receiver_looks_like_it_spares_an_honest_player() -> None:
    judged = room().judge("hon", "rec")
    assert judged is not None
    assert judged["ratio"] < 0.8  # the receiver "should" bet 46 % of the time against anyone
    assert judged["score"] > 3


def test_leaving_the_flagged_partner_out_of_the_baseline_clears_the_honest_player() -> None:
    indicator = room()
    indicator.exclude_from_baselines([("dum", "rec")])

    judged = indicator.judge("hon", "rec")
    assert judged is not None
    assert abs(judged["ratio"] - 1.0) < 0.1  # one bet in four, as against everybody else
    assert judged["score"] < 1
    assert indicator.verdict("hon", "rec") == "no finding"
    assert indicator.flags() == []  # and the dumping pair bets into each other more than usual: no soft play either


def test_the_pair_itself_is_still_judged_against_the_rest_of_their_play() -> None:
    """Leaving the partner out of the baselines does not hide the pair's own play: dum against rec is judged against
    dum's play with everybody but rec, as always."""
    indicator = room()
    indicator.exclude_from_baselines([("dum", "rec")])
    assert indicator.judge("dum", "rec") == room().judge("dum", "rec")
