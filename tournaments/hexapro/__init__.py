"""HexaPro and HexaPro Extreme on the tournament runtime (§8 HEX-01..HEX-31, FEE-06, CXL-09, TB-02/TB-06).

* :mod:`tournaments.hexapro.models` — the products as back-office rows with an effective-from time, the games (one
  :class:`~tournaments.models.Tournament` of kind ``hexapro`` each, with its draw) and the registrations (one seat
  each, waiting until three players' registrations at one buy-in form a game).
* :mod:`tournaments.hexapro.products` — the rows in force read as the pure :class:`HexaProProduct`.
* :mod:`tournaments.hexapro.services` — registering (one debit of the total), forming games (the draw and the one
  transfer of the game's money), withdrawing a waiting registration, the prizes at game end, the staff's manual
  credit and the 90-day queue for incomplete games.
* :mod:`tournaments.hexapro.readside` — what the lobby tab, the HexaPro page, the history and the audit show.

The pure rules are in :mod:`tournaments.rules.hexapro`, :mod:`tournaments.rules.hexapro_matching` and
:mod:`tournaments.rules.hexapro_audit`.
"""
