"""The user admin, and the admins only superusers may open (LOB-10; the role table: poker_site/accounts/role_table.py).

Privileges are administrators' alone, whatever permissions a staff member holds: the "change" permission on users lets
support edit players' accounts, never staff status, superuser status, groups or permissions (read-only fields for
anyone but a superuser, so a posted value is not even read), nor when the account was made or last used (account age
decides freeroll eligibility), and never an account that holds any privilege (it could
be taken over through its password or e-mail). Groups and the scheduler's periodic tasks answer superusers only.

What would hand an account over is never one staff member's alone (issue 30, four eyes): support does not set a
player's password, it sends a password-reset link to the address on file (the page
``accounts_user_send_password_reset``, reason required, audited; :mod:`poker_site.accounts.password_reset`), and the
e-mail address is read-only to it: a new one is proposed (the page ``accounts_user_propose_email``) and changes when a
second staff member approves it (:mod:`poker_site.accounts.email_changes`). Administrators (superusers) alone set a
password (the admin's password page, reason required) or edit the address directly; the old address is told of a
change either way.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.contrib.auth.admin import GroupAdmin as DjangoGroupAdmin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.contrib.auth.forms import (
    AdminPasswordChangeForm,
    AdminUserCreationForm,
    ReadOnlyPasswordHashWidget,
    UserChangeForm,
)
from django.contrib.auth.models import Group
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from poker_site.accounts.email_changes import PLAYER_EMAIL, email_changed_notify, email_normalised, in_use_message
from poker_site.accounts.models import (
    User,
    username_without_case,
    violates_email_uniqueness,
    violates_screen_name_uniqueness,
    violates_username_uniqueness,
)
from poker_site.accounts.names import (
    SCREEN_NAME_TAKEN_MESSAGE,
    USERNAME_IS_A_SCREEN_NAME_MESSAGE,
    NameInUse,
    account_names_check,
    screen_name_in_use,
    username_is_another_accounts_screen_name,
)
from poker_site.accounts.password_reset import (
    PasswordResetRefused,
    password_reset_link_send,
    sockets_close_after_password_change,
)
from poker_site.accounts.privilege_grants import (
    STAFF_PRIVILEGES,
    account_target,
    permission_label,
    privileges_granted,
    privileges_of,
)
from poker_site.accounts.roles import SUPERUSERS_ONLY_APPS, holds_privileges
from poker_site.core.admin_proposals import PendingProposal, ProposesAfterSaving, proposal_from_form

SEND_PASSWORD_RESET_PAGE = "accounts_user_send_password_reset"
PROPOSE_EMAIL_PAGE = "accounts_user_propose_email"

PRIVILEGE_FIELDS = ("is_staff", "is_superuser", "groups", "user_permissions")
# When the account was made and last used: account age decides freeroll eligibility (TRN-17), so only
# administrators may correct them.
ACCOUNT_HISTORY_FIELDS = ("date_joined", "last_login")
# The sign-up's record and the player's own choice: read-only to everyone (responsible gaming).
RESPONSIBLE_GAMING_FIELDS = ("date_of_birth", "terms_version", "terms_accepted_at", "session_reminder_minutes")
PRIVILEGES_REASON = "privileges_reason"
# Issue 30 (QA note 13): support answers a player's ticket from the player's page too.
PLAYER_PAGE_LISTS = (("Ledger", "wallet.leg"), ("Transfers", "wallet.transfer"), ("Hands", "games.hand"))


def is_superuser(request: HttpRequest) -> bool:
    return bool(request.user.is_active and request.user.is_superuser)


__all__ = ["UserAdmin", "holds_privileges", "is_superuser"]


class PasswordSetByStaffForm(AdminPasswordChangeForm):
    """The admin's "set a password" form with a required reason, kept in the audit entry (issue 30: a password set by
    staff is a takeover risk; the log must say why it was done). Administrators (superusers) only. Saved, it closes the
    account's open game sockets, as a reset does."""

    reason = forms.CharField(
        label="Reason",
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="Required: why you set this password (e.g. the ticket number). Kept in the audit log.",
    )

    def save(self, commit: bool = True) -> Any:
        """Set the password; once that commits, the account's open game sockets close (as after a reset)."""
        user = super().save(commit=commit)
        if commit:
            sockets_close_after_password_change(user.pk)
        return user


