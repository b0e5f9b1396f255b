"""Bots and their immutable uploaded versions."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse


class Language(models.TextChoices):
    """Languages the sandbox runtime can run (the values are the sandbox's runtime names)."""

    PYTHON = "python", "Python 3"
    NODE = "node", "JavaScript (Node.js)"


def owns(user: object, owner_id: int | None) -> bool:
    """Whether ``user`` may see the private details (source, logs, faults) of, and change, a bot of owner
    ``owner_id``: its owner, or staff."""
    return bool(
        getattr(user, "is_authenticated", False)
        and (getattr(user, "is_staff", False) or getattr(user, "pk", None) == owner_id)
    )


class Bot(models.Model):
    """A bot: its public profile, owner and which version currently plays."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="bots")
    name = models.SlugField(max_length=40, unique=True, help_text="Letters, digits, - and _.")
    description = models.TextField(blank=True, max_length=2000)
    language = models.CharField(max_length=20, choices=Language.choices, default=Language.PYTHON)
    is_active = models.BooleanField(default=True, help_text="Inactive bots cannot be challenged.")
    active_version = models.ForeignKey(
        "BotVersion", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    pending_version = models.ForeignKey(
        "BotVersion",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="Becomes the active version once its smoke test passes.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        """The public bot page."""
        return reverse("bot-detail", args=[self.pk])

    def is_owned_by(self, user: object) -> bool:
        """Whether ``user`` may see private details (source, logs, faults) and change this bot."""
        return owns(user, self.owner_id)

    @property
    def playable_version(self) -> BotVersion | None:
        """The active version if the bot is active and that version passed its smoke test."""
        version = self.active_version
        if self.is_active and version is not None and version.smoke_status == SmokeStatus.PASSED:
            return version
        return None


class SmokeStatus(models.TextChoices):
    """Result of the sandbox smoke test a version must pass before playing rated games."""

    PENDING = "pending", "Pending"
    RUNNING = "running", "Running"
    PASSED = "passed", "Passed"
    FAILED = "failed", "Failed"


class BotVersion(models.Model):
    """One uploaded version of a bot: a validated zip archive kept in the database.

    The archive lives in the database so workers on other machines need nothing but the database;
    each worker unpacks it once into its local cache (``bots.storage``).
    """

    bot = models.ForeignKey(Bot, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    filename = models.CharField(max_length=200, help_text="Name of the uploaded file.")
    entry_point = models.CharField(max_length=200)
    archive = models.BinaryField(editable=False, help_text="Normalised zip of the source files.")
    sha256 = models.CharField(max_length=64)
    size = models.PositiveIntegerField(help_text="Total uncompressed size in bytes.")
    file_count = models.PositiveIntegerField(default=1)
    smoke_status = models.CharField(max_length=10, choices=SmokeStatus.choices, default=SmokeStatus.PENDING)
    smoke_log = models.TextField(blank=True)
    smoke_checked_at = models.DateTimeField(null=True, blank=True)
    smoke_dispatched_at = models.DateTimeField(
        null=True, blank=True, help_text="When the scheduler handed its smoke test to the workers."
    )
    smoke_attempts = models.PositiveSmallIntegerField(
        default=0, help_text="Smoke-test runs started (the reaper gives up after a few lost ones)."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["bot_id", "-number"]
        constraints = [models.UniqueConstraint(fields=["bot", "number"], name="unique_version_number")]

    def __str__(self) -> str:
        return f"{self.bot.name} v{self.number}"

    def get_absolute_url(self) -> str:
        """The version page (status public, log and source owner-only)."""
        return reverse("version-detail", args=[self.bot_id, self.number])

    @property
    def command(self) -> tuple[str, ...]:
        """The command the sandbox runs inside the unpacked folder (``python3 bot.py``, ``node bot.js``):
        the same interpreter the local ``uno-arena match`` uses for that language."""
        from bots.validation import interpreter

        return (interpreter(self.bot.language), self.entry_point)
