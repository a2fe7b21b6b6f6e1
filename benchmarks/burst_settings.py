"""The site's settings for ``bench_burst.py``'s web process: the REST API's anonymous and per-user throttles are off.

Every request of the benchmark comes from 127.0.0.1; with the lobby's 60-per-minute anonymous throttle, all but the
first 60 would be answered 429 from Redis before reaching the database, and the burst would measure the throttle. A
burst from many addresses passes the throttle; lifting it from one address reproduces that.
"""

from poker_site.settings import *  # noqa: F403
from poker_site.settings import REST_FRAMEWORK

REST_FRAMEWORK = {**REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"anon": None, "user": None}}
