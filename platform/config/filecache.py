"""The embedded default's cache: Django's file cache, culled at most once a minute per process.

Django's ``FileBasedCache`` lists its whole folder on every write to decide whether to cull it; with the
bot pages of a site of ten thousand bots (``web.page_cache``) that listing costs more than the write, and
every cached page that expires pays it. Overriding the private ``_cull`` is the whole change (no library
offers a file cache without it; production uses Redis)."""

from __future__ import annotations

import time

from django.core.cache.backends.filebased import FileBasedCache


class FileCache(FileBasedCache):
    """``FileBasedCache`` that checks its size (and culls) at most every :attr:`cull_every` seconds."""

    cull_every = 60.0
    _last_cull = float("-inf")

    def _cull(self) -> None:
        now = time.monotonic()
        if now - self._last_cull < self.cull_every:
            return
        self._last_cull = now
        super()._cull()  # type: ignore[misc]  # private: not in django-stubs
