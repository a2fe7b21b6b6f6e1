from collections.abc import Callable

from django.http import HttpResponseBase
from django.urls import path
from django.views.generic import RedirectView

from poker_site.accounts import views

app_name = "accounts"


def usual_address(pattern_name: str) -> Callable[..., HttpResponseBase]:
    """The address other sites use for a page (``login/`` for ``log-in/``): a permanent redirect that keeps the query
    string, so ``?next=`` still brings the player back where they were."""
    return RedirectView.as_view(pattern_name=pattern_name, query_string=True, permanent=True)


urlpatterns = [
    path("sign-up/", views.sign_up, name="sign_up"),
    path("log-in/", views.LogInView.as_view(), name="login"),
    path("log-out/", views.LogOutView.as_view(), name="logout"),
    # A forgotten password: the link by e-mail (poker_site/accounts/password_reset.py).
    path("password-reset/", views.PasswordResetView.as_view(), name="password_reset"),
    path("password-reset/sent/", views.PasswordResetDoneView.as_view(), name="password_reset_done"),
    path("password-reset/<uidb64>/<token>/", views.PasswordResetConfirmView.as_view(), name="password_reset_confirm"),
    path("password-reset/done/", views.PasswordResetCompleteView.as_view(), name="password_reset_complete"),
    path("login/", usual_address("accounts:login")),
    path("signin/", usual_address("accounts:login")),
    path("signup/", usual_address("accounts:sign_up")),
    path("register/", usual_address("accounts:sign_up")),
    path("forgot-password/", usual_address("accounts:password_reset")),
]
