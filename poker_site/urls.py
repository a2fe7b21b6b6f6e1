"""URL routes. Each app adds its pages under its own prefix and its API under /api/<app>/."""

from importlib.util import find_spec

from csp.decorators import csp_update
from django.contrib import admin
from django.templatetags.static import static
from django.urls import URLPattern, URLResolver, include, path
from django.views.generic import RedirectView
from django.views.i18n import JavaScriptCatalog
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerSplitView

from poker_site.accounts.forms import AdminLoginForm
from poker_site.accounts.urls import usual_address
from poker_site.core.content_security import API_DOCS_POLICY
from poker_site.core.health import healthz
from poker_site.core.views import home

admin.site.site_header = "Poker operator back office"
admin.site.site_title = "Back office"
admin.site.login_form = AdminLoginForm  # says when the brute-force lock refused the log-in

urlpatterns: list[URLPattern | URLResolver] = [
    path("", home, name="home"),
    path("healthz", healthz, name="healthz"),
    # Browsers ask for /favicon.ico whatever a page links (the admin's and the API docs' pages link no icon): without
    # this every such page logged a 404. Permanent: the static file's address does not change.
    path("favicon.ico", RedirectView.as_view(url=static("favicon.ico"), permanent=True), name="favicon"),
    path("admin/", admin.site.urls),
    path("accounts/", include("poker_site.accounts.urls")),
    path("login/", usual_address("accounts:login")),
    path("signup/", usual_address("accounts:sign_up")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("rules/", include("poker_site.core.rules_urls")),
    path("responsible-gaming/", include("poker_site.responsible_gaming.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path(
        "api/docs/",
        csp_update(API_DOCS_POLICY)(SpectacularSwaggerSplitView.as_view(url_name="schema")),
        name="api-docs",
    ),
    path(
        "api/redoc/",
        csp_update(API_DOCS_POLICY)(SpectacularRedocView.as_view(url_name="schema", template_name="api/redoc.html")),
        name="api-redoc",
    ),
]

# Apps publish pages in <app>/urls.py and API endpoints in <app>/api_urls.py.
for app, prefix in (
    ("games", "games"),
    ("games.uth", "uth"),
    ("tournaments", "tournaments"),
    ("wallet", "wallet"),
    ("compliance", "compliance"),
):
    if find_spec(f"{app}.urls") is not None:
        urlpatterns.append(path(f"{prefix}/", include(f"{app}.urls")))
    if find_spec(f"{app}.api_urls") is not None:
        urlpatterns.append(path(f"api/{prefix}/", include(f"{app}.api_urls")))

handler404 = "poker_site.core.error_pages.page_not_found"
handler500 = "poker_site.core.error_pages.server_error"
