"""The handshake headers of a socket opened from the site's own pages in tests (Django's test host is
``testserver``): the page's origin (scheme, host and port, poker_site/core/socket_origins.py) and the host connected
to."""

SITE_HEADERS = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
