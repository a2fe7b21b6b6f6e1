from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin

from poker_site.accounts.models import User


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    list_display = ("username", "screen_name", "email", "is_staff", "is_active", "date_joined", "last_login")
    list_filter = ("is_staff", "is_superuser", "is_active", "groups")
    search_fields = ("username", "screen_name", "email")
    show_full_result_count = False
    fieldsets = (*(DjangoUserAdmin.fieldsets or ()), ("Tables", {"fields": ("screen_name",)}))
