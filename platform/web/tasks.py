"""Celery task of the site's pages: render bot pages after they changed (``web.page_cache``)."""

from __future__ import annotations

from celery import shared_task

from web import page_cache


@shared_task(name="web.tasks.render_bot_pages", ignore_result=True)
def render_bot_pages(bot_ids: list[int]) -> int:
    """Render the visitors' pages of these bots that no visitor has rendered since they changed."""
    return page_cache.render_queued(bot_ids)
