// UNO Arena: the Elo history chart of a bot (hand-written SVG, no library, no build step).
//
// Markup: <div class="elo-chart" data-chart="ID"></div> and <script type="application/json" id="ID">
// {"series": [{"slug", "name", "points": [[time ms, elo, match id|null, games], ...]}],
//  "marks": [{"t": time ms, "label": "v2"}], "start": 1500}</script>
// The chart fills its container's width (redrawn on resize, so it reads on a phone and a desktop); each
// rule set has a colour from a colour-blind-safe palette, a dash pattern and a point shape; with many rule
// sets the chart shows one at a time (the most played first; a legend key shows another, "Show all"
// overlays them), with few the legend toggles rule sets; hovering, or the arrow keys on the focused chart, show a point, and a click (or
// Enter) opens that match's replay.

const SVG = "http://www.w3.org/2000/svg";
// 14 distinct colours (Okabe-Ito, then Paul Tol's), so 13 rule sets never share one.
const PALETTE = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#8C564B", "#882255", "#117733", "#999933", "#AA4499", "#44AA99", "#332288"];
// With more rule sets than this, the chart starts with the most played one alone ("one at a time").
const SOLO_ABOVE = 3;
const DASHES = ["", "7 4", "2 3", "10 3 2 3", "4 4", "1 2", "12 4", "6 2 2 2"];
const SHAPES = ["circle", "square", "triangle", "diamond"];
const HOUR = 3600e3;
const DAY = 24 * HOUR;
const TIME_STEPS = [60e3, 5 * 60e3, 15 * 60e3, HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR, DAY, 2 * DAY, 7 * DAY, 14 * DAY, 30 * DAY, 91 * DAY, 182 * DAY, 365 * DAY];

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

/** A "nice" tick step (1, 2, 2.5 or 5 times a power of ten) giving about `count` ticks over `span`. */
export function niceStep(span, count) {
  const raw = span / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * power >= raw) return m * power;
  return 10 * power;
}

function timeLabel(t, step) {
  const d = new Date(t);
  if (step < DAY) return d.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" });
  if (step < 182 * DAY) return d.toLocaleDateString(undefined, { month: "short", day: "numeric" });
  return String(d.getFullYear());
}

function shapePath(shape, x, y, r) {
  switch (shape) {
    case "square":
      return `M${x - r},${y - r}h${2 * r}v${2 * r}h${-2 * r}z`;
    case "triangle":
      return `M${x},${y - r * 1.2}L${x + r * 1.1},${y + r * 0.8}H${x - r * 1.1}z`;
    case "diamond":
      return `M${x},${y - r * 1.3}L${x + r * 1.3},${y}L${x},${y + r * 1.3}L${x - r * 1.3},${y}z`;
    default:
      return `M${x - r},${y}a${r},${r} 0 1,0 ${2 * r},0a${r},${r} 0 1,0 ${-2 * r},0`;
  }
}

/** One chart in `root`, drawn from `data` (see the header). */
export class EloChart {
  constructor(root, data) {
    this.root = root;
    this.data = data;
    this.hidden = new Set();
    this.cursor = -1;
    this.series = data.series.map((s, i) => ({
      ...s,
      colour: PALETTE[i % PALETTE.length],
      dash: DASHES[i % DASHES.length],
      shape: SHAPES[i % SHAPES.length],
    }));
    this.solo = this.series.length > SOLO_ABOVE;
    if (this.solo) this.only(this.mostPlayed());
    root.classList.add("elo-chart-ready");
    this.figure = document.createElement("div");
    this.figure.className = "elo-figure";
    this.legend = document.createElement("div");
    this.legend.className = "elo-legend";
    this.legend.setAttribute("role", "group");
    this.legend.setAttribute("aria-label", "Rule sets shown");
    this.tip = document.createElement("div");
    this.tip.className = "elo-tip";
    this.tip.hidden = true;
    this.tip.setAttribute("role", "status");
    root.append(this.legend, this.figure, this.tip);
    this.buildLegend();
    this.draw();
    this.resize = new ResizeObserver(() => {
      if (this.root.clientWidth !== this.width) this.draw();
    });
    this.resize.observe(root);
  }

  mostPlayed() {
    let best = 0;
    this.series.forEach((s, i) => {
      if (s.points.length > this.series[best].points.length) best = i;
    });
    return best;
  }

  only(index) {
    this.hidden = new Set(this.series.map((_, i) => i).filter((i) => i !== index));
  }

