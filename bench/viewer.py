"""Replay viewer speed: a 2,000-decision game (classic, several hands to 500 points) in headless Chromium.

    python bench/viewer.py [--decisions 2000] [--steps 400] [--runs 3]

Prints:
- the server side: re-simulation into viewer data (``arena.engine.replay_view.expand``) and its size (raw, gzip);
- time to first render: from navigation to the first drawn table (module loading, fetching and parsing
  the viewer data, the first state, the DOM), the median of ``--runs`` page loads;
- per-step time: stepping forward and back decision by decision, stepping event by event, and seeking to
  random positions (``Viewer.goto`` renders synchronously, and the timing forces the style and layout the
  step causes, so each figure is the whole cost of a step but the paint: the table state from the
  nearest snapshot, the DOM update, style and layout);
- playback at 500 decisions per second: frames drawn per second of animation.

The viewer's static files are served from ``platform/static`` by a local HTTP server together with the
viewer data, on a page with the same markup as ``templates/viewer/_viewer.html`` (Django is not involved:
this measures the viewer). Chromium is Debian's ``/usr/bin/chromium`` driven by Playwright.
"""

from __future__ import annotations

import argparse
import functools
import gzip
import json
import statistics
import sys
import tempfile
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from arena.engine.replay_view import expand  # noqa: E402
from tests.browser import launch  # noqa: E402
from tests.viewer.engine_games import long_replay  # noqa: E402

PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/static/css/site.css"><link rel="stylesheet" href="/static/viewer/viewer.css">
</head><body><main>
<div class="uno-viewer" data-view-url="/view.json" data-games="1" data-url-state="1">
<script type="application/json">[]</script></div>
<script type="module" src="/static/viewer/viewer.js"></script>
</main></body></html>"""

STEPS_JS = """async ([steps, seed]) => {
  const v = window.__unoViewers[0];
  // Each step is timed with the style and layout it causes (forced by reading a layout property).
  const time = (f) => { const t = performance.now(); f(); void document.body.offsetHeight; return performance.now() - t; };
  v.goto(v.view.bounds[0]);
  const forward = [], back = [], events = [], seeks = [];
  for (let i = 0; i < steps; i++) forward.push(time(() => v.nextDecision()));
  for (let i = 0; i < steps; i++) back.push(time(() => v.prevDecision()));
  for (let i = 0; i < steps; i++) events.push(time(() => v.goto(v.position + 1)));
  let s = seed;
  for (let i = 0; i < steps; i++) {
    s = (s * 1103515245 + 12345) % 2147483648;
    const target = s % (v.view.events.length + 1);
    seeks.push(time(() => v.goto(target)));
  }
  return { forward, back, events, seeks, decisions: v.view.decisions.length, events_total: v.view.events.length };
}"""

PLAY_JS = """async (ms) => {
  const v = window.__unoViewers[0];
  v.goto(v.view.bounds[0]);
  v.setSpeed(8);  // 500 decisions per second
  let frames = 0;
  const count = () => { frames++; if (v.playing) requestAnimationFrame(count); };
  const start = v.position;
  v.play();
  requestAnimationFrame(count);
  await new Promise((r) => setTimeout(r, ms));
  v.pause();
  return { frames, seconds: ms / 1000, decisions: v.view.bounds.indexOf(v.position) - v.view.bounds.indexOf(start) };
}"""


class _Handler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass


def _serve(folder: Path) -> ThreadingHTTPServer:
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Handler, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def _summary(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return (
        f"mean {statistics.fmean(values):6.2f} ms   p50 {statistics.median(values):6.2f} ms   "
        f"p95 {p95:6.2f} ms   max {ordered[-1]:6.2f} ms"
    )


def main() -> int:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--decisions", type=int, default=2000, help="at least this many decisions")
    parser.add_argument("--steps", type=int, default=400, help="steps timed per kind")
    parser.add_argument("--runs", type=int, default=3, help="page loads for the time to first render")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    replay = long_replay(args.decisions, int(args.decisions * 1.3))
    started = time.perf_counter()
    view = expand(replay)
    expand_ms = (time.perf_counter() - started) * 1000
    raw = json.dumps(view, separators=(",", ":")).encode()
    print(
        f"replay: classic, {replay['players']} players, {len(replay['decisions'])} decisions, "
        f"{len(view['events'])} events, {len(view['hands'])} hands"
    )
    print(
        f"viewer data: expand {expand_ms:.0f} ms (once per match, then cached), {len(raw) / 1024:.0f} KiB JSON, "
        f"{len(gzip.compress(raw, 6)) / 1024:.0f} KiB gzip"
    )
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "static").symlink_to(ROOT / "platform" / "static")
        (folder / "view.json").write_bytes(raw)
        (folder / "index.html").write_text(PAGE)
        server = _serve(folder)
        url = f"http://127.0.0.1:{server.server_address[1]}/index.html"
        with sync_playwright() as playwright:
            browser = launch(playwright)
            first: list[float] = []
            for _ in range(args.runs):
                context = browser.new_context(viewport={"width": 1280, "height": 900})
                page = context.new_page()
                page.goto(url)
                page.wait_for_selector(".uno-viewer[data-ready='1']", timeout=30000)
                first.append(page.evaluate("performance.getEntriesByName('uv-first-render')[0].startTime"))
                context.close()
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            page = context.new_page()
            page.goto(url)
            page.wait_for_selector(".uno-viewer[data-ready='1']", timeout=30000)
            steps = page.evaluate(STEPS_JS, [args.steps, 7])
            play = page.evaluate(PLAY_JS, 2000)
            browser.close()
        server.shutdown()
    print(
        f"time to first render: median {statistics.median(first):.0f} ms over {args.runs} loads "
        f"({', '.join(f'{t:.0f}' for t in first)} ms)"
    )
    print(f"per step, {args.steps} of each:")
    print(f"  next decision      {_summary(steps['forward'])}")
    print(f"  previous decision  {_summary(steps['back'])}")
    print(f"  next event         {_summary(steps['events'])}")
    print(f"  seek (random)      {_summary(steps['seeks'])}")
    print(
        f"playback at 500x: {play['decisions']} decisions in {play['seconds']:.1f} s, "
        f"{play['frames'] / play['seconds']:.0f} frames/s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
