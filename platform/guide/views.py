"""The guide's pages: the quick start, the docs (rendered from ``docs/``), limits and faults, a page per
rule set, and the downloads (schema, example files, the wheel, the starter kits)."""

from __future__ import annotations

import dataclasses
from typing import Any

from django.core.exceptions import ValidationError
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.cache import cache_control

from arena.errors import ArenaError
from bots import validation
from bots.models import Language
from guide import docs, kits, rulebook
from guide.house import OFFICIAL_RULES, house_bots
from rulesets.models import RuleSet

#: Docs sections the *Limits and faults* page shows: (doc, heading).
LIMIT_SECTIONS = (
    ("protocol", "Limits and defaults"),
    ("protocol", "Faults"),
    ("sandbox", "Limits (`sandbox.Limits`)"),
)


def _urls(request: HttpRequest) -> dict[str, str]:
    """The absolute addresses a newcomer copies into a terminal."""
    return {
        "site": request.build_absolute_uri("/").rstrip("/"),
        "guide": request.build_absolute_uri(reverse("guide")),
        "wheel": request.build_absolute_uri(reverse("guide-download", args=[kits.wheel_name()])),
    }


def index(request: HttpRequest) -> HttpResponse:
    """The guide: from nothing to a ranked bot in five minutes, then where everything else is."""
    context = {
        "urls": _urls(request),
        "wheel_name": kits.wheel_name(),
        "kits": kits.KITS.values(),
        "docs": [(name, doc.title) for name in docs.doc_names() if (doc := docs.load(name))],
        "rulesets": RuleSet.objects.filter(is_active=True),
        "runtimes": runtime_rows(),
        "house_bots": house_bots(),
        "official_rules": RuleSet.objects.filter(slug=OFFICIAL_RULES).first(),
    }
    return render(request, "guide/index.html", context)


def doc(request: HttpRequest, name: str) -> HttpResponse:
    """One of ``docs/*.md`` as a page."""
    page = docs.load(name)
    if page is None:
        raise Http404("No such document.")
    return render(request, "guide/doc.html", {"doc": page})


def limits(request: HttpRequest) -> HttpResponse:
    """The limits a bot lives with (the values in force, then the docs' explanations) and the faults."""
    from matches.play import game_time, match_options
    from sandbox import Limits

    sections = [docs.render(docs.section(name, heading)) for name, heading in LIMIT_SECTIONS]
    context = {
        "match": {
            **dataclasses.asdict(match_options(2)),
            "game_time": ", ".join(f"{game_time(n):g} s at {n} players" for n in (2, 4, 10))
            + f"; a duplicate match's games share one match's time: {game_time(2, 2):g} s heads-up",
        },
        "sandbox": dataclasses.asdict(Limits()),
        "upload": {
            "upload size": f"{validation.MAX_UPLOAD_BYTES // 1024} KiB",
            "unpacked size of a zip": f"{validation.MAX_TOTAL_UNCOMPRESSED // (1024 * 1024)} MiB",
            "files in a zip": validation.MAX_FILE_COUNT,
            "languages": ", ".join(
                f"{lang} ({suffix})" for lang, suffix in validation.SOURCE_SUFFIXES.items()
            ),
        },
        "sections": sections,
    }
    return render(request, "guide/limits.html", context)


def runtime_rows() -> list[dict[str, Any]]:
    """Per language, this machine's runtime as its manifest says (``runtime``), or why there is none
    (``missing``): the versions the guide shows are read from the runtime itself, never typed in."""
    from sandbox import runtimes
    from sandbox.errors import SandboxUnavailable

    labels = dict(Language.choices)
    order = list(labels)
    rows: list[dict[str, Any]] = []
    for language in sorted(
        runtimes.languages(), key=lambda lang: order.index(lang) if lang in order else len(order)
    ):
        row: dict[str, Any] = {"language": language, "label": labels.get(language, language)}
        try:
            found = runtimes.find(language)
        except SandboxUnavailable as exc:
            row["missing"] = str(exc)
        else:
            row["runtime"] = found
            row["megabytes"] = round(int(found.manifest.get("bytes", 0)) / 1e6)
        rows.append(row)
    return rows


def runtime(request: HttpRequest) -> HttpResponse:
    """The runtime a bot runs in: interpreters and libraries from the runtimes' manifests, then
    docs/runtime.md (what a bot sees, what it may bundle)."""
    path = docs.doc_path("runtime")
    text = path.read_text(encoding="utf-8") if path else ""
    body = docs.render("\n".join(line for line in text.splitlines() if not line.startswith("# ")))
    return render(request, "guide/runtime.html", {"runtimes": runtime_rows(), "doc": body if text else None})


def rules_index(request: HttpRequest) -> HttpResponse:
    """Every active rule set with a line on each, linking to its page."""
    return render(request, "guide/rules_index.html", {"rulesets": RuleSet.objects.filter(is_active=True)})


def ruleset(request: HttpRequest, slug: str) -> HttpResponse:
    """One rule set in words: what differs from the official rules, the cards, the scoring, the decisions."""
    row = get_object_or_404(RuleSet, slug=slug)
    try:
        engine = row.to_engine()
    except (ArenaError, ValidationError) as exc:
        raise Http404(f"This rule set does not validate: {exc}") from exc
    return render(request, "guide/ruleset.html", {"ruleset": row, "book": rulebook.explain(engine)})


@cache_control(public=True, max_age=3600)
def schema(request: HttpRequest) -> FileResponse:
    """docs/protocol.schema.json, as a download."""
    path = docs.docs_dir() / "protocol.schema.json"
    if not path.is_file():
        raise Http404("The schema is missing.")
    return FileResponse(
        path.open("rb"), content_type="application/schema+json", as_attachment=True, filename=path.name
    )


@cache_control(public=True, max_age=3600)
def example(request: HttpRequest, filename: str) -> FileResponse:
    """An example bot or helper from bots_examples/ (the docs link to them), as text."""
    folder = docs.examples_dir()
    names = {p.name for p in folder.iterdir() if p.is_file() and p.suffix in (".py", ".js")}
    if filename not in names:
        raise Http404("No such example file.")
    kind = "text/javascript" if filename.endswith(".js") else "text/x-python"
    return FileResponse((folder / filename).open("rb"), content_type=f"{kind}; charset=utf-8")


@cache_control(public=True, max_age=600)
def download(request: HttpRequest, filename: str) -> HttpResponseBase:
    """The wheel (built on this machine once, ``guide.kits``) or a starter kit (made for this site)."""
    if filename == kits.wheel_name():
        path = kits.wheel_path()
        return FileResponse(
            path.open("rb"), content_type="application/zip", as_attachment=True, filename=path.name
        )
    for kit in kits.KITS.values():
        if filename == kit.filename:
            urls = _urls(request)
            response = HttpResponse(
                kits.kit_zip(kit, urls["site"], urls["guide"]), content_type="application/zip"
            )
            response["Content-Disposition"] = f'attachment; filename="{kit.filename}"'
            return response
    raise Http404("No such download.")


@cache_control(public=True, max_age=86400)
def favicon(request: HttpRequest) -> HttpResponse:
    """``/favicon.ico``, asked by browsers whatever the page says: the site's SVG icon."""
    return redirect(static("favicon.svg"))