  buildLegend() {
    this.legend.innerHTML = "";
    this.legend.classList.toggle("solo", this.solo);
    if (this.series.length > SOLO_ABOVE) {
      const mode = document.createElement("button");
      mode.type = "button";
      mode.className = "elo-mode";
      mode.textContent = this.solo ? "Show all" : "One at a time";
      mode.addEventListener("click", () => {
        this.solo = !this.solo;
        if (this.solo) this.only(this.mostPlayed());
        else this.hidden.clear();
        this.cursor = -1;
        this.buildLegend();
        this.draw();
      });
      this.legend.appendChild(mode);
    }
    this.series.forEach((s, i) => {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "elo-key";
      button.setAttribute("aria-pressed", String(!this.hidden.has(i)));
      const last = s.points[s.points.length - 1];
      button.innerHTML =
        `<svg width="30" height="12" aria-hidden="true"><line x1="1" y1="6" x2="29" y2="6" stroke="${s.colour}" stroke-width="2.5" stroke-dasharray="${s.dash}"/>` +
        `<path d="${shapePath(s.shape, 15, 6, 3.5)}" fill="${s.colour}"/></svg>` +
        `<span>${s.name || s.slug}</span> <b>${Math.round(last[1])}</b>`;
      button.title = this.solo ? `Show ${s.name || s.slug}` : `Show or hide ${s.name || s.slug}`;
      button.addEventListener("click", () => {
        if (this.solo) this.only(i);
        else if (this.hidden.has(i)) this.hidden.delete(i);
        else if (this.hidden.size < this.series.length - 1) this.hidden.add(i);
        this.legend.querySelectorAll(".elo-key").forEach((key, k) => key.setAttribute("aria-pressed", String(!this.hidden.has(k))));
        this.cursor = -1;
        this.draw();
      });
      this.legend.appendChild(button);
    });
  }

  visible() {
    return this.series.filter((_, i) => !this.hidden.has(i));
  }

  draw() {
    const width = Math.max(260, this.root.clientWidth);
    this.width = this.root.clientWidth;
    const narrow = width < 520;
    const height = narrow ? 220 : 290;
    const m = { left: narrow ? 40 : 50, right: 14, top: 18, bottom: 28 };
    const series = this.visible();
    const points = series.flatMap((s) => s.points);
    let t0 = Math.min(...points.map((p) => p[0]));
    let t1 = Math.max(...points.map((p) => p[0]));
    if (t1 - t0 < 60e3) {
      t0 -= 30e3;
      t1 += 30e3;
    }
    let y0 = Math.min(...points.map((p) => p[1]), this.data.start ?? Infinity);
    let y1 = Math.max(...points.map((p) => p[1]), this.data.start ?? -Infinity);
    if (y1 - y0 < 20) {
      y0 -= 10;
      y1 += 10;
    }
    const yStep = niceStep(y1 - y0, narrow ? 4 : 6);
    y0 = Math.floor(y0 / yStep) * yStep;
    y1 = Math.ceil(y1 / yStep) * yStep;
    const plotW = width - m.left - m.right;
    const plotH = height - m.top - m.bottom;
    const x = (t) => m.left + ((t - t0) / (t1 - t0)) * plotW;
    const y = (v) => m.top + (1 - (v - y0) / (y1 - y0)) * plotH;
    this.scale = { x, y };

    const svg = el("svg", { width, height, viewBox: `0 0 ${width} ${height}`, class: "elo-svg", role: "img", tabindex: "0" });
    const summary = series
      .map((s) => `${s.slug}: ${Math.round(s.points[0][1])} to ${Math.round(s.points[s.points.length - 1][1])} over ${s.points.length - 1} rated games`)
      .join("; ");
    svg.setAttribute("aria-label", `Elo history. ${summary}. Use the arrow keys to step through the points.`);
    const grid = el("g", { class: "elo-grid" }, svg);
    for (let v = y0; v <= y1 + 1e-9; v += yStep) {
      el("line", { x1: m.left, x2: width - m.right, y1: y(v), y2: y(v) }, grid);
      const label = el("text", { x: m.left - 6, y: y(v) + 4, "text-anchor": "end" }, grid);
      label.textContent = String(Math.round(v));
    }
    const maxTicks = Math.max(2, Math.floor(plotW / (narrow ? 70 : 95)));
    const tStep = TIME_STEPS.find((s) => (t1 - t0) / s <= maxTicks) ?? TIME_STEPS[TIME_STEPS.length - 1];
    const offset = new Date().getTimezoneOffset() * 60e3;
    for (let t = Math.ceil((t0 - offset) / tStep) * tStep + offset; t <= t1; t += tStep) {
      el("line", { x1: x(t), x2: x(t), y1: m.top + plotH, y2: m.top + plotH + 4, class: "elo-tick" }, grid);
      const label = el("text", { x: x(t), y: height - 8, "text-anchor": "middle" }, grid);
      label.textContent = timeLabel(t, tStep);
    }
    if (this.data.start !== undefined && this.data.start >= y0 && this.data.start <= y1) {
      el("line", { x1: m.left, x2: width - m.right, y1: y(this.data.start), y2: y(this.data.start), class: "elo-start" }, svg);
    }
    const marks = el("g", { class: "elo-marks" }, svg);
    for (const mark of this.data.marks || []) {
      if (mark.t < t0 || mark.t > t1) continue;
      el("line", { x1: x(mark.t), x2: x(mark.t), y1: m.top, y2: m.top + plotH }, marks);
      const label = el("text", { x: x(mark.t) + 3, y: m.top - 5 }, marks);
      label.textContent = mark.label;
    }
    const showShapes = points.length <= (narrow ? 40 : 90);
    for (const s of series) {
      const d = s.points.map((p, i) => `${i ? "L" : "M"}${x(p[0]).toFixed(1)},${y(p[1]).toFixed(1)}`).join("");
      el("path", { d, fill: "none", stroke: s.colour, "stroke-width": 2.2, "stroke-dasharray": s.dash, "stroke-linejoin": "round", class: "elo-line" }, svg);
      if (showShapes) {
        const dots = s.points.map((p) => shapePath(s.shape, x(p[0]), y(p[1]), 3)).join("");
        el("path", { d: dots, fill: s.colour, stroke: "#fff", "stroke-width": 0.8 }, svg);
      }
    }
    this.hover = el("g", { class: "elo-hover", visibility: "hidden" }, svg);
    el("line", { y1: m.top, y2: m.top + plotH, class: "elo-hover-line" }, this.hover);
    this.hoverDot = el("circle", { r: 5.5 }, this.hover);
    this.flat = series
      .flatMap((s) => s.points.filter((p) => p[2] !== null).map((p) => ({ s, p })))
      .sort((a, b) => a.p[0] - b.p[0] || a.p[1] - b.p[1]);
    svg.addEventListener("mousemove", (e) => this.pointAt(e, svg));
    svg.addEventListener("mouseleave", () => this.show(-1));
    svg.addEventListener("click", (e) => {
      this.pointAt(e, svg);
      this.open();
    });
    svg.addEventListener("keydown", (e) => this.key(e));
    this.figure.replaceChildren(svg);
    this.svg = svg;
    if (this.cursor >= 0) this.show(this.cursor);
  }

