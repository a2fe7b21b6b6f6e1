"""The pure, deterministic poker engine: standard library only, no Django (see tests/engine/test_engine_is_pure.py).

Modules: ``cards`` (cards, deck, shuffling), ``evaluation`` (hand ranking), ``rake`` (cash-game rake), and the hand
state machine. Import from the modules directly; this package keeps no re-exports so importing it stays cheap.
"""
