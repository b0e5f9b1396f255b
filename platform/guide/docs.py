"""The repository's ``docs/*.md`` rendered as site pages: one source for the docs and the guide.

Markdown is rendered by markdown-it-py (CommonMark plus tables) with raw HTML off, so a doc can never
inject markup into the site. Links are rewritten for the site: ``protocol.md#faults`` becomes that page's
address, ``protocol.schema.json`` the schema download, ``../bots_examples/uno_bot.py`` the example file;
a link to anything else in the repository (source files) keeps its text but loses the link, since the site
does not serve the repository. Headings get GitHub's anchors, so ``rules.md#stacking-stacking`` works
on both. ``<!-- when: option=value -->`` markers (invisible on GitHub) tie the next block to a rule
option: :func:`select` keeps or drops it for one rule set (``guide.rulebook``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from django.conf import settings
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from markdown_it import MarkdownIt
from markdown_it.token import Token

_NAME = re.compile(r"^[a-z0-9][a-z0-9-]*$")
_MARKER = re.compile(r"^<!--\s*when:\s*(?P<cond>[^>]*?)\s*-->\s*$")
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_HEADING = re.compile(r"^(#{1,6})\s")
_BULLET = re.compile(r"^([-*]|\d+\.)\s")

#: Docs written for bot authors, in the guide's order (the others render too, listed after these).
AUTHOR_DOCS = ("protocol", "rules", "bots", "replay-format", "position", "viewer", "ratings", "leagues")


def docs_dir() -> Path:
    """The folder of the docs (``docs/`` of the repository the site runs from)."""
    return Path(settings.UNO_ARENA_DOCS_DIR)


def examples_dir() -> Path:
    """The example bots' folder the docs link to."""
    return Path(settings.UNO_ARENA_EXAMPLES_DIR)


def doc_names() -> list[str]:
    """Every doc the site serves: the authors' ones first, then the rest alphabetically."""
    found = {p.stem for p in docs_dir().glob("*.md") if _NAME.match(p.stem)}
    return [n for n in AUTHOR_DOCS if n in found] + sorted(found - set(AUTHOR_DOCS))


def doc_path(name: str) -> Path | None:
    """The file of doc ``name``, or ``None`` when there is no such doc (or the name is not one)."""
    if not _NAME.match(name):
        return None
    path = docs_dir() / f"{name}.md"
    return path if path.is_file() else None


def slugify(text: str) -> str:
    """GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens."""
    text = unicodedata.normalize("NFKC", text).lower()
    text = "".join(c for c in text if c.isalnum() or c in " -_")
    return text.replace(" ", "-")


def _site_href(href: str) -> str | None:
    """Where a link of a doc points on the site, or ``None`` to drop the link (a repository file)."""
    if re.match(r"^[a-z][a-z0-9+.-]*:", href, re.I) or href.startswith(("#", "/")):
        return href  # absolute (http:, mailto:), same page, or already a site path
    path, _, anchor = href.partition("#")
    fragment = f"#{anchor}" if anchor else ""
    parts = [p for p in path.split("/") if p not in ("", ".")]
    if parts[:1] == [".."] and parts[1:2] == ["docs"]:
        parts = parts[2:]
    if len(parts) == 1 and parts[0].endswith(".md") and doc_path(parts[0][:-3]):
        return reverse("guide-doc", args=[parts[0][:-3]]) + fragment
    if parts == ["protocol.schema.json"]:
        return reverse("guide-schema")
    if len(parts) == 2 and parts[0] == ".." and parts[1] == "README.md":
        return None
    if len(parts) == 3 and parts[:2] == ["..", "bots_examples"] and (examples_dir() / parts[2]).is_file():
        return reverse("guide-example", args=[parts[2]])
    return None


def _markdown() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "typographer": False}).enable("table")
    md.core.ruler.push("site_links", _rewrite_links)
    md.core.ruler.push("heading_ids", _heading_ids)
    return md


def _rewrite_links(state: Any) -> None:
    """Point every link at the site; unwrap links to files the site does not serve."""
    for block in state.tokens:
        if block.type != "inline" or not block.children:
            continue
        kept: list[Token] = []
        depth_dropped: list[bool] = []
        for token in block.children:
            if token.type == "link_open":
                href = _site_href(str(token.attrGet("href") or ""))
                depth_dropped.append(href is None)
                if href is None:
                    continue
                token.attrSet("href", href)
            elif token.type == "link_close" and depth_dropped and depth_dropped.pop():
                continue
            kept.append(token)
        block.children = kept


