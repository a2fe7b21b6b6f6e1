"""Sign-up and log-in forms."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from poker_site.accounts import throttle
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


class LoginForm(AuthenticationForm):
    """Django's log-in form that explains a brute-force lock-out instead of a generic failure."""

    def clean(self) -> dict[str, Any]:
        username = self.data.get("username", "")
        if username:
            seconds = throttle.seconds_locked(username, throttle.client_address(self.request))
            if seconds:
                minutes = max(1, (seconds + 59) // 60)
                raise forms.ValidationError(
                    ngettext(
                        "Too many failed log-in attempts. Try again in %(minutes)d minute.",
                        "Too many failed log-in attempts. Try again in %(minutes)d minutes.",
                        minutes,
                    )
                    % {"minutes": minutes},
                    code="locked",
                )
        return super().clean()
