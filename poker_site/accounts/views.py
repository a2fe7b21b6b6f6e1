"""Sign-up, log-in and log-out pages for players."""

from __future__ import annotations

from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from poker_site.accounts.forms import LoginForm, SignUpForm


@require_http_methods(["GET", "POST"])
def sign_up(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="poker_site.accounts.backends.RateLimitedModelBackend")
        return redirect("home")
    return render(request, "accounts/sign_up.html", {"form": form}, status=400 if form.errors else 200)


class LogInView(auth_views.LoginView):
    template_name = "accounts/log_in.html"
    authentication_form = LoginForm
    redirect_authenticated_user = True


class LogOutView(auth_views.LogoutView):
    pass
