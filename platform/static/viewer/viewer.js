// UNO Arena replay viewer: the controller. Mounts every `.uno-viewer` element on the page.
//
// A position is a number of events applied (0 … events.length); decision d starts at view.bounds[d].
// Rendering is synchronous and costs one Timeline lookup (a snapshot copy plus at most 64 events), so
// stepping, seeking and playing at any speed stay fast on games of thousands of decisions.
// docs/viewer.md describes the URL format (#d=123&pov=2&g=1) and the keyboard shortcuts.

import { esc } from "./cards.js";
import { centerHTML, decisionHTML, logItemsHTML, scoresHTML, seatsHTML, situationHTML } from "./render.js";
import { Timeline, decisionAt, observation, omniscient, position } from "./table.js";

export const SPEEDS = [0.5, 1, 2, 4, 10, 20, 50, 100, 500];
const DEFAULT_SPEED = 1; // index into SPEEDS: 1 decision per second
const LOG_LIMIT = 50; // events shown in the log
const SPEED_LABELS = SPEEDS.map((s) => `${s}×`);

// Transport icons as inline SVG (icon fonts and emoji are not on every machine).
const svg = (d) => `<svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false"><path fill="currentColor" d="${d}"/></svg>`;
const ICONS = {
  start: svg("M2 2h2.2v12H2zM14 2v12L5 8z"),
  prevHand: svg("M8 2v12L1 8zM15 2v12L8 8z"),
  prev: svg("M12 2v12L3 8z"),
  prevEvent: svg("M10.5 3 5.5 8l5 5-1.4 1.4L2.7 8l6.4-6.4z"),
  play: svg("M4 2l10 6-10 6z"),
  pause: svg("M3 2h3.6v12H3zM9.4 2H13v12H9.4z"),
  nextEvent: svg("M5.5 3l5 5-5 5 1.4 1.4L13.3 8 6.9 1.6z"),
  next: svg("M4 2v12l9-6z"),
  nextHand: svg("M1 2v12l7-6zM8 2v12l7-6z"),
  end: svg("M11.8 2H14v12h-2.2zM2 2v12l9-6z"),
};

function html(strings, ...values) {
  const template = document.createElement("template");
  template.innerHTML = strings.reduce((acc, s, i) => acc + s + (i < values.length ? values[i] : ""), "").trim();
  return template.content.firstElementChild;
}

/** One replay viewer bound to a root element (see platform/templates/viewer/_viewer.html). */
export class Viewer {
  constructor(root) {
    this.root = root;
    this.viewUrl = root.dataset.viewUrl;
    this.stderrUrl = root.dataset.stderrUrl || "";
    this.games = Number(root.dataset.games || "1");
    this.ownsUrl = root.dataset.urlState === "1";
    this.seats = JSON.parse(root.querySelector('script[type="application/json"]')?.textContent || "[]");
    this.view = null;
    this.timeline = null;
    this.position = 0;
    this.pov = -1;
    this.game = 0;
    this.speed = DEFAULT_SPEED;
    this.playing = false;
    this.stderr = {};
    this.lastHashWrite = 0;
    this._frame = this._frame.bind(this);
    this.build();
  }

  // --- Data ----------------------------------------------------------------------------------------

