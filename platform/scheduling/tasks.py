"""Beat's dispatch: the safety net that also asks the workers how many they are."""

from __future__ import annotations

from typing import Any

from celery import shared_task


@shared_task(name="scheduling.tasks.dispatch")
def dispatch_task() -> dict[str, Any]:
    """Fill the free slots (``scheduling.dispatcher.dispatch``), after asking how many workers are alive."""
    from scheduling.dispatcher import dispatch

    return dispatch(ask_workers=True)
