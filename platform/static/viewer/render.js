// UNO Arena replay viewer: HTML for the parts of the page, from the table (table.js). No state here.
//
// `table` is the engine-shaped dict of the point of view: omniscient() for "all hands", or
// observation(seat) for one seat, in which case other hands are only sizes and are drawn face down.

import { actionHTML, backHTML, cardHTML, colourLabel, esc, eventHTML } from "./cards.js";
import { redact } from "./table.js";

const PHASE_WORDS = {
  turn: "to play",
  drawn: "to play or keep the drawn card",
  color: "to name a colour",
  swap: "to choose whom to swap hands with",
  catch: "may catch",
  slap: "to slap the 6",
  jump: "may jump in",
  uno: "may say UNO (one card left, not declared)",
  over: "",
};

/** What is happening now, as one sentence. */
export function situationHTML(table, names) {
  const who = (s) => `<b>${esc(names[s] ?? `seat ${s}`)}</b>`;
  if (table.phase === "over") return "The game is over.";
  const movers = table.to_move.map(who).join(", ");
  if (table.phase === "catch") return `${movers} may catch ${who(table.catch_target)}, who did not say UNO.`;
  if (table.phase === "slap") return `Slap the 6! Still to slap: ${movers}.`;
  return `${movers} ${PHASE_WORDS[table.phase] ?? table.phase}.`;
}

/** The draw pile, the discard pile, the colour, the direction and the pending penalty. */
export function centerHTML(view, table, omniscientView) {
  const next = omniscientView && table.draw_order && table.draw_order.length
    ? `<span class="uv-next">next ${cardHTML(view, table.draw_order[table.draw_order.length - 1], "mini")}</span>`
    : "";
  const top = table.top ? cardHTML(view, table.top, "big") : `<span class="uv-card big empty" aria-label="no card">—</span>`;
  const colour = table.color
    ? `<span class="uv-swatch c-${table.color}">${esc(colourLabel(table.color))}</span>`
    : `<span class="uv-swatch">no colour yet</span>`;
  const pending = table.pending_draw
    ? `<span class="uv-pending" title="penalty waiting for the next player">+${table.pending_draw} to draw</span>`
    : "";
  const direction = table.direction > 0 ? "↻ clockwise" : "↺ counter-clockwise";
  return `
    <div class="uv-pile" aria-label="draw pile, ${table.draw_pile} cards">
      ${table.draw_pile ? backHTML("big") : `<span class="uv-card big empty">0</span>`}
      <span class="uv-pile-label">Draw pile · <b>${table.draw_pile}</b></span>${next}
    </div>
    <div class="uv-pile" aria-label="discard pile, ${table.discard_pile} cards">
      ${top}
      <span class="uv-pile-label">Discard · <b>${table.discard_pile}</b></span>
    </div>
    <dl class="uv-facts">
      <div><dt>Colour</dt><dd>${colour}</dd></div>
      <div><dt>Direction</dt><dd class="uv-direction">${direction}</dd></div>
      <div><dt>Penalty</dt><dd>${pending || "none"}</dd></div>
      <div><dt>Hand · turn</dt><dd>${table.hand_no} · ${table.turn}</dd></div>
    </dl>`;
}

/** Every seat as [class, inner HTML]: name, badges, score, and the hand (face up where the point of view
 * may see it). */
export function seatsHTML(view, table, pov, names, seatInfo) {
  const rows = [];
  for (let s = 0; s < view.players; s++) {
    const size = table.hand_sizes[s];
    const visible = pov < 0 ? table.hands[s] : s === pov ? table.hand : null;
    const hand = visible
      ? visible.map((c) => cardHTML(view, c, "", table.drawn === c && table.to_move.includes(s) ? "is-drawn" : "")).join("")
      : Array.from({ length: size }, () => backHTML()).join("");
    const badges = [];
    if (table.to_move.includes(s)) badges.push(`<span class="uv-badge turn">▶ ${table.phase === "over" ? "" : "to move"}</span>`);
    if (table.dealer === s) badges.push(`<span class="uv-badge">dealer</span>`);
    if (table.uno[s]) badges.push(`<span class="uv-badge uno">UNO!</span>`);
    if (table.out[s]) badges.push(`<span class="uv-badge out">out</span>`);
    const fault = view.faults && view.faults[s];
    if (fault && (fault.decision < 0 || view.bounds[fault.decision] < table.position)) {
      badges.push(`<span class="uv-badge fault" title="${esc(fault.message || "")}">faulted: ${esc(fault.kind)}</span>`);
    }
    if (s === pov) badges.push(`<span class="uv-badge pov">point of view</span>`);
    const info = seatInfo(s);
    const name = info && info.url
      ? `<a href="${esc(info.url)}">${esc(names[s])}</a>${info.version ? ` <small>v${esc(info.version)}</small>` : ""}`
      : esc(names[s]);
    const classes = ["uv-seat", table.to_move.includes(s) ? "is-turn" : "", table.out[s] ? "is-out" : "", s === pov ? "is-pov" : ""];
    rows.push([classes.join(" ").trim(), `
        <div class="uv-seat-head">
          <span class="uv-seat-no" title="seat ${s}">${s}</span>
          <span class="uv-name">${name}</span>
          ${badges.join("")}
          <span class="uv-count">${size} card${size === 1 ? "" : "s"}</span>
          <span class="uv-score" title="score">${table.scores[s]} pts</span>
        </div>
        <div class="uv-hand" aria-label="${visible ? "hand" : "hidden hand"} of ${esc(names[s])}, ${size} cards">${hand || '<span class="uv-empty">no cards</span>'}</div>`]);
  }
  return rows;
}