  /**
   * Fetch and show one game's viewer data, then go to `target` ({d, e, pov} as in the URL fragment;
   * by default before the first decision, with the current point of view).
   */
  async load(game = 0, target = {}) {
    this.pause();
    this.game = game;
    this.root.dataset.ready = "0";
    this.el.status.textContent = "Loading the replay…";
    this.el.status.hidden = false;
    const url = `${this.viewUrl}${this.viewUrl.includes("?") ? "&" : "?"}game=${game}`;
    let response;
    try {
      response = await fetch(url, { headers: { Accept: "application/json" } });
    } catch (error) {
      this.fail(`The replay could not be loaded (${error}).`);
      return;
    }
    const data = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
    if (!response.ok || data.error) {
      this.fail(data.error || `The replay could not be loaded (HTTP ${response.status}).`);
      return;
    }
    this.view = data;
    this.timeline = new Timeline(data);
    this.handEnds = null;
    this.scoresKey = null;
    this.logState = null;
    this.names = data.names.map((name, s) => this.seatInfo(s)?.name || name);
    this.stderr = {};
    if (this.stderrUrl) {
      fetch(`${this.stderrUrl}?game=${game}`, { credentials: "same-origin" })
        .then((r) => (r.ok ? r.json() : { seats: {} }))
        .then((d) => {
          this.stderr = d.seats || {};
          if (this.view === data) this.render();
        })
        .catch(() => {});
    }
    this.el.status.hidden = true;
    this.el.app.hidden = false;
    this.setupControls();
    const pov = target.pov ?? this.pov;
    this.pov = pov !== null && pov >= 0 && pov < data.players ? pov : -1;
    this.el.pov.value = String(this.pov);
    this.goto(this.positionFrom(target) ?? data.bounds[0] ?? 0, { force: true });
    this.root.dataset.ready = "1";
    performance.mark?.("uv-first-render");
  }

  fail(message) {
    this.el.status.textContent = message;
    this.el.status.hidden = false;
    this.el.status.classList.add("error");
    this.el.app.hidden = true;
    this.root.dataset.ready = "error";
  }

  /** Platform facts about the bot at a seat of the current game (name, version, link), if given. */
  seatInfo(seat) {
    const seating = this.view?.seating;
    const entry = Array.isArray(seating) ? seating[seat] : seat;
    return this.seats[entry] || null;
  }

  // --- DOM -------------------------------------------------------------------------------------------

