"""Sign-up and the account page (API token shown and regenerable)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST
from rest_framework.authtoken.models import Token


def signup(request: HttpRequest) -> HttpResponse:
    """Create an account and log in."""
    if request.user.is_authenticated:
        return redirect("account")
    form = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, "Welcome to UNO Arena! Create your first bot below.")
        return redirect("account")
    return render(request, "registration/signup.html", {"form": form})


@login_required
def account(request: HttpRequest) -> HttpResponse:
    """The account page: API token, bots, links to password change."""
    token, _ = Token.objects.get_or_create(user=request.user)
    bots = request.user.bots.select_related("active_version").defer("active_version__archive")  # type: ignore[union-attr]
    return render(request, "accounts/account.html", {"token": token, "bots": bots})


@login_required
@require_POST
def regenerate_token(request: HttpRequest) -> HttpResponse:
    """Replace the API token (the old one stops working at once)."""
    with transaction.atomic():
        Token.objects.filter(user=request.user).delete()
        Token.objects.create(user=request.user)
    messages.success(request, "A new API token was generated; the old one no longer works.")
    return redirect("account")