def _heading_ids(state: Any) -> None:
    """GitHub-style ids on headings (``-1``, ``-2`` for repeats)."""
    seen: dict[str, int] = {}
    tokens = state.tokens
    for i, token in enumerate(tokens):
        if token.type != "heading_open":
            continue
        slug = slugify(tokens[i + 1].content)
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        token.attrSet("id", slug if count == 0 else f"{slug}-{count}")


_MD = _markdown()


def render(text: str) -> SafeString:
    """Markdown as safe HTML for the site (raw HTML in the text is escaped, comments dropped)."""
    html = _MD.render(_COMMENT.sub("", text))
    return mark_safe(html)  # noqa: S308 (markdown-it with html off escapes every tag of the source)


@dataclass(frozen=True)
class Doc:
    """A rendered doc: its name, title (first heading), HTML and its headings for a table of contents."""

    name: str
    title: str
    html: SafeString
    toc: tuple[tuple[int, str, str], ...]


def _toc(text: str) -> tuple[tuple[int, str, str], ...]:
    tokens = _MD.parse(_COMMENT.sub("", text))
    return tuple(
        (int(t.tag[1]), tokens[i + 1].content.replace("`", ""), str(t.attrGet("id") or ""))
        for i, t in enumerate(tokens)
        if t.type == "heading_open" and t.tag in ("h2", "h3")
    )


@lru_cache(maxsize=64)
def _load(path: Path, mtime_ns: int) -> Doc:
    text = path.read_text(encoding="utf-8")
    title = next(
        (line.lstrip("# ").strip() for line in text.splitlines() if line.startswith("# ")), path.stem
    )
    return Doc(path.stem, title.replace("`", ""), render(text), _toc(text))


def load(name: str) -> Doc | None:
    """Doc ``name`` rendered (cached until the file changes), or ``None`` if there is none."""
    path = doc_path(name)
    if path is None:
        return None
    return _load(path, path.stat().st_mtime_ns)


def section(name: str, heading: str) -> str:
    """The markdown of the ``## heading`` section of doc ``name`` (up to the next heading of its level),
    or an empty string."""
    path = doc_path(name)
    if path is None:
        return ""
    return _section(path.read_text(encoding="utf-8"), heading)


def _section(text: str, heading: str) -> str:
    lines = text.splitlines()
    out: list[str] = []
    level = 0
    for line in lines:
        match = _HEADING.match(line)
        if level:
            if match and len(match.group(1)) <= level:
                break
            out.append(line)
        elif match and line[len(match.group(0)) :].strip() == heading:
            level = len(match.group(1))
            out.append(line)
    return "\n".join(out)


def select(text: str, holds: Callable[[str], bool]) -> str:
    """``text`` with each block after a ``<!-- when: COND -->`` marker kept only if ``holds(COND)``.

    A marker before a heading covers its section (up to the next heading of the same or a higher level);
    before a list item, that item (with its indented lines); before anything else, the paragraph.
    """
    lines = text.splitlines()
    out: list[str] = []
    i = 0
    while i < len(lines):
        marker = _MARKER.match(lines[i].strip())
        if not marker:
            out.append(lines[i])
            i += 1
            continue
        i += 1
        end = _block_end(lines, i)
        if holds(marker.group("cond")):
            out.extend(lines[i:end])
        i = end
    return "\n".join(out)


def _block_end(lines: Sequence[str], start: int) -> int:
    """Where the block starting at ``lines[start]`` ends (see :func:`select`)."""
    if start >= len(lines):
        return start
    first = lines[start]
    heading = _HEADING.match(first)
    end = start + 1
    if heading:
        level = len(heading.group(1))
        while end < len(lines):
            line = lines[end]
            if _MARKER.match(line.strip()) and end + 1 < len(lines):
                line = lines[end + 1]  # a marker opens the next section: it ends this one
            match = _HEADING.match(line)
            if match and len(match.group(1)) <= level:
                break
            end += 1
        return end
    bullet = _BULLET.match(first)
    while end < len(lines):
        line = lines[end]
        if not line.strip() or _MARKER.match(line.strip()) or _HEADING.match(line):
            break
        if bullet and not line.startswith((" ", "\t")):
            break
        end += 1
    return end
