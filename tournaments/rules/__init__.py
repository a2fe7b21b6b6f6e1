"""The tournament rules as plain functions (standard library and ``games.engine`` only, no Django).

Level schedules, breaks, late registration, seating and balancing, elimination order, payouts, fees, ICM and the
cancellation policy are decided here from plain values; ``tournaments.services`` load rows, call these and store the
outcome. ``tests/engine/test_rule_packages_are_pure.py`` keeps this package free of framework imports.
"""