  build() {
    const app = html`
      <div class="uv-app" hidden>
        <div class="uv-bar">
          <p class="uv-where" aria-live="polite"></p>
          <div class="uv-bar-controls">
            ${this.games > 1 ? `<label>Game <select class="uv-game">${Array.from({ length: this.games }, (_, g) => `<option value="${g}">${g + 1} of ${this.games}</option>`).join("")}</select></label>` : ""}
            <label>Point of view <select class="uv-pov"></select></label>
          </div>
        </div>
        <p class="uv-situation"></p>
        <div class="uv-main">
          <section class="uv-table" aria-label="The table">
            <div class="uv-center"></div>
            <ol class="uv-seats"></ol>
          </section>
          <aside class="uv-side">
            <section class="uv-decision" aria-label="Decision"></section>
            <section class="uv-position-box" aria-label="Position">
              <div class="uv-command"><code class="uv-position" translate="no"></code><button type="button" class="small uv-copy-position" data-copy=".uv-position" data-label="Copy position" title="This position in one line (docs/position.md): paste it into python -m arena ask BOT --position '…' to see what your bot plays here">Copy position</button></div>
              <p class="uv-position-note uv-muted"></p>
            </section>
            <section class="uv-log-box" aria-label="Events of this hand">
              <h3>Events <small class="uv-muted">this hand, newest first</small></h3>
              <ol class="uv-log"></ol>
              <p class="uv-log-more uv-muted"></p>
            </section>
          </aside>
        </div>
        <div class="uv-controls" role="group" aria-label="Replay controls">
          <div class="uv-buttons">
            <button type="button" data-act="start" title="First decision (Home)" aria-label="First decision">${ICONS.start}</button>
            <button type="button" data-act="prev-hand" title="Previous hand (PageUp)" aria-label="Previous hand">${ICONS.prevHand}</button>
            <button type="button" data-act="prev" title="Previous decision (←)" aria-label="Previous decision">${ICONS.prev}</button>
            <button type="button" data-act="prev-event" title="Previous event (Shift+←)" aria-label="Previous event">${ICONS.prevEvent}</button>
            <button type="button" data-act="play" class="uv-play" title="Play / pause (Space)" aria-label="Play">${ICONS.play} Play</button>
            <button type="button" data-act="next-event" title="Next event (Shift+→)" aria-label="Next event">${ICONS.nextEvent}</button>
            <button type="button" data-act="next" title="Next decision (→)" aria-label="Next decision">${ICONS.next}</button>
            <button type="button" data-act="next-hand" title="Next hand (PageDown)" aria-label="Next hand">${ICONS.nextHand}</button>
            <button type="button" data-act="end" title="End (End)" aria-label="End">${ICONS.end}</button>
            <label class="uv-speed-label">Speed <select class="uv-speed">${SPEED_LABELS.map((l, i) => `<option value="${i}">${l}</option>`).join("")}</select></label>
          </div>
          <div class="uv-timeline">
            <input type="range" class="uv-slider" min="0" max="1" value="0" step="1" aria-label="Timeline (decision)">
            <div class="uv-marks" aria-label="Hands"></div>
          </div>
          <form class="uv-jump">
            <label>Hand <select class="uv-hand-select"></select></label>
            <label>Turn <input type="number" class="uv-turn" min="0" inputmode="numeric"></label>
            <label>Decision <input type="number" class="uv-decision-input" min="0" inputmode="numeric"></label>
            <button type="submit" class="small">Go</button>
          </form>
        </div>
        <details class="uv-scores-box" open>
          <summary>Scores by hand</summary>
          <div class="uv-scores-wrap"></div>
        </details>
      </div>`;
    const status = html`<p class="uv-status" role="status">Loading the replay…</p>`;
    this.root.prepend(app);
    this.root.prepend(status);
    const q = (sel) => app.querySelector(sel);
    this.el = {
      app, status,
      where: q(".uv-where"), situation: q(".uv-situation"), center: q(".uv-center"), seats: q(".uv-seats"),
      decision: q(".uv-decision"), log: q(".uv-log"), position: q(".uv-position"), positionNote: q(".uv-position-note"),
      copyPosition: q(".uv-copy-position"), logMore: q(".uv-log-more"), scores: q(".uv-scores-wrap"), pov: q(".uv-pov"),
      game: q(".uv-game"), speed: q(".uv-speed"), slider: q(".uv-slider"), marks: q(".uv-marks"),
      play: q(".uv-play"), handSelect: q(".uv-hand-select"), turn: q(".uv-turn"), decisionInput: q(".uv-decision-input"),
      jump: q(".uv-jump"),
    };
    this.el.speed.value = String(this.speed);
    app.querySelector(".uv-buttons").addEventListener("click", (e) => {
      const act = e.target.closest("button")?.dataset.act;
      if (act) this.command(act);
    });
    this.el.slider.addEventListener("input", () => {
      this.pause();
      const d = Number(this.el.slider.value);
      this.goto(this.view.bounds[d]);
    });
    this.el.marks.addEventListener("click", (e) => {
      const hand = e.target.closest("button")?.dataset.hand;
      if (hand !== undefined) this.gotoHand(Number(hand));
    });
    this.el.pov.addEventListener("change", () => this.setPov(Number(this.el.pov.value)));
    this.el.speed.addEventListener("change", () => this.setSpeed(Number(this.el.speed.value)));
    this.el.game?.addEventListener("change", () => this.load(Number(this.el.game.value)));
    this.el.handSelect.addEventListener("change", () => this.gotoHand(Number(this.el.handSelect.value)));
    this.el.jump.addEventListener("submit", (e) => {
      e.preventDefault();
      this.jumpFromForm();
      if (e.target.contains(document.activeElement)) document.activeElement.blur(); // shortcuts work again
    });
    const keyTarget = this.ownsUrl ? document : this.root;
    if (!this.ownsUrl && !this.root.hasAttribute("tabindex")) this.root.tabIndex = 0;
    keyTarget.addEventListener("keydown", (e) => this.onKey(e));
    if (this.ownsUrl) window.addEventListener("hashchange", () => this.readHash());
    this.root.querySelectorAll("[data-copy]").forEach((button) => {
      button.addEventListener("click", () => this.copy(button));
    });
  }