class ReasonForm(forms.Form):
    reason = forms.CharField(
        label="Reason",
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="Required: why (e.g. the ticket number). Kept in the audit log.",
    )


class EmailProposalForm(ReasonForm):
    email = forms.EmailField(label="New e-mail address", max_length=254)
    field_order = ("email", "reason")


class PasswordResetLinkWidget(ReadOnlyPasswordHashWidget):
    """The password's summary with a button to the page that sends a reset link (``link``; none when empty), instead
    of the admin's "set a password" page (which answers administrators only)."""

    template_name = "accounts/admin_password_summary.html"

    def __init__(self, link: str) -> None:
        super().__init__()
        self.link = link

    def get_context(self, name: str, value: Any, attrs: Any) -> dict[str, Any]:
        context: dict[str, Any] = super().get_context(name, value, attrs)
        context["password_url"] = self.link
        context["button_label"] = "Send a password-reset link"
        return context

    def render(self, name: str, value: Any, attrs: Any = None, renderer: Any = None) -> SafeString:
        # The project's templates, not the form renderer's (which reads only Django's and the apps' own).
        return mark_safe(render_to_string(self.template_name, self.get_context(name, value, attrs)))


class AccountCreationForm(AdminUserCreationForm):  # type: ignore[type-arg,unused-ignore]
    """Django's form to add an account, which refuses a username another account has in any case, and also one that
    another account goes by at the tables as its screen name (:mod:`poker_site.accounts.names`)."""

    def clean_username(self) -> str:
        username: str = super().clean_username()
        if username and username_is_another_accounts_screen_name(username, None):
            raise forms.ValidationError(USERNAME_IS_A_SCREEN_NAME_MESSAGE)
        return username