function fmtMs(ms) {
  if (ms === null || ms === undefined) return "—";
  return ms < 10 ? `${ms.toFixed(2)} ms` : ms < 1000 ? `${ms.toFixed(1)} ms` : `${(ms / 1000).toFixed(2)} s`;
}

/**
 * The decision at this position: who, which actions were legal (hidden from another seat's point of view),
 * which was chosen, think time, fault, and (for the bot's owner) its stderr at that moment.
 */
export function decisionHTML(view, d, position, pov, names, stderr) {
  const D = view.decisions.length;
  if (d >= D || position >= view.events.length) {
    const out = view.outcome;
    if (!out) return `<h3>End of the replay</h3>`;
    let place = 1;
    const rows = out.places.map((group) => {
      const row = `<li value="${place}">${group.map((s) => `<b>${esc(names[s])}</b> (${out.scores[s]} pts)`).join(" = ")}</li>`;
      place += group.length;
      return row;
    });
    return `<h3>Game over</h3><p class="uv-muted">${esc(out.termination)} after ${out.hands} hand${out.hands === 1 ? "" : "s"}</p><ol class="uv-places">${rows.join("")}</ol>`;
  }
  const [seat, action, thinkMs, fault, legal] = view.decisions[d];
  const start = view.bounds[d];
  const end = view.bounds[d + 1];
  const state = position <= start ? "up next" : `${position - start} of ${end - start} events applied`;
  const mine = pov < 0 || pov === seat;
  const options = mine
    ? `<ul class="uv-legal" aria-label="legal actions">${legal
        .map((a) => `<li class="${a === action ? "is-chosen" : ""}"${a === action ? ' aria-current="true"' : ""}>${a === action ? '<span class="uv-tick" aria-label="chosen">✓</span>' : ""}${actionHTML(view, a, names)}</li>`)
        .join("")}</ul>`
    : `<p class="uv-muted">Its ${legal.length} legal action${legal.length === 1 ? " is" : "s are"} hidden from ${esc(names[pov])}'s point of view.</p>`;
  let faultHTML = "";
  if (fault && fault.kind === "default") {
    faultHTML = `<div class="uv-fault" role="note"><b>Default action</b>: this bot was stopped after an earlier fault, so its seat plays the fixed default.</div>`;
  } else if (fault) {
    faultHTML = `<div class="uv-fault" role="note"><b>Fault: ${esc(fault.kind)}</b>${fault.message ? ` — ${esc(fault.message)}` : ""}<br><small>The bot was stopped; its seat took the default action.</small></div>`;
  }
  const lines = stderr && stderr[String(seat)] && stderr[String(seat)][String(d)];
  const stderrHTML = lines
    ? `<div class="uv-stderr"><h4>stderr of ${esc(names[seat])} <small>(only you see this)</small></h4><pre>${esc(lines)}</pre></div>`
    : "";
  return `
    <h3>Decision #${d} <small class="uv-muted">of ${D} · ${state}</small></h3>
    <p><b>${esc(names[seat])}</b> (seat ${seat}) chose ${actionHTML(view, action, names)}
       ${thinkMs === null && !fault && legal.length === 1
         ? '<span class="uv-think">the only legal action: played without asking</span>'
         : `<span class="uv-think" title="think time">◷ ${fmtMs(thinkMs)}</span>`}</p>
    ${options}${faultHTML}${stderrHTML}`;
}

/** Log items for events [from, to), newest first (redacted for a seat's point of view). Events from
 * `decisionStart` on (those of the current decision) are marked. */
export function logItemsHTML(view, from, to, decisionStart, pov, names) {
  const items = [];
  for (let i = to - 1; i >= from; i--) {
    const ev = pov < 0 ? view.events[i] : redact(view.events[i], pov);
    const current = i >= decisionStart ? " is-current" : "";
    items.push(`<li class="uv-ev ev-${ev.type}${current}" data-event="${i}">${eventHTML(view, ev, names)}</li>`);
  }
  return items.join("");
}

/** Points gained per hand and the running totals, for the hands finished by this position. */
export function scoresHTML(view, position, names) {
  const head = `<tr><th scope="col">Hand</th>${names.map((n) => `<th scope="col" class="num">${esc(n)}</th>`).join("")}</tr>`;
  const rows = [];
  for (let i = 0; i < position && i < view.events.length; i++) {
    const ev = view.events[i];
    if (ev.type !== "hand_end") continue;
    const cells = ev.scores.map((total, s) => {
      const star = ev.winner === s ? '<span class="uv-star" aria-label="won the hand">★</span> ' : "";
      const gained = ev.gained[s] ? `<small>+${ev.gained[s]}</small> ` : "";
      return `<td class="num">${star}${gained}<b>${total}</b></td>`;
    });
    rows.push(`<tr><th scope="row">${ev.hand_no}${ev.winner < 0 ? ` <small>(${esc(ev.reason)})</small>` : ""}</th>${cells.join("")}</tr>`);
  }
  if (!rows.length) rows.push(`<tr><td colspan="${names.length + 1}" class="uv-muted">No hand finished yet.</td></tr>`);
  return `<table class="uv-scores"><thead>${head}</thead><tbody>${rows.join("")}</tbody></table>`;
}
