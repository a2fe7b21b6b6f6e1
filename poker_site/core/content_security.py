"""The Content-Security-Policy header (django-csp), with the page's own socket origin allowed in connect-src.

CONTENT_SECURITY_POLICY in settings is the site-wide policy. The pages open WebSockets to the host that served them
(``ws://`` or ``wss://`` by the page's scheme); ``'self'`` covers that in current browsers but not in older ones, and
the host is only known per request, so :class:`SiteContentSecurityPolicyMiddleware` adds it. Views widen the policy
with django-csp's decorators (``csp.decorators.csp_update``): the API docs pages do (poker_site/urls.py).
"""

from __future__ import annotations

from csp.middleware import CSPMiddleware, PolicyParts
from django.core.exceptions import DisallowedHost
from django.http import HttpRequest, HttpResponseBase

# Swagger UI and Redoc (drf-spectacular's sidecar copies, served from 'self') style their pages with <style> elements
# (their data: images are allowed site-wide), and Redoc parses the schema in a Web Worker made from a blob: URL.
# Their scripts still come from files only: the Swagger page is the split view, whose start-up script is a separate
# request, and the Redoc page (templates/api/redoc.html) has no inline script.
API_DOCS_POLICY = {
    "style-src": ["'unsafe-inline'"],
    "worker-src": ["'self'", "blob:"],
}


class SiteContentSecurityPolicyMiddleware(CSPMiddleware):
    """django-csp's middleware, adding ``ws(s)://<host>`` of the request to connect-src."""

    def get_policy_parts(
        self, request: HttpRequest, response: HttpResponseBase, report_only: bool = False
    ) -> PolicyParts:
        parts = super().get_policy_parts(request, response, report_only)
        try:
            host = request.get_host()
        except DisallowedHost:
            return parts
        socket_origin = f"{'wss' if request.is_secure() else 'ws'}://{host}"
        update = dict(parts.update or {})
        update["connect-src"] = [*update.get("connect-src", ()), socket_origin]
        parts.update = update
        return parts
