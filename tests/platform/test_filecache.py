"""The embedded default's file cache (``config.filecache``) lists its folder at most once a minute to cull
it, and still culls."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from config.filecache import FileCache


def test_writes_do_not_list_the_folder_each_time(tmp_path: Path, monkeypatch: Any) -> None:
    cache = FileCache(str(tmp_path), {"OPTIONS": {"MAX_ENTRIES": 1000}})
    listings = []
    original = cache._list_cache_files
    monkeypatch.setattr(cache, "_list_cache_files", lambda: listings.append(1) or original())
    for i in range(50):
        cache.set(f"k{i}", i)
    assert len(listings) == 1
    assert [cache.get(f"k{i}") for i in (0, 49)] == [0, 49]


def test_it_still_culls_when_full(tmp_path: Path) -> None:
    cache = FileCache(str(tmp_path), {"OPTIONS": {"MAX_ENTRIES": 10, "CULL_FREQUENCY": 2}})
    cache.cull_every = 0.0
    for i in range(30):
        cache.set(f"k{i}", i)
    assert len(list(tmp_path.glob("*.djcache"))) <= 10
