"""API permissions: everything readable, writes by the owner (or staff)."""

from typing import Any

from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request


def owner_of(obj: Any) -> Any:
    """The user owning a bot, a version or anything with a ``bot``."""
    bot = getattr(obj, "bot", obj)
    return getattr(bot, "owner_id", None)


def is_owner(user: Any, obj: Any) -> bool:
    """Whether ``user`` owns ``obj`` or is staff."""
    return bool(user and user.is_authenticated and (user.is_staff or owner_of(obj) == user.pk))


class IsOwnerOrReadOnly(BasePermission):
    """Read for all; write for the object's owner (and staff)."""

    def has_object_permission(self, request: Request, view: Any, obj: Any) -> bool:
        """Safe methods always, others only for the owner."""
        return request.method in SAFE_METHODS or is_owner(request.user, obj)


class IsStaffOrReadOnly(BasePermission):
    """Read for all; write for staff."""

    def has_permission(self, request: Request, view: Any) -> bool:
        """Safe methods always, others only for staff."""
        return request.method in SAFE_METHODS or bool(request.user and request.user.is_staff)
