"""The legal actions a client reads (``LegalActions.to_dict``: the snapshot's ``viewer.legal_actions`` and the
``your_turn`` event, docs/protocol.md) list only the kinds a client may send. ``timeout`` is legal for the engine
(the action clock's own action when time runs out, TB-04), but a client that sends it is refused, so listing it among
the player's choices told raw API and socket clients something false (QA report f)."""

from __future__ import annotations

from games.engine.actions import Timeout
from tests.engine.test_state_seed_examples import sx_03_hand


def test_the_engine_still_allows_the_clocks_timeout_but_the_clients_list_leaves_it_out() -> None:
    state = sx_03_hand()
    legal = state.legal_actions()
    assert legal is not None

    assert Timeout.kind in legal.kinds
    listed = legal.to_dict()["kinds"]
    assert Timeout.kind not in listed
    assert listed == [kind for kind in legal.kinds if kind != Timeout.kind]
    assert listed  # the player's own choices are all still there