  setupControls() {
    const view = this.view;
    const D = view.decisions.length;
    this.el.slider.max = String(D);
    this.el.decisionInput.max = String(D);
    this.el.pov.innerHTML =
      `<option value="-1">All hands</option>` +
      this.names.map((n, s) => `<option value="${s}">Seat ${s}: ${esc(n)}</option>`).join("");
    this.el.handSelect.innerHTML = view.hands
      .map((row, i) => `<option value="${i}">${row[0]} of ${view.hands.length}</option>`)
      .join("");
    const many = view.hands.length > 24;
    this.el.marks.innerHTML = view.hands
      .map((row, i) => `<button type="button" data-hand="${i}" title="Hand ${row[0]}" aria-label="Hand ${row[0]}">${many ? "" : `H${row[0]}`}</button>`)
      .join("");
    // Positions through the CSSOM, not style attributes: the Content-Security-Policy allows no inline styles.
    this.el.marks.querySelectorAll("button").forEach((button, i) => {
      button.style.left = `${D ? (100 * view.hands[i][3]) / D : 0}%`;
    });
  }

  // --- Navigation ----------------------------------------------------------------------------------

  get end() {
    return this.view.events.length;
  }

  /** Positions where a decision starts, plus 0 (before the deal) and the end. */
  stops() {
    return this.view.bounds;
  }

  goto(position, { force = false } = {}) {
    if (!this.view) return;
    const p = Math.max(0, Math.min(this.end, Math.round(position)));
    if (p === this.position && !force) return;
    this.position = p;
    this.render();
  }

  nextDecision() {
    const b = this.view.bounds;
    const d = decisionAt(this.view, this.position);
    if (this.position < b[0]) return this.goto(b[0]);
    this.goto(d + 1 < b.length ? b[d + 1] : this.end);
  }

  prevDecision() {
    const b = this.view.bounds;
    const d = decisionAt(this.view, this.position);
    if (this.position > b[d]) return this.goto(b[d]);
    this.goto(d > 0 ? b[d - 1] : 0);
  }

  /** How many hands have ended before the position (each hand_end event is just before the next "hand"). */
  handsFinished() {
    if (!this.handEnds) {
      this.handEnds = [];
      this.view.events.forEach((ev, i) => {
        if (ev.type === "hand_end") this.handEnds.push(i);
      });
    }
    let n = 0;
    while (n < this.handEnds.length && this.handEnds[n] < this.position) n++;
    return n;
  }

  handStarts() {
    return this.view.hands.map((row) => this.view.bounds[row[3]] ?? this.end);
  }

  currentHand() {
    const starts = this.view.hands.map((row) => row[2]);
    let h = 0;
    for (let i = 0; i < starts.length; i++) if (starts[i] < this.position) h = i;
    return h;
  }

  gotoHand(i) {
    const starts = this.handStarts();
    this.goto(starts[Math.max(0, Math.min(starts.length - 1, i))]);
  }

  nextHand() {
    const next = this.handStarts().find((p) => p > this.position);
    this.goto(next ?? this.end);
  }

  prevHand() {
    const before = this.handStarts().filter((p) => p < this.position);
    this.goto(before.length ? before[before.length - 1] : 0);
  }

  jumpFromForm() {
    const view = this.view;
    const decision = this.el.decisionInput.value;
    const turn = this.el.turn.value;
    const hand = Number(this.el.handSelect.value);
    if (decision !== "" && Number(decision) !== decisionAt(view, this.position)) {
      const d = Math.max(0, Math.min(view.decisions.length, Number(decision)));
      this.goto(view.bounds[d]);
    } else if (turn !== "") {
      const first = view.hands[hand][3];
      const last = hand + 1 < view.hands.length ? view.hands[hand + 1][3] : view.decisions.length;
      let d = first;
      while (d < last && view.points[d][2] < Number(turn)) d++;
      this.goto(view.bounds[Math.min(d, view.decisions.length)]);
    } else {
      this.gotoHand(hand);
    }
  }

  setPov(seat) {
    this.pov = seat >= 0 && seat < this.view.players ? seat : -1;
    this.el.pov.value = String(this.pov);
    this.render();
  }

  cyclePov() {
    const next = this.pov + 1 >= this.view.players ? -1 : this.pov + 1;
    this.setPov(next);
  }

  setSpeed(index) {
    this.speed = Math.max(0, Math.min(SPEEDS.length - 1, index));
    this.el.speed.value = String(this.speed);
  }

  // --- Playback ------------------------------------------------------------------------------------

