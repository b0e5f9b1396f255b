"""``{% path %}`` gives exactly what ``{% url %}`` gives, for every id and slug the site links to."""

from __future__ import annotations

from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from web.templatetags.pages import path

ids = st.integers(min_value=1, max_value=10**18 - 1)
slugs = st.from_regex(r"[-a-zA-Z0-9_]{1,40}", fullmatch=True)


@given(ids, ids)
def test_ids_as_reverse_gives_them(first: int, second: int) -> None:
    assert path("match-detail", first) == reverse("match-detail", args=[first])
    assert path("bot-detail", second) == reverse("bot-detail", args=[second])
    assert path("version-detail", first, second) == reverse("version-detail", args=[first, second])


@given(slugs)
def test_slugs_as_reverse_gives_them(slug: str) -> None:
    assert path("leaderboard", slug) == reverse("leaderboard", args=[slug])