class AccountChangeForm(UserChangeForm):  # type: ignore[type-arg,unused-ignore]
    """The account's form; with ``reset_link_page`` set (for anyone but an administrator), the password shows a
    button to send a reset link ("": no button) instead of one to the "set a password" page. An e-mail address
    another account uses is refused, whoever edits it, and so is a username another account has in any case or goes
    by at the tables, and a screen name another account goes by (:mod:`poker_site.accounts.names`)."""

    reset_link_page: str | None = None

    privileges_reason = forms.CharField(
        label="Reason for a grant",
        required=False,
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="Required when you grant staff status, superuser status, a group or a permission (e.g. the ticket "
        "number): a grant is only proposed, and applies when another administrator approves it (issue 30, four eyes). "
        "A removal applies at once.",
    )

    def requested_privileges(self) -> dict[str, Any]:
        """The privileges ticked on the form, in the words of :func:`privileges_of`."""
        data = self.cleaned_data
        return {
            "is_staff": bool(data.get("is_staff")),
            "is_superuser": bool(data.get("is_superuser")),
            "groups": sorted(group.name for group in data.get("groups") or []),
            "user_permissions": sorted(permission_label(p) for p in data.get("user_permissions") or []),
        }

    def grants_privileges(self) -> bool:
        """An administrator's form (privileges editable) that ticks a privilege the account does not hold."""
        if "is_superuser" not in self.fields or self.instance.pk is None:
            return False
        return bool(privileges_granted(privileges_of(self.instance), self.requested_privileges()))

    def clean(self) -> dict[str, Any]:
        cleaned: dict[str, Any] = super().clean() or self.cleaned_data
        if not self.errors and self.grants_privileges() and not str(cleaned.get(PRIVILEGES_REASON) or "").strip():
            self.add_error(
                PRIVILEGES_REASON,
                "Granting privileges needs a written reason: the grant is proposed, and another administrator "
                "approves it.",
            )
        return cleaned

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.reset_link_page is not None and "password" in self.fields:
            self.fields["password"].widget = PasswordResetLinkWidget(self.reset_link_page)

    def clean_email(self) -> str:
        """The address as sign-up stores it (lower case), refused when another account uses it (compared without
        case): an address belongs to one account, since reset links go to it. For administrators too. Only a changed
        address is checked. An account taking the address after this check is refused by the database's unique index
        (:meth:`UserAdmin.changeform_view` says so on the page)."""
        email = email_normalised(self.cleaned_data.get("email"))
        if (
            email
            and "email" in self.changed_data
            and User.objects.filter(email__iexact=email).exclude(pk=self.instance.pk).exists()
        ):
            raise forms.ValidationError(in_use_message(email))
        return email

    def clean_username(self) -> str:
        """The username, refused with the words of the add form and sign-up when another account has it in any case
        ("Pat" beside "pat"): a username belongs to one account whatever its case. Only a changed name is checked. An
        account taking the name after this check is refused by the database's unique index
        (:meth:`UserAdmin.changeform_view` shows the form again, with this error)."""
        username: str = self.cleaned_data["username"]
        if (
            "username" in self.changed_data
            and User.objects.filter(username_without_case(username)).exclude(pk=self.instance.pk).exists()
        ):
            raise self.instance.unique_error_message(User, ["username"])
        if "username" in self.changed_data and username_is_another_accounts_screen_name(username, self.instance.pk):
            raise forms.ValidationError(USERNAME_IS_A_SCREEN_NAME_MESSAGE)
        return username

    def clean_screen_name(self) -> str | None:
        """The screen name (``None`` when left empty: the account goes by its username), refused when another account
        goes by it, compared without case, as its screen name or its username ("ALICE" beside "alice"); the account's
        own username is its to use. Only a changed screen name is checked. An account taking the name after this check
        is refused by the database's index or under the names' lock (:meth:`UserAdmin.changeform_view` shows the
        form again, with this error)."""
        screen_name: str | None = self.cleaned_data.get("screen_name") or None
        if "screen_name" in self.changed_data and screen_name_in_use(screen_name, self.instance.pk):
            raise forms.ValidationError(SCREEN_NAME_TAKEN_MESSAGE)
        return screen_name


