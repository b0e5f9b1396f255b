"""Finished matches with real engine replays, for the viewer's page, browser tests and benchmark.

Imported as ``tests.platform.viewer_support``. A match is created through the platform's own services
(``create_match``, ``claim``, ``record_result``) with a referee-shaped result whose replay is a real engine
game, so everything downstream (viewer data, pages) sees exactly what a worker would have stored.
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bots.models import Bot
from matches.models import Match
from matches.services import claim, create_match, record_result
from rulesets.models import RuleSet


@dataclass
class EngineResult:
    """The fields of ``arena.play.referee.MatchResult`` that ``record_result`` reads."""

    places: list[list[int]]
    scores: list[int]
    replay: dict[str, Any]
    decisions: int
    faults: list[Any] = field(default_factory=list)
    stderr: list[str] = field(default_factory=list)
    decision_stderr: list[list[list[Any]]] = field(default_factory=list)


def finished_match(
    ruleset: RuleSet,
    bots: list[Bot],
    replay: dict[str, Any],
    *,
    rated: bool = False,
    decision_stderr: list[list[list[Any]]] | None = None,
    stderr: list[str] | None = None,
) -> Match:
    """A finished match between ``bots`` (seat order) whose stored replay is ``replay``."""
    match = create_match(ruleset, bots, rated=rated, seed=int(replay["seed"]))
    claimed = claim(match.pk)
    assert claimed is not None
    outcome = replay["outcome"]
    result = EngineResult(
        places=outcome["places"],
        scores=outcome["scores"],
        replay=replay,
        decisions=len(replay["decisions"]),
        faults=[None] * len(bots),
        stderr=stderr or [""] * len(bots),
        decision_stderr=decision_stderr or [],
    )
    assert record_result(match.pk, claimed.attempts, result)
    match.refresh_from_db()
    return match


def stderr_rows(replay: dict[str, Any], seat: int, every: int = 3) -> list[list[Any]]:
    """Made-up per-decision stderr for one seat: ``[game, seat, decision, text]`` on every ``every``-th
    decision of that seat."""
    rows = []
    mine = [i for i, d in enumerate(replay["decisions"]) if d[0] == seat]
    for k, decision in enumerate(mine):
        if k % every == 0:
            rows.append(
                [
                    0,
                    seat,
                    decision,
                    f"thinking about decision {decision}\nchose {replay['decisions'][decision][1]}\n",
                ]
            )
    return rows


def png_pixels(path: Path) -> tuple[int, int, int, bytes]:
    """Decode an 8-bit RGB or RGBA PNG (what Chromium writes): (width, height, channels, raw rows)."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    pos, idat = 8, b""
    width = height = channels = 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos : pos + 8])
        body = data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            if depth != 8 or colour not in (2, 6):
                raise ValueError(f"{path}: only 8-bit RGB/RGBA PNGs are read")
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    out = bytearray(height * stride)
    prev = bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for x in range(stride):
            left = line[x - channels] if x >= channels else 0
            up = prev[x]
            corner = prev[x - channels] if x >= channels else 0
            if kind == 1:
                line[x] = (line[x] + left) & 255
            elif kind == 2:
                line[x] = (line[x] + up) & 255
            elif kind == 3:
                line[x] = (line[x] + ((left + up) >> 1)) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[x] = (line[x] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        out[y * stride : (y + 1) * stride] = line
        prev = line
    return width, height, channels, bytes(out)


def screenshot_stats(path: Path, step: int = 7) -> tuple[float, int]:
    """(variance of the grey level, number of distinct colours) over a sample of a screenshot's pixels: a
    blank page has variance ~0 and one or two colours."""
    width, height, channels, pixels = png_pixels(path)
    greys: list[int] = []
    colours: set[bytes] = set()
    for y in range(0, height, step):
        row = y * width * channels
        for x in range(0, width, step):
            at = row + x * channels
            r, g, b = pixels[at], pixels[at + 1], pixels[at + 2]
            greys.append((r * 299 + g * 587 + b * 114) // 1000)
            colours.add(pixels[at : at + 3])
    mean = sum(greys) / len(greys)
    return sum((v - mean) ** 2 for v in greys) / len(greys), len(colours)
