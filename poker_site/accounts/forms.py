"""Sign-up and log-in forms."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from poker_site.accounts import throttle
from poker_site.accounts.backends import SIGN_IN_REFUSED
from poker_site.accounts.models import User


class SignUpForm(UserCreationForm):  # type: ignore[type-arg,unused-ignore]
    email = forms.EmailField(label=_("Email"), required=True)

    class Meta:
        model = User
        fields = ("username", "email")

    def clean_email(self) -> str:
        email = self.cleaned_data["email"].strip().lower()
        if User.objects.filter(email__iexact=email).exists():
            raise forms.ValidationError(_("An account with this email already exists."))
        return email


class LockoutExplainedMixin:
    """For a log-in form: when the log-in failed because of the brute-force lock, say so and for how long, and when
    the account is suspended or terminated (after the right password), say that, instead of Django's "enter a correct
    username and password"."""

    request: HttpRequest | None
    cleaned_data: dict[str, Any]

    def get_invalid_login_error(self) -> forms.ValidationError:
        refusal = getattr(self.request, SIGN_IN_REFUSED, "")
        if refusal:  # the right password of a suspended or terminated account (FRD-18)
            return forms.ValidationError(refusal, code="account_blocked")
        username = str(self.cleaned_data.get("username") or "")
        seconds = throttle.seconds_locked(username, throttle.client_address(self.request)) if username else 0
        if not seconds:
            return super().get_invalid_login_error()  # type: ignore[misc]
        minutes = max(1, (seconds + 59) // 60)
        return forms.ValidationError(
            ngettext(
                "Too many failed log-in attempts. Try again in %(minutes)d minute.",
                "Too many failed log-in attempts. Try again in %(minutes)d minutes.",
                minutes,
            )
            % {"minutes": minutes},
            code="locked",
        )


class LoginForm(LockoutExplainedMixin, AuthenticationForm):
    """The site's log-in form."""


class AdminLoginForm(LockoutExplainedMixin, AdminAuthenticationForm):
    """The back office's log-in form (``admin.site.login_form``)."""