@admin.register(User)
class UserAdmin(ProposesAfterSaving, DjangoUserAdmin):
    list_display = ("username", "screen_name", "email", "is_staff", "is_active", "date_joined", "last_login")
    list_filter = ("is_staff", "is_superuser", "is_active", "groups")
    search_fields = ("username", "screen_name", "email")
    show_full_result_count = False
    fieldsets = (
        *(DjangoUserAdmin.fieldsets or ()),
        ("Tables", {"fields": ("screen_name",)}),
        ("Responsible gaming", {"fields": RESPONSIBLE_GAMING_FIELDS}),
    )

    change_form_template = "accounts/admin_user_change_form.html"
    form = AccountChangeForm
    add_form = AccountCreationForm
    change_password_form = PasswordSetByStaffForm

    def user_change_password(self, request: HttpRequest, id: str, form_url: str = "") -> HttpResponse:
        """Django's page, for administrators only (issue 30: anyone else sends a reset link), whose form requires a
        reason; the audit entry written when it saves carries it. Never for another administrator's account."""
        if not is_superuser(request):
            raise PermissionDenied
        target = User.objects.filter(pk=int(id)).first() if str(id).isdigit() else None
        if target is not None and target.is_superuser and target.pk != request.user.pk:
            # Issue 30, four eyes: one administrator who set another's password could log in as a second
            # administrator and approve their own proposals. A forgotten administrator password is replaced with
            # `manage.py changepassword` (shell access, operations), as the first administrator is made.
            raise PermissionDenied
        if request.method == "POST":
            request.__dict__["_audit_reason"] = str(request.POST.get("reason", "")).strip()
        return super().user_change_password(request, id, form_url)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        readonly = (*super().get_readonly_fields(request, obj), *RESPONSIBLE_GAMING_FIELDS)
        if is_superuser(request):
            return readonly
        return (*readonly, *PRIVILEGE_FIELDS, *ACCOUNT_HISTORY_FIELDS, "email", "email_change")

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        """Beside a read-only e-mail address, the link to propose a new one (for who may change the account)."""
        fieldsets = super().get_fieldsets(request, obj)
        if obj is None:
            return fieldsets
        if is_superuser(request):
            return [
                (name, {**options, "fields": _after(options.get("fields", ()), "user_permissions", PRIVILEGES_REASON)})
                for name, options in fieldsets
            ]
        if not self.has_change_permission(request, obj):
            return fieldsets
        return [
            (name, {**options, "fields": _after(options.get("fields", ()), "email", "email_change")})
            for name, options in fieldsets
        ]

    def get_form(self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any) -> Any:
        form = super().get_form(request, obj, change=change, **kwargs)
        if obj is None or is_superuser(request):
            return form
        may_send = self.has_change_permission(request, obj)
        link = reverse(f"admin:{SEND_PASSWORD_RESET_PAGE}", args=[obj.pk]) if may_send else ""
        return type(form.__name__, (form,), {"reset_link_page": link})

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        """Django's page, with links to the player's overview, ledger, transfers and hands at its top."""
        user = User.objects.filter(pk=int(object_id)).first() if str(object_id).isdigit() else None
        links = player_pages(request.user, user) if user is not None else []
        return super().change_view(request, object_id, form_url, {**(extra_context or {}), "player_pages": links})

    @admin.display(description="change the e-mail address")
    def email_change(self, user: User) -> str:
        return format_html(
            '<a href="{}">Propose a new e-mail address (another staff member approves it)</a>',
            reverse(f"admin:{PROPOSE_EMAIL_PAGE}", args=[user.pk]),
        )

    def changeform_view(
        self, request: HttpRequest, object_id: str | None = None, form_url: str = "", extra_context: Any = None
    ) -> HttpResponse:
        """Django's page (adding an account or changing one), except when the save is refused because another
        account took its username, screen name or address after the form's check (a sign-up, another add or edit at
        the same moment; the database's indexes, or :meth:`save_model`'s check under the names' lock): Django's
        transaction rolls the save back, and instead of a server error a username or screen name comes back as the form
        with its error on the field, an address as the page with a message saying so."""
        try:
            return super().changeform_view(request, object_id, form_url, extra_context)
        except NameInUse:
            # Found under the names' lock, so the other account has committed: the form's check now finds it too.
            return super().changeform_view(request, object_id, form_url, extra_context)
        except IntegrityError as error:
            if violates_username_uniqueness(error) or violates_screen_name_uniqueness(error):
                # The database refuses only once the other account has committed, so Django's page again (nothing of
                # this save kept) now finds that account in its form's check, which says so on the field.
                return super().changeform_view(request, object_id, form_url, extra_context)
            if not violates_email_uniqueness(error):
                raise
        email = email_normalised(request.POST.get("email"))
        self.message_user(request, f"{in_use_message(email)} Nothing was saved.", messages.ERROR)
        return redirect(request.get_full_path())

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        """The account, its names checked once more under their lock (:func:`account_names_check`; Django's page
        holds the transaction, so the lock lasts until it commits). An administrator's direct change of the address:
        the old and the new address are told, as when a proposal is approved."""
        account_names_check(obj)
        if change and is_superuser(request) and "is_superuser" in form.fields:
            self._privileges_only_removed(obj, form)
        super().save_model(request, obj, form, change)
        if change and "email" in form.changed_data:
            old = str(form.initial.get("email") or "")
            if email_normalised(old) != email_normalised(obj.email):
                email_changed_notify(obj, old)

    def _privileges_only_removed(self, obj: Any, form: Any) -> None:
        """Issue 30, four eyes: of the privileges ticked, only removals apply now (a demotion is protective); what
        the form grants stays as the account holds it, and :meth:`save_related` proposes it."""
        held = privileges_of(obj)
        requested = form.requested_privileges()
        obj.is_staff = obj.is_staff and held["is_staff"]
        obj.is_superuser = obj.is_superuser and held["is_superuser"]
        form.cleaned_data["groups"] = [g for g in form.cleaned_data.get("groups") or [] if g.name in held["groups"]]
        form.cleaned_data["user_permissions"] = [
            permission
            for permission in form.cleaned_data.get("user_permissions") or []
            if permission_label(permission) in held["user_permissions"]
        ]
        form.privileges_to_propose = requested if privileges_granted(held, requested) else None

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        """Once the account is saved, the privileges its form granted are proposed (filed when the page commits)."""
        super().save_related(request, form, formsets, change)
        requested = getattr(form, "privileges_to_propose", None)
        if requested:
            self.propose_after_saving(
                request,
                PendingProposal(
                    kind=STAFF_PRIVILEGES.name,
                    target=account_target(form.instance),
                    changes=requested,
                    reason=str(form.cleaned_data.get(PRIVILEGES_REASON) or ""),
                    about=f"The privileges of {form.instance.username}",
                ),
            )

    def get_urls(self) -> list[URLPattern]:
        pages = [
            path(
                "<id>/send-password-reset/",
                self.admin_site.admin_view(self.send_password_reset_view),
                name=SEND_PASSWORD_RESET_PAGE,
            ),
            path("<id>/propose-email/", self.admin_site.admin_view(self.propose_email_view), name=PROPOSE_EMAIL_PAGE),
        ]
        return [*pages, *super().get_urls()]

    def _account_to_act_on(self, request: HttpRequest, id: str) -> User:
        """The account of an action page: 403 without the permission to change it (an account that holds privileges
        is an administrator's), 404 when there is none."""
        if not request.user.has_perm("accounts.change_user"):
            raise PermissionDenied
        user = self.get_object(request, unquote(id))
        if not self.has_change_permission(request, user):
            raise PermissionDenied
        if user is None:
            raise Http404("No such account.")
        return user

    def _page(self, request: HttpRequest, title: str, template: str, **context: Any) -> TemplateResponse:
        return TemplateResponse(
            request,
            template,
            {**self.admin_site.each_context(request), "opts": self.model._meta, "title": title, **context},
        )

    def send_password_reset_view(self, request: HttpRequest, id: str) -> HttpResponse:
        """Send the player a password-reset link at the address on file, with a reason (issue 30; audited)."""
        user = self._account_to_act_on(request, id)
        form = ReasonForm(request.POST if request.method == "POST" else None)
        if request.method == "POST" and form.is_valid():
            try:
                password_reset_link_send(request.user, user, form.cleaned_data["reason"], request)  # type: ignore[arg-type]
            except PasswordResetRefused as error:
                form.add_error(None, error.message)
            else:
                self.message_user(
                    request,
                    f"A password-reset link was sent to {user.email}, the address on file of {user.username}.",
                    messages.SUCCESS,
                )
                return redirect(reverse("admin:accounts_user_change", args=[user.pk]))
        return self._page(
            request,
            f"Send {user.username} a password-reset link",
            "accounts/admin_send_password_reset.html",
            form=form,
            account=user,
        )

    def propose_email_view(self, request: HttpRequest, id: str) -> HttpResponse:
        """A new e-mail address with a reason; posted, ``rule_change_propose`` (issue 30: it changes when another
        staff member approves)."""

        user = self._account_to_act_on(request, id)
        form = EmailProposalForm(request.POST if request.method == "POST" else None)
        if request.method == "POST" and form.is_valid():
            proposed = proposal_from_form(
                self,
                request,
                form,
                PLAYER_EMAIL.name,
                f"accounts.user:{user.pk}",
                {"email": form.cleaned_data["email"]},
                "New e-mail address proposed (#%(id)s): another staff member approves it.",
            )
            if proposed is not None:
                return proposed
        return self._page(
            request,
            f"Propose a new e-mail address for {user.username}",
            "core/rule_change_proposal_form.html",
            form=form,
            explanation=f"The address on file is {user.email or '(none)'}. Password-reset links go to the address on "
            "file; once the change is approved, the old and the new address are told of it.",
        )

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        """Also guards the password page. Without an account (the list), the model permission decides."""
        allowed = super().has_change_permission(request, obj)
        return allowed and (obj is None or is_superuser(request) or not holds_privileges(obj))

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        allowed = super().has_delete_permission(request, obj)
        return allowed and (obj is None or is_superuser(request) or not holds_privileges(obj))


