"""Estonian date formats the site uses on top of Django's: Django's Estonian locale has no SHORT_DATETIME_FORMAT, so
``|date:"SHORT_DATETIME_FORMAT"`` fell back to the American "m/d/Y P" ("11/25/2026 2:19 p.l."). Estonians write the
day first and the 24-hour clock."""

DATE_FORMAT = "j. F Y"
TIME_FORMAT = "H:i"
DATETIME_FORMAT = "j. F Y H:i"
SHORT_DATE_FORMAT = "d.m.Y"
SHORT_DATETIME_FORMAT = "d.m.Y H:i"
MONTH_DAY_FORMAT = "j. F"
DECIMAL_SEPARATOR = ","
THOUSAND_SEPARATOR = "\u00a0"
