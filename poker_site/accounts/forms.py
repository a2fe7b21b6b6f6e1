"""Sign-up and log-in forms."""

from __future__ import annotations

from datetime import date
from typing import Any

from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from poker_site.accounts import throttle
from poker_site.accounts.backends import SIGN_IN_REFUSED
from poker_site.accounts.models import (
    EMAIL_TAKEN_MESSAGE,
    User,
    violates_email_uniqueness,
    violates_username_uniqueness,
)
from poker_site.accounts.names import (
    USERNAME_IS_A_SCREEN_NAME_MESSAGE,
    account_names_check,
    username_is_another_accounts_screen_name,
)

MINIMUM_AGE = 18
"""Players must be at least this old (responsible gaming)."""


class EmailTaken(Exception):
    """The database refused the new account's address: another account took it after the form checked it (two
    sign-ups at once). Nothing was saved."""


class UsernameTaken(Exception):
    """The database refused the new account's username: another account took it, in this case or another ("Pat" and
    "pat"), after the form checked it (two sign-ups at once). Nothing was saved."""


def age_on(birth: date, day: date) -> int:
    """Whole years from ``birth`` to ``day`` (a 29 February birthday comes on 1 March in other years)."""
    return day.year - birth.year - ((day.month, day.day) < (birth.month, birth.day))


class SignUpForm(UserCreationForm):  # type: ignore[type-arg,unused-ignore]
    """Sign-up: a username, e-mail and password, the date of birth (18 or older) and the acceptance of the terms and
    the rules in force (GEN-02, FRD-03), recorded with their version and the moment of acceptance."""

    email = forms.EmailField(label=_("Email"), required=True)
    date_of_birth = forms.DateField(
        label=_("Date of birth"),
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        input_formats=["%Y-%m-%d", "%d.%m.%Y"],
        help_text=_("You must be 18 or older to play."),
    )
    accept_terms = forms.BooleanField(
        label=_("I accept the terms of service and the rules"),
        required=True,
        error_messages={"required": _("You must accept the terms of service and the rules to sign up.")},
    )

    class Meta:
        model = User
        fields = ("username", "email")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        from django.urls import reverse

        from poker_site.core.rules import RULES_VERSION

        self.fields["accept_terms"].help_text = format_html(
            gettext(
                'Version {version}: <a href="{url}">read the rules</a>. The operator stores game, payment and personal '
                "data to prevent fraud and collusion."
            ),
            version=RULES_VERSION,
            url=reverse("rules:index"),
        )

    def clean_username(self) -> str:
        """Django's check (no other account has the username in any case), and no other account goes by it at the
        tables as its screen name (:mod:`poker_site.accounts.names`)."""
        username: str = super().clean_username()
        if username and username_is_another_accounts_screen_name(username, None):
            raise forms.ValidationError(USERNAME_IS_A_SCREEN_NAME_MESSAGE)
        return username

    def clean_email(self) -> str:
        email = self.cleaned_data["email"].strip().lower()
        if User.objects.filter(email__iexact=email).exists():
            raise forms.ValidationError(EMAIL_TAKEN_MESSAGE)
        return email

    def clean_date_of_birth(self) -> date:
        birth: date = self.cleaned_data["date_of_birth"]
        today = timezone.localdate()
        if birth > today or birth.year < 1900:
            raise forms.ValidationError(_("Enter your real date of birth."))
        if age_on(birth, today) < MINIMUM_AGE:
            raise forms.ValidationError(_("You must be 18 or older to sign up."))
        return birth

    def save(self, commit: bool = True) -> User:
        """The new account, saved when ``commit``. ``EmailTaken`` or ``UsernameTaken`` when the database refuses its
        address or its username: another sign-up with it was saved after this form checked (``clean_email`` and
        ``clean_username`` cannot see a concurrent one); :class:`~poker_site.accounts.names.NameInUse` when another
        account was given the username as its screen name meanwhile."""
        from poker_site.core.rules import RULES_VERSION

        user: User = super().save(commit=False)
        user.date_of_birth = self.cleaned_data["date_of_birth"]
        user.terms_version = RULES_VERSION
        user.terms_accepted_at = timezone.now()
        if commit:
            try:
                with transaction.atomic():  # a savepoint: the refusal leaves an enclosing transaction usable
                    account_names_check(user)
                    user.save()
            except IntegrityError as error:
                if violates_email_uniqueness(error):
                    raise EmailTaken from error
                if violates_username_uniqueness(error):
                    raise UsernameTaken from error
                raise
        return user


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
        seconds = throttle.seconds_locked(username, throttle.counted_address(self.request)) if username else 0
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
