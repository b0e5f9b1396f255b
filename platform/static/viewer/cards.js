// UNO Arena replay viewer: cards, actions and events as accessible HTML (strings; no DOM access).
//
// A card is readable without colour vision: its corner carries a shape and a letter per colour
// (red ◆ R, yellow ● Y, green ▲ G, blue ■ B, wild ★), its face the rank, and its aria-label the full name.

import { COLOUR_NAMES, COLOURS, cardIndex } from "./table.js";

export const SHAPES = { R: "◆", Y: "●", G: "▲", B: "■" };

const RANK_NAMES = {
  S: "Skip", R: "Reverse", D2: "Draw Two", D4: "Draw Four", D6: "Draw Six", D10: "Draw Ten",
  SE: "Skip Everyone", RE: "Reverse Everyone", W: "Wild", W4: "Wild Draw Four", WS: "Wild Shuffle Hands",
  WC: "Wild Customizable", W2: "Wild Draw Two", W6: "Wild Draw Six", WSK: "Wild Skip", WR: "Wild Reverse",
  X: "Blank",
};

const RANK_FACES = {
  S: "⊘", R: "⇄", D2: "+2", D4: "+4", D6: "+6", D10: "+10", SE: "⊘⊘", RE: "⇄⇄",
  W: "W", W4: "+4", WS: "⤨", WC: "WC", W2: "+2", W6: "+6", WSK: "⊘", WR: "⇄", X: "X",
};

const ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text made safe for HTML. */
export function esc(text) {
  return String(text).replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** A card's readable name, e.g. "red 7", "blue Draw Two", "Wild Draw Four". */
export function cardName(view, code) {
  const card = cardIndex(view).get(code);
  if (!card) return code;
  const rank = RANK_NAMES[card.rank] || card.rank;
  return card.colour < 0 ? rank : `${COLOUR_NAMES[card.colour]} ${rank}`;
}

/** A colour letter's name and symbol, e.g. "◆ R red". */
export function colourLabel(letter) {
  const i = COLOURS.indexOf(letter);
  return i < 0 ? "none" : `${SHAPES[letter]} ${letter} ${COLOUR_NAMES[i]}`;
}

/** One card, face up. `size` is "" or "mini"; `extra` adds classes (e.g. "is-new"). */
export function cardHTML(view, code, size = "", extra = "", named = null) {
  const card = cardIndex(view).get(code);
  if (!card) return `<span class="uv-card ${size}" role="img" aria-label="${esc(code)}">${esc(code)}</span>`;
  const letter = card.colour >= 0 ? COLOURS[card.colour] : "W";
  const shape = card.colour >= 0 ? SHAPES[letter] : "★";
  let name = cardName(view, code);
  let namedMark = "";
  if (named && card.colour < 0) {
    name += `, naming ${COLOUR_NAMES[COLOURS.indexOf(named)]}`;
    namedMark = `<span class="uv-named c-${named}" aria-hidden="true">${SHAPES[named]}${named}</span>`;
  }
  const face = RANK_FACES[card.rank] || card.rank;
  return (
    `<span class="uv-card c-${letter} ${size} ${extra}" role="img" aria-label="${esc(name)}" title="${esc(name)}">` +
    `<span class="uv-corner" aria-hidden="true">${shape}${card.colour >= 0 ? letter : ""}</span>` +
    `<span class="uv-face" aria-hidden="true">${esc(face)}</span>${namedMark}</span>`
  );
}

/** One hidden card (face down). */
export function backHTML(size = "") {
  return `<span class="uv-card back ${size}" role="img" aria-label="hidden card" title="hidden card"><span class="uv-face" aria-hidden="true">UNO</span></span>`;
}

/** An action as HTML: a card (with the colour it names and UNO), or words. */
export function actionHTML(view, action, names) {
  if (action.startsWith("color:")) {
    const c = action.slice(6);
    return `<span class="uv-chip-colour c-${c}">name ${esc(colourLabel(c))}</span>`;
  }
  if (action.startsWith("swap:")) {
    const target = Number(action.slice(5));
    return `swap hands with ${esc(names[target] ?? `seat ${target}`)}`;
  }
  const words = { draw: "draw", keep: "keep the drawn card", take: "take the penalty", challenge: "challenge",
    pass: "pass", catch: "catch (no UNO)", slap: "slap the 6", say_uno: "say UNO" };
  if (words[action]) return esc(words[action]);
  const uno = action.endsWith("!");
  const body = uno ? action.slice(0, -1) : action;
  const [code, named] = body.split(":");
  return cardHTML(view, code, "mini", "", named || null) + (uno ? ` <span class="uv-uno-call">UNO!</span>` : "");
}

function cardsHTML(view, codes) {
  return codes.map((c) => cardHTML(view, c, "mini")).join("");
}

/** One event (omniscient or redacted) as a line of HTML. */
export function eventHTML(view, ev, names) {
  const who = (s) => `<b>${esc(names[s] ?? `seat ${s}`)}</b>`;
  const count = (k) => `${k} card${k === 1 ? "" : "s"}`;
  switch (ev.type) {
    case "hand":
      return `Hand ${ev.hand_no} begins; ${who(ev.dealer)} deals.`;
    case "deal":
      return ev.cards ? `${who(ev.seat)} is dealt ${cardsHTML(view, ev.cards)}` : `${who(ev.seat)} is dealt ${count(ev.count)}.`;
    case "return":
      return `${cardHTML(view, ev.card, "mini")} turned up is returned; the pile is reshuffled.`;
    case "flip":
      return `First card: ${cardHTML(view, ev.card, "mini")}`;
    case "play":
      return `${who(ev.seat)} plays ${cardHTML(view, ev.card, "mini", "", ev.color || null)}${ev.uno ? ' <span class="uv-uno-call">UNO!</span>' : ""}`;
    case "jump":
      return `${who(ev.seat)} jumps in!`;
    case "draw": {
      const why = { draw: "", penalty: " (penalty)", uno: " (caught without UNO)", slap: " (last to slap)", challenge: " (challenge)", custom: " (Wild Customizable)", false_uno: " (false UNO call)" }[ev.reason] ?? "";
      return ev.cards ? `${who(ev.seat)} draws ${cardsHTML(view, ev.cards)}${why}` : `${who(ev.seat)} draws ${count(ev.count)}${why}.`;
    }
    case "keep":
      return `${who(ev.seat)} keeps the drawn card.`;
    case "take":
      return `${who(ev.seat)} takes the penalty of ${ev.count}.`;
    case "challenge":
      return `${who(ev.seat)} challenges ${who(ev.target)}: ${ev.guilty ? "guilty, the bluffer draws" : "not guilty, the challenger draws"}.`;
    case "skip":
      if (ev.owed) return `${who(ev.seat)} loses the turn owed for the guilty Wild Draw Four.`;
      return ev.seat < 0 ? "Everyone else is skipped." : `${who(ev.seat)} is skipped.`;
    case "say_uno":
      return `${who(ev.seat)} says <span class="uv-uno-call">UNO!</span>`;
    case "mercy": {
      const held = ev.cards ? `${cardsHTML(view, ev.cards)} ` : "";
      return `${who(ev.seat)} holds ${count(ev.cards ? ev.cards.length : ev.count)} and is out of the hand (Mercy rule) ${held}— shuffled into the draw pile.`;
    }
    case "reverse":
      return `Direction reversed: now ${ev.direction > 0 ? "↻ clockwise" : "↺ counter-clockwise"}.`;
    case "swap":
      return `${who(ev.seat)} swaps hands with ${who(ev.target)}.`;
    case "rotate":
      return `Every hand passes to the next player (${ev.direction > 0 ? "↻" : "↺"}).`;
    case "shuffle":
      return `${who(ev.seat)} collects, shuffles and deals all hands.`;
    case "color":
      return `${who(ev.seat)} names ${esc(colourLabel(ev.color))}.`;
    case "catch":
      return `${who(ev.seat)} catches ${who(ev.target)} without UNO!`;
    case "slap":
      return `${who(ev.seat)} slaps the 6.`;
    case "pass":
      return `${who(ev.seat)} passes${{ turn: " (cannot play)", jump: " (no jump-in)", catch: " (no catch)", uno: " (does not say UNO)" }[ev.window] ?? ""}.`;
    case "reshuffle":
      return `The discard pile is reshuffled into a new draw pile (${count(ev.draw_pile)}).`;
    case "hand_end": {
      const end = ev.winner >= 0 ? `${who(ev.winner)} wins the hand` : `nobody wins (${esc(ev.reason)})`;
      return `Hand ${ev.hand_no} ends: ${end}. Scores ${ev.scores.join(" · ")}.`;
    }
    case "eliminated":
      return `${ev.seats.map(who).join(", ")} ${ev.seats.length === 1 ? "is" : "are"} eliminated.`;
    case "game_end": {
      let place = 1;
      const parts = ev.places.map((group) => {
        const text = `${place}. ${group.map(who).join(" = ")}`;
        place += group.length;
        return text;
      });
      return `Game over (${esc(ev.termination)}): ${parts.join(", ")}.`;
    }
    default:
      return esc(ev.type);
  }
}