  play() {
    if (!this.view || this.playing) return;
    if (this.position >= this.end) this.goto(this.view.bounds[0]);
    this.playing = true;
    this.carry = 1; // the first step comes at once
    this.lastFrame = performance.now();
    this.el.play.innerHTML = `${ICONS.pause} Pause`;
    this.el.where.setAttribute("aria-live", "off"); // no announcement per step while playing
    this.el.play.setAttribute("aria-label", "Pause");
    requestAnimationFrame(this._frame);
  }

  pause() {
    if (!this.playing) return;
    this.playing = false;
    this.el.play.innerHTML = `${ICONS.play} Play`;
    this.el.play.setAttribute("aria-label", "Play");
    this.el.where.setAttribute("aria-live", "polite");
    this.writeHash(true);
  }

  toggle() {
    if (this.playing) this.pause();
    else this.play();
  }

  _frame(now) {
    if (!this.playing) return;
    this.carry += ((now - this.lastFrame) / 1000) * SPEEDS[this.speed];
    this.lastFrame = now;
    let steps = Math.floor(this.carry);
    if (steps > 0) {
      this.carry -= steps;
      const b = this.view.bounds;
      let d = decisionAt(this.view, this.position);
      if (this.position >= b[d]) d += steps;
      else d += steps - 1;
      this.goto(d < b.length ? b[d] : this.end);
      if (this.position >= this.end) {
        this.pause();
        return;
      }
    }
    requestAnimationFrame(this._frame);
  }

  command(act) {
    if (!this.view) return;
    if (act !== "play") this.pause();
    const actions = {
      start: () => this.goto(this.view.bounds[0]),
      end: () => this.goto(this.end),
      prev: () => this.prevDecision(),
      next: () => this.nextDecision(),
      "prev-event": () => this.goto(this.position - 1),
      "next-event": () => this.goto(this.position + 1),
      "prev-hand": () => this.prevHand(),
      "next-hand": () => this.nextHand(),
      play: () => this.toggle(),
    };
    actions[act]?.();
  }