def player_pages(viewer: Any, user: User) -> list[tuple[str, str]]:
    """(title, address) of the player's overview (LOB-08), ledger, transfers and hands (QA note 13: support answers a
    ticket from the player's page too), each the viewer's role may open; the lists searched for the player. The
    overview shows players, not staff accounts."""
    links: list[tuple[str, str]] = []
    if viewer.has_perm("compliance.view_playeroverview") and not user.is_staff:
        links.append(("Player overview", reverse("admin:compliance_playeroverview_change", args=[user.pk])))
    for title, label in PLAYER_PAGE_LISTS:
        app_label, model_name = label.split(".")
        if viewer.has_perm(f"{app_label}.view_{model_name}"):
            query = urlencode({"q": f"player:{user.username}"})
            links.append((title, f"{reverse(f'admin:{app_label}_{model_name}_changelist')}?{query}"))
    return links


def _after(fields: Any, name: str, added: str) -> tuple[Any, ...]:
    """``fields`` with ``added`` right after ``name`` (unchanged without ``name``)."""
    result: list[Any] = []
    for field in fields:
        result.append(field)
        if field == name:
            result.append(added)
    return tuple(result)


class SuperusersOnly(admin.ModelAdmin):
    """Mixed in before a model admin: nobody but an active superuser sees or changes anything, or runs an action."""

    def has_module_permission(self, request: HttpRequest) -> bool:
        return is_superuser(request) and super().has_module_permission(request)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_superuser(request) and super().has_view_permission(request, obj)

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return is_superuser(request) and super().has_add_permission(request, *args)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_superuser(request) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_superuser(request) and super().has_delete_permission(request, obj)

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        # django_celery_beat's actions (run_tasks, enable_tasks, ...) declare no permission of their own.
        return super().get_actions(request) if is_superuser(request) else {}


admin.site.unregister(Group)


@admin.register(Group)
class GroupAdmin(DjangoGroupAdmin):
    """A group's permissions are read-only here (issue 30, four eyes): changing them would grant privileges to every
    member at once, by one administrator. The role groups' permissions are set in code
    (:mod:`poker_site.accounts.roles`, after every migrate); an account's own permissions are granted on its page,
    by proposal. Members join a group on their account's page (a proposal too)."""

    readonly_fields = ("permissions",)


def restrict_to_superusers(site: admin.AdminSite, app_labels: tuple[str, ...]) -> None:
    """Register each of those apps' admins again with :class:`SuperusersOnly` in front. Admin modules load in
    INSTALLED_APPS order, so django.contrib.auth's and django_celery_beat's are registered by now."""
    for model, model_admin in list(site._registry.items()):
        if model._meta.app_label in app_labels and not isinstance(model_admin, SuperusersOnly):
            admin_class = type(model_admin)
            site.unregister(model)
            site.register(model, type(f"SuperusersOnly{admin_class.__name__}", (SuperusersOnly, admin_class), {}))


restrict_to_superusers(admin.site, SUPERUSERS_ONLY_APPS)
