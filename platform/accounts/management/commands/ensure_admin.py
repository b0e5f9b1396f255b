"""``manage.py ensure_admin``: create the admin account once and print its password that one time."""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser


class Command(BaseCommand):
    """Create a superuser with a random password if none exists; print the password only then."""

    help = "Create the admin account if there is none and print its password (only when created)."

    def add_arguments(self, parser: CommandParser) -> None:
        """``--username`` of the account."""
        parser.add_argument("--username", default="admin")

    def handle(self, *args: Any, **options: Any) -> None:
        """Create the account unless a superuser exists."""
        users = get_user_model().objects
        if users.filter(is_superuser=True).exists():
            self.stdout.write("admin account: already exists (password not shown again)")
            return
        password = secrets.token_urlsafe(12)
        users.create_superuser(options["username"], "", password)
        self.stdout.write(
            self.style.SUCCESS(
                f"admin account created: user {options['username']!r}, password {password!r} "
                "(shown once; change it at /accounts/password/)"
            )
        )
