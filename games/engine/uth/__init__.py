"""Ultimate Texas Hold'em against the house (UTH-01..UTH-39): the pure round logic beside the poker engine.

Modules:

* ``money`` — cents as text ("€12.50") for messages;
* ``paytables`` — hand classes (Royal Flush .. High Card), odds, the Blind and Trips paytables (UTH-18, UTH-19);
* ``settlement`` — dealer qualification and the outcome table for ANTE, BLIND, PLAY and TRIPS (UTH-13..UTH-20);
* ``betting`` — bet limits and the bet slip of the betting window: chips, DOUBLE, REPEAT, UNDO (UTH-05..07, UTH-22..31);
* ``round`` — dealing, the three decision phases with automatic CHECK / FOLD, the multi-player round state
  (UTH-03, UTH-08..UTH-12, UTH-36..UTH-38);
* ``strategy`` — a documented near-optimal playing strategy (used by the RTP simulation and the benchmark);
* ``rtp`` — the exact Trips return by counting all 7-card hands, and the simulated Ante/Blind/Play return (UTH-21);
* ``main_bet_exact`` — the exact Ante/Blind/Play return of the strategy, every deal counted (UTH-21).

Standard library only, like the rest of games.engine. Import from the modules directly.
"""
