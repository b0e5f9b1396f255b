"""Sign-up and the account page (API token shown and regenerable)."""

from __future__ import annotations

from typing import cast

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST
from rest_framework.authtoken.models import Token

from bots.models import Bot
from scheduling.throttles import SignupThrottle, refusal


def signup(request: HttpRequest) -> HttpResponse:
    """Create an account and log in (sign-up attempts are rate-limited per client address)."""
    if request.user.is_authenticated:
        return redirect("account")
    form: UserCreationForm = UserCreationForm(request.POST or None)
    too_many = refusal(request, SignupThrottle) if request.method == "POST" else None
    if too_many:
        form.add_error(None, too_many)
        return render(request, "registration/signup.html", {"form": form}, status=429)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, "Welcome to UNO Arena! Create your first bot below.")
        return redirect("account")
    return render(request, "registration/signup.html", {"form": form})


@login_required
def account(request: HttpRequest) -> HttpResponse:
    """The account page: API token, bots, links to password change."""
    user = cast(User, request.user)
    token, _ = Token.objects.get_or_create(user=user)
    bots = Bot.objects.filter(owner=user).select_related("active_version").defer("active_version__archive")
    return render(request, "accounts/account.html", {"token": token, "bots": bots})


@login_required
@require_POST
def regenerate_token(request: HttpRequest) -> HttpResponse:
    """Replace the API token (the old one stops working at once)."""
    user = cast(User, request.user)
    with transaction.atomic():
        Token.objects.filter(user=user).delete()
        Token.objects.create(user=user)
    messages.success(request, "A new API token was generated; the old one no longer works.")
    return redirect("account")
