"""Ultimate Texas Hold'em services (``<entity>_<verb>``), e.g. ``from games.uth.services import uth_decide``.

Every top-level service owns its transaction (``@transaction.atomic(durable=True)``), refuses bad requests with a
:class:`~games.uth.errors.UthRefused` before anything is kept, moves money only through the wallet and tells the
sockets about committed changes in ``transaction.on_commit`` (games.uth.realtime).
"""

from games.uth.services.bets import uth_bet_clear, uth_bet_double, uth_bet_place, uth_bet_repeat, uth_bet_undo
from games.uth.services.chat import uth_chat_message_post
from games.uth.services.decisions import uth_decide
from games.uth.services.malfunction import uth_round_cancel, uth_round_pause, uth_round_resume
from games.uth.services.rounds import REVEAL_PAUSE, uth_betting_close, uth_phase_end, uth_round_open
from games.uth.services.seats import uth_player_disconnected, uth_seat_leave, uth_seat_take

__all__ = [
    "REVEAL_PAUSE",
    "uth_bet_clear",
    "uth_bet_double",
    "uth_bet_place",
    "uth_bet_repeat",
    "uth_bet_undo",
    "uth_betting_close",
    "uth_chat_message_post",
    "uth_decide",
    "uth_phase_end",
    "uth_player_disconnected",
    "uth_round_cancel",
    "uth_round_open",
    "uth_round_pause",
    "uth_round_resume",
    "uth_seat_leave",
    "uth_seat_take",
]
