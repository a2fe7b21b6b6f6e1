"""The user admin, and the admins only superusers may open (LOB-10; the role table: poker_site/accounts/role_table.py).

Privileges are administrators' alone, whatever permissions a staff member holds: the "change" permission on users lets
support edit players' accounts, never staff status, superuser status, groups or permissions (read-only fields for
anyone but a superuser, so a posted value is not even read), nor when the account was made or last used (account age
decides freeroll eligibility), and never an account that holds any privilege (it could
be taken over through its password or e-mail). Groups and the scheduler's periodic tasks answer superusers only.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.contrib.auth.forms import AdminPasswordChangeForm
from django.http import HttpRequest, HttpResponse

from poker_site.accounts.models import User
from poker_site.accounts.roles import SUPERUSERS_ONLY_APPS

PRIVILEGE_FIELDS = ("is_staff", "is_superuser", "groups", "user_permissions")
# When the account was made and last used: account age decides freeroll eligibility (TRN-17), so only
# administrators may correct them.
ACCOUNT_HISTORY_FIELDS = ("date_joined", "last_login")
# The sign-up's record and the player's own choice: read-only to everyone (responsible gaming).
RESPONSIBLE_GAMING_FIELDS = ("date_of_birth", "terms_version", "terms_accepted_at", "session_reminder_minutes")


def is_superuser(request: HttpRequest) -> bool:
    return bool(request.user.is_active and request.user.is_superuser)


def holds_privileges(user: User) -> bool:
    """Staff, superuser, or in a group or given a permission (which count outside the admin too, e.g. in APIs)."""
    return user.is_staff or user.is_superuser or user.groups.exists() or user.user_permissions.exists()


class PasswordSetByStaffForm(AdminPasswordChangeForm):
    """The admin's "set a password" form with a required reason, kept in the audit entry (issue 30: a password set by
    staff is a takeover risk; the log must say why it was done)."""

    reason = forms.CharField(
        label="Reason",
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="Required: why you set this password (e.g. the ticket number). Kept in the audit log.",
    )


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    list_display = ("username", "screen_name", "email", "is_staff", "is_active", "date_joined", "last_login")
    list_filter = ("is_staff", "is_superuser", "is_active", "groups")
    search_fields = ("username", "screen_name", "email")
    show_full_result_count = False
    fieldsets = (
        *(DjangoUserAdmin.fieldsets or ()),
        ("Tables", {"fields": ("screen_name",)}),
        ("Responsible gaming", {"fields": RESPONSIBLE_GAMING_FIELDS}),
    )

    change_password_form = PasswordSetByStaffForm

    def user_change_password(self, request: HttpRequest, id: str, form_url: str = "") -> HttpResponse:
        """Django's page, whose form now requires a reason; the audit entry written when it saves carries it."""
        if request.method == "POST":
            request.__dict__["_audit_reason"] = str(request.POST.get("reason", "")).strip()
        return super().user_change_password(request, id, form_url)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        readonly = (*super().get_readonly_fields(request, obj), *RESPONSIBLE_GAMING_FIELDS)
        return readonly if is_superuser(request) else (*readonly, *PRIVILEGE_FIELDS, *ACCOUNT_HISTORY_FIELDS)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        """Also guards the password page. Without an account (the list), the model permission decides."""
        allowed = super().has_change_permission(request, obj)
        return allowed and (obj is None or is_superuser(request) or not holds_privileges(obj))

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        allowed = super().has_delete_permission(request, obj)
        return allowed and (obj is None or is_superuser(request) or not holds_privileges(obj))


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


def restrict_to_superusers(site: admin.AdminSite, app_labels: tuple[str, ...]) -> None:
    """Register each of those apps' admins again with :class:`SuperusersOnly` in front. Admin modules load in
    INSTALLED_APPS order, so django.contrib.auth's and django_celery_beat's are registered by now."""
    for model, model_admin in list(site._registry.items()):
        if model._meta.app_label in app_labels and not isinstance(model_admin, SuperusersOnly):
            admin_class = type(model_admin)
            site.unregister(model)
            site.register(model, type(f"SuperusersOnly{admin_class.__name__}", (SuperusersOnly, admin_class), {}))


restrict_to_superusers(admin.site, SUPERUSERS_ONLY_APPS)
