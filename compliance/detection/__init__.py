"""Fraud indicators over hand records (standard library and ``games.engine`` only, no Django).

The same detectors run over hands stored by the site and over PHH hand histories (``manage.py compliance_scan``).
``tests/engine/test_rule_packages_are_pure.py`` keeps this package free of framework imports.
"""