  pointAt(event, svg) {
    const box = svg.getBoundingClientRect();
    const px = event.clientX - box.left;
    const py = event.clientY - box.top;
    let best = -1;
    let bestDistance = Infinity;
    this.flat.forEach(({ p }, i) => {
      const dx = this.scale.x(p[0]) - px;
      const dy = this.scale.y(p[1]) - py;
      const distance = dx * dx + dy * dy * 0.25;
      if (distance < bestDistance) {
        bestDistance = distance;
        best = i;
      }
    });
    this.show(bestDistance < 60 * 60 ? best : -1);
  }

  show(index) {
    this.cursor = index;
    if (index < 0 || !this.flat[index]) {
      this.hover.setAttribute("visibility", "hidden");
      this.tip.hidden = true;
      return;
    }
    const { s, p } = this.flat[index];
    const cx = this.scale.x(p[0]);
    const cy = this.scale.y(p[1]);
    this.hover.setAttribute("visibility", "visible");
    this.hover.firstChild.setAttribute("x1", cx);
    this.hover.firstChild.setAttribute("x2", cx);
    this.hoverDot.setAttribute("cx", cx);
    this.hoverDot.setAttribute("cy", cy);
    this.hoverDot.setAttribute("fill", s.colour);
    const when = new Date(p[0]).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
    this.tip.innerHTML = `<b>${s.slug}</b> ${Math.round(p[1])} after game ${p[3]}<br><small>${when} · match #${p[2]} (click or Enter: replay)</small>`;
    this.tip.hidden = false;
    const left = Math.min(Math.max(0, cx - 90), this.root.clientWidth - 200);
    this.tip.style.left = `${left}px`;
    this.tip.style.top = `${this.legend.offsetHeight + cy + 14}px`;
  }

  open() {
    const item = this.flat[this.cursor];
    if (item && item.p[2] !== null) window.location.href = `/matches/${item.p[2]}/#replay-viewer`;
  }

  key(e) {
    if (!this.flat.length) return;
    const moves = { ArrowRight: 1, ArrowLeft: -1, Home: -Infinity, End: Infinity };
    if (e.key in moves) {
      e.preventDefault();
      const step = moves[e.key];
      const next = Number.isFinite(step) ? (this.cursor < 0 ? this.flat.length - 1 : this.cursor + step) : step < 0 ? 0 : this.flat.length - 1;
      this.show(Math.max(0, Math.min(this.flat.length - 1, next)));
    } else if (e.key === "Enter" && this.cursor >= 0) {
      this.open();
    } else if (e.key === "Escape") {
      this.show(-1);
    }
  }
}

/** Draw every `.elo-chart[data-chart]` of the page. */
export function mountCharts(doc = document) {
  const charts = [];
  for (const root of doc.querySelectorAll(".elo-chart[data-chart]:not(.elo-chart-ready)")) {
    const source = doc.getElementById(root.dataset.chart);
    const data = source ? JSON.parse(source.textContent) : null;
    if (data && data.series && data.series.length) charts.push(new EloChart(root, data));
  }
  return charts;
}

mountCharts();
