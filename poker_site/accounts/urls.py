from django.urls import path

from poker_site.accounts import views

app_name = "accounts"

urlpatterns = [
    path("sign-up/", views.sign_up, name="sign_up"),
    path("log-in/", views.LogInView.as_view(), name="login"),
    path("log-out/", views.LogOutView.as_view(), name="logout"),
]