  onKey(e) {
    if (!this.view || e.ctrlKey || e.metaKey || e.altKey) return;
    const tag = e.target?.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || e.target?.isContentEditable) return;
    const keys = {
      ArrowRight: e.shiftKey ? "next-event" : "next",
      ArrowLeft: e.shiftKey ? "prev-event" : "prev",
      ".": "next-event",
      ",": "prev-event",
      PageDown: "next-hand",
      PageUp: "prev-hand",
      "]": "next-hand",
      "[": "prev-hand",
      Home: "start",
      End: "end",
      " ": "play",
      k: "play",
    };
    let handled = true;
    if (keys[e.key]) this.command(keys[e.key]);
    else if (/^[1-9]$/.test(e.key)) this.setSpeed(Number(e.key) - 1);
    else if (e.key === "v") this.cyclePov();
    else if (e.key === "a") this.setPov(-1);
    else if (e.key === "g") this.el.decisionInput.focus();
    else handled = false;
    if (handled) e.preventDefault();
  }

  // --- URL -----------------------------------------------------------------------------------------

  /** The position as a URL fragment: d=<decision> at a decision (or the end), else e=<events>. */
  hash() {
    const parts = [];
    const d = this.view.bounds.indexOf(this.position);
    parts.push(d >= 0 ? `d=${d}` : `e=${this.position}`);
    if (this.pov >= 0) parts.push(`pov=${this.pov}`);
    if (this.game) parts.push(`g=${this.game}`);
    return `#${parts.join("&")}`;
  }

  writeHash(now = false) {
    if (!this.ownsUrl || !this.view) return;
    const t = performance.now();
    if (!now && this.playing && t - this.lastHashWrite < 400) return;
    this.lastHashWrite = t;
    const hash = this.hash();
    if (location.hash !== hash) history.replaceState(null, "", hash);
  }

  /** Position, point of view and game from the URL fragment (see hash()). */
  static parseHash(text) {
    const params = new URLSearchParams(text.replace(/^#/, ""));
    const int = (k) => (params.has(k) && /^-?\d+$/.test(params.get(k)) ? Number(params.get(k)) : null);
    return { d: int("d"), e: int("e"), pov: int("pov"), g: int("g") };
  }

  positionFrom(parsed) {
    if (parsed.d !== null && parsed.d !== undefined) return this.view.bounds[Math.max(0, Math.min(this.view.bounds.length - 1, parsed.d))];
    if (parsed.e !== null && parsed.e !== undefined) return parsed.e;
    return null;
  }

  readHash() {
    if (!this.view) return;
    const parsed = Viewer.parseHash(location.hash);
    const game = parsed.g ?? 0;
    if (game !== this.game && game >= 0 && game < this.games) {
      this.el.game.value = String(game);
      this.load(game, { ...parsed, pov: parsed.pov ?? -1 });
      return;
    }
    this.applyParsed(parsed);
  }

  applyParsed(parsed) {
    const position = this.positionFrom(parsed);
    this.pov = parsed.pov !== null && parsed.pov >= 0 && parsed.pov < this.view.players ? parsed.pov : -1;
    this.el.pov.value = String(this.pov);
    this.goto(position ?? this.position, { force: true });
  }

  // --- Rendering -----------------------------------------------------------------------------------

  render() {
    const view = this.view;
    const st = this.timeline.state(this.position);
    const all = omniscient(view, st);
    const table = this.pov < 0 ? all : observation(view, st, this.pov);
    if (this.pov >= 0) table.hands = null; // never render what this seat cannot see
    table.position = this.position;
    const d = decisionAt(view, this.position);
    const D = view.decisions.length;
    const handIndex = this.currentHand();
    const handStart = view.hands[handIndex]?.[2] ?? 0;
    const atEnd = this.position >= this.end;
    const names = this.names;
    const set = (el, markup) => {  // touch the DOM only where something changed
      if (el._html !== markup) {
        el._html = markup;
        el.innerHTML = markup;
      }
    };
    const where =
      `Hand <b>${table.hand_no || 1}</b> of ${view.hands.length} · turn <b>${table.turn}</b> · ` +
      (atEnd ? `<b>end</b> (${D} decisions)` : `decision <b>#${d}</b> of ${D}`) +
      (this.view.bounds.includes(this.position) || atEnd ? "" : ` · event ${this.position - view.bounds[d]}`);
    set(this.el.where, where);
    set(this.el.situation, situationHTML(table, names));
    set(this.el.center, centerHTML(view, table, this.pov < 0));
    this.renderSeats(seatsHTML(view, table, this.pov, names, (s) => this.seatInfo(s)));
    set(this.el.decision, decisionHTML(view, atEnd ? D : d, this.position, this.pov, names, this.stderr));
    this.renderPosition(st);
    // Highlight what the last step did: at a decision point, the previous decision's events; inside a
    // decision, its events so far.
    const boundary = view.bounds.indexOf(this.position);
    this.renderLog(handStart, boundary < 0 ? view.bounds[d] : boundary > 0 ? view.bounds[boundary - 1] : 0);
    const scoresKey = `${this.handsFinished()}:${names.join()}`;
    if (scoresKey !== this.scoresKey) {  // the scores table changes only when a hand ends
      this.scoresKey = scoresKey;
      this.el.scores.innerHTML = scoresHTML(view, this.position, names);
    }
    this.el.slider.value = String(atEnd ? D : d);
    this.el.slider.setAttribute("aria-valuetext", atEnd ? "end" : `decision ${d} of ${D}`);
    if (document.activeElement !== this.el.handSelect) this.el.handSelect.value = String(handIndex);
    if (document.activeElement !== this.el.decisionInput) this.el.decisionInput.value = String(atEnd ? D : d);
    if (document.activeElement !== this.el.turn) this.el.turn.value = String(table.turn);
    this.root.dataset.position = String(this.position);
    this.root.dataset.decision = String(atEnd ? D : d);
    this.root.dataset.pov = String(this.pov);
    this.root.dataset.game = String(this.game);
    this.writeHash();
  }

  /** The position in one line (docs/position.md) at a decision: complete, or as the point of view sees it. */
  renderPosition(st) {
    const text = position(this.view, st, this.pov);
    const note = text === null
      ? "A position is taken at a decision: step to one to copy it."
      : this.pov < 0
        ? "Every card shown. Choose a point of view for what that seat saw (what its bot was asked)."
        : `What ${this.names[this.pov]} saw: other hands and the draw pile as counts.`;
    if (this.el.position.textContent !== (text ?? "")) this.el.position.textContent = text ?? "";
    if (this.el.positionNote.textContent !== note) this.el.positionNote.textContent = note;
    this.el.copyPosition.disabled = text === null;
  }

  renderSeats(rows) {
    const list = this.el.seats;
    while (list.children.length > rows.length) list.lastElementChild.remove();
    rows.forEach(([classes, inner], s) => {
      let item = list.children[s];
      if (!item) {
        item = document.createElement("li");
        item.dataset.seat = String(s);
        list.appendChild(item);
      }
      if (item.className !== classes) item.className = classes;
      if (item._html !== inner) {
        item._html = inner;
        item.innerHTML = inner;
      }
    });
  }

  /**
   * The events of the current hand up to the position, newest first, at most LOG_LIMIT: a step adds or
   * removes events at the top (and older ones at the bottom); a jump rebuilds the list.
   */
  renderLog(handStart, decisionStart) {
    const view = this.view;
    const list = this.el.log;
    const key = `${this.pov}|${handStart}|${this.game}|${this.names.join()}`;
    const last = this.logState;
    const from = Math.max(handStart, this.position - LOG_LIMIT);
    if (last && last.key === key && Math.abs(this.position - last.position) <= LOG_LIMIT) {
      if (this.position > last.position) {
        list.insertAdjacentHTML("afterbegin", logItemsHTML(view, last.position, this.position, decisionStart, this.pov, this.names));
        while (list.children.length > LOG_LIMIT) list.lastElementChild.remove();
      } else if (this.position < last.position) {
        while (list.firstElementChild && Number(list.firstElementChild.dataset.event) >= this.position) {
          list.firstElementChild.remove();
        }
        const oldest = list.lastElementChild ? Number(list.lastElementChild.dataset.event) : this.position;
        if (from < oldest) {
          list.insertAdjacentHTML("beforeend", logItemsHTML(view, from, oldest, decisionStart, this.pov, this.names));
        }
      }
      for (const item of list.children) {  // newest first: the current decision's events are at the top
        const current = Number(item.dataset.event) >= decisionStart;
        if (!current && !item.classList.contains("is-current")) break;
        item.classList.toggle("is-current", current);
      }
    } else {
      list.innerHTML = logItemsHTML(view, from, this.position, decisionStart, this.pov, this.names);
    }
    this.logState = { key, position: this.position };
    const earlier = from - handStart;
    const more = earlier > 0 ? `… and ${earlier} earlier event${earlier === 1 ? "" : "s"} of this hand` : list.children.length ? "" : "Nothing has happened yet.";
    if (this.el.logMore.textContent !== more) this.el.logMore.textContent = more;
  }

  async copy(button) {
    const target = this.root.querySelector(button.dataset.copy);
    const text = target?.textContent || "";
    try {
      await navigator.clipboard.writeText(text);
      button.textContent = "Copied";
    } catch {
      const range = document.createRange();
      range.selectNodeContents(target);
      getSelection().removeAllRanges();
      getSelection().addRange(range);
      button.textContent = "Selected: press Ctrl+C";
    }
    setTimeout(() => {
      button.textContent = button.dataset.label || "Copy";
    }, 2000);
  }
}

/** Start every viewer on the page; the one marked data-url-state="1" follows and writes the URL. */
export function mountAll(doc = document) {
  const viewers = [];
  for (const root of doc.querySelectorAll(".uno-viewer:not([data-mounted])")) {
    root.dataset.mounted = "1";
    const viewer = new Viewer(root);
    viewers.push(viewer);
    const parsed = viewer.ownsUrl ? Viewer.parseHash(location.hash) : { d: null, e: null, pov: null, g: null };
    const game = parsed.g !== null && parsed.g >= 0 && parsed.g < viewer.games ? parsed.g : 0;
    if (viewer.el.game) viewer.el.game.value = String(game);
    viewer.load(game, parsed);
  }
  window.__unoViewers = [...(window.__unoViewers || []), ...viewers];
  return viewers;
}

mountAll();
