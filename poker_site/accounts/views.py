"""Sign-up, log-in and log-out pages for players, and resetting a forgotten password by a link sent by e-mail (the
pages of :mod:`poker_site.accounts.password_reset`)."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import PasswordResetForm
from django.contrib.auth.views import redirect_to_login
from django.core.mail import send_mail
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse, reverse_lazy
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_http_methods

from poker_site.accounts.forms import EmailTaken, LoginForm, SignUpForm, UsernameTaken
from poker_site.accounts.models import EMAIL_TAKEN_MESSAGE, USERNAME_TAKEN_MESSAGE
from poker_site.accounts.names import NameInUse
from poker_site.accounts.password_reset import (
    PasswordResetThrottled,
    password_reset_request,
    sockets_close_after_password_change,
)


def login_required_back_to(page: str) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """``login_required`` for a view that only takes a form's POST: a request without a logged-in player (the form was
    sent after the session expired, or after logging out in another tab) is sent to log in with ``next`` the page that
    holds the form (the URL name ``page``, which answers GET), so the player lands there after logging in; with the
    POST-only URL as ``next`` the browser would GET it and see a blank 405. Nothing the form asked for is done."""

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def guarded(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if not request.user.is_authenticated:
                if request.method == "POST":
                    messages.info(
                        request, gettext("You were logged out, so the form was not sent. Log in and send it again.")
                    )
                return redirect_to_login(reverse(page))
            return view(request, *args, **kwargs)

        return guarded

    return decorate


@require_http_methods(["GET", "POST"])
def sign_up(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = form.save()
        except EmailTaken:  # another sign-up with the address was saved after this form checked it
            form.add_error("email", EMAIL_TAKEN_MESSAGE)
        except UsernameTaken:  # the same with the username
            form.add_error("username", USERNAME_TAKEN_MESSAGE)
        except NameInUse as refusal:  # another account was given the username as its screen name meanwhile
            form.add_error("username", refusal.message)
        else:
            login(request, user, backend="poker_site.accounts.backends.RateLimitedModelBackend")
            return redirect("home")
    return render(request, "accounts/sign_up.html", {"form": form}, status=400 if form.errors else 200)


class LogInView(auth_views.LoginView):
    template_name = "accounts/log_in.html"
    authentication_form = LoginForm
    redirect_authenticated_user = True


class LogOutView(auth_views.LogoutView):
    """Log-out is a POST (the header's button): a GET cannot log anyone out behind their back (a link or an image on
    another site). A GET of the address (typed, bookmarked, an old link) shows a page with the button instead of a
    blank 405, or says that nobody is logged in."""

    http_method_names = ["get", "post", "options"]

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        return render(request, "registration/log_out.html")


def link_valid_minutes() -> int:
    return max(1, settings.PASSWORD_RESET_TIMEOUT // 60)


class PasswordResetView(auth_views.PasswordResetView):
    """ "Forgot your password?": the e-mail address of the account; :func:`password_reset_request` has a Celery
    worker send the link once the request commits (to a player's account only, never to one that holds privileges),
    and the answer is the same, in the same time, whatever the address (the next page). Over a limit of the client
    the form comes back with a 429 saying when to try again (nothing looked up or sent)."""

    template_name = "registration/password_reset_form.html"
    success_url = reverse_lazy("accounts:password_reset_done")

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        return {**super().get_context_data(**kwargs), "valid_minutes": link_valid_minutes()}

    def form_valid(self, form: PasswordResetForm) -> HttpResponse:
        try:
            password_reset_request(str(form.cleaned_data["email"]), self.request)
        except PasswordResetThrottled as throttled:
            minutes = max(1, (throttled.seconds + 59) // 60)
            form.add_error(
                None,
                ngettext(
                    "Too many requests for a new password. Try again in %(minutes)d minute.",
                    "Too many requests for a new password. Try again in %(minutes)d minutes.",
                    minutes,
                )
                % {"minutes": minutes},
            )
            return self.render_to_response(self.get_context_data(form=form), status=429)
        return HttpResponseRedirect(self.get_success_url())


class PasswordResetDoneView(auth_views.PasswordResetDoneView):
    template_name = "registration/password_reset_done.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        return {**super().get_context_data(**kwargs), "valid_minutes": link_valid_minutes()}


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    """The link's page: a new password twice (the site's password rules). A used, expired or forged link shows that it
    is not valid and offers to ask for a new one. The reset is written to the audit log, the account's open game
    sockets are closed once it commits, and the address on file is told that the password changed."""

    template_name = "registration/password_reset_confirm.html"
    success_url = reverse_lazy("accounts:password_reset_complete")

    def form_valid(self, form: Any) -> HttpResponse:
        from wallet.services.audit import audit_record

        response = super().form_valid(form)
        user = form.user
        audit_record(
            action="password_reset_by_player",
            actor=user,
            player=user,
            target=f"accounts.user:{user.pk}",
            details={"by": "the link sent to the address on file"},
        )
        sockets_close_after_password_change(user.pk)
        if user.email:  # the owner hears of it, in case it was not them (a stolen mailbox)
            body = render_to_string("accounts/password_changed.txt", {"user": user})
            subject = render_to_string("accounts/password_changed_subject.txt").strip()
            send_mail(subject, body, None, [user.email], fail_silently=True)
        return response


class PasswordResetCompleteView(auth_views.PasswordResetCompleteView):
    template_name = "registration/password_reset_complete.html"
