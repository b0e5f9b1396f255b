// UNO Arena replay viewer: the table, rebuilt from a replay's events. Pure: no DOM, no network.
//
// Input is the platform's viewer data (arena/engine/replay_view.py, format "uno-arena-view" v2): the omniscient
// event list, the event index where each decision starts (bounds), the engine's phase / current seat /
// turn / seats to move at each of those points, and the draw pile's order where a shuffle changed it.
//
//   import { Timeline, omniscient, observation } from "./table.js";
//   const timeline = new Timeline(view);          // snapshots every 64 events: any position in O(64)
//   const st = timeline.state(view.bounds[123]);  // the table before decision 123
//   omniscient(view, st)                          // the same dict as the engine's Game.omniscient()
//   observation(view, st, 2)                      // the same dict as Game.observation(2)
//
// tests/viewer checks, for whole games under several rule sets, that both equal the engine's at every
// decision, so the viewer cannot disagree with the rules.

export const COLOURS = "RYGB";
export const COLOUR_NAMES = ["red", "yellow", "green", "blue"];
const SNAPSHOT_EVERY = 64;

/** Card facts by code, from the view's card table: {id, colour (-1: wild), rank, draw, points}. */
export function cardIndex(view) {
  if (view._cardIndex) return view._cardIndex;
  const index = new Map();
  view.cards.forEach(([code, colour, rank, draw, points], id) => {
    index.set(code, { id, code, colour, rank, draw, points });
  });
  Object.defineProperty(view, "_cardIndex", { value: index, enumerable: false });
  return index;
}

/** The table before any event: nobody holds anything yet. */
export function emptyState(view) {
  const n = view.players;
  return {
    at: 0, // events applied
    handNo: 0,
    dealer: -1,
    hands: Array.from({ length: n }, () => []),
    discard: [],
    colour: -1,
    direction: 1,
    pending: 0,
    pendingTop: null,
    challengeFrom: -1,
    uno: new Array(n).fill(false),
    scores: new Array(n).fill(0),
    out: new Array(n).fill(false),
    mercy: new Array(n).fill(false), // out of this hand under the Mercy rule
    lostTurns: new Array(n).fill(0), // turns still to lose (challenge_guilty=draw-skip)
    drawOrder: null, // the draw pile, top last, when known
    lastPlay: -1, // seat of the last card played
    lastDrawn: null, // last card of the last draw
  };
}

/** A deep copy of a state (states are plain data). */
export function cloneState(st) {
  return {
    ...st,
    hands: st.hands.map((h) => h.slice()),
    discard: st.discard.slice(),
    uno: st.uno.slice(),
    scores: st.scores.slice(),
    out: st.out.slice(),
    mercy: st.mercy.slice(),
    lostTurns: st.lostTurns.slice(),
    drawOrder: st.drawOrder ? st.drawOrder.slice() : null,
  };
}

function insertSorted(hand, code, cards) {
  const id = cards.get(code).id;
  let lo = 0;
  let hi = hand.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cards.get(hand[mid]).id <= id) lo = mid + 1;
    else hi = mid;
  }
  hand.splice(lo, 0, code);
}

function nextSeat(st, seat) {
  const n = st.hands.length;
  let s = (seat + st.direction + n) % n;
  while (st.out[s] || st.mercy[s]) s = (s + st.direction + n) % n;
  return s;
}

/** Apply one omniscient event to a state, in place (the engine's effect of that event on the table). */
export function applyEvent(view, st, ev) {
  const cards = cardIndex(view);
  const rules = view.rules;
  const n = st.hands.length;
  switch (ev.type) {
    case "hand":
      st.handNo = ev.hand_no;
      st.dealer = ev.dealer;
      st.hands = Array.from({ length: n }, () => []);
      st.discard = [];
      st.colour = -1;
      st.direction = 1;
      st.pending = 0;
      st.pendingTop = null;
      st.challengeFrom = -1;
      st.uno = new Array(n).fill(false);
      st.mercy = new Array(n).fill(false);
      st.lostTurns = new Array(n).fill(0);
      st.drawOrder = null;
      st.lastPlay = -1;
      st.lastDrawn = null;
      break;
    case "deal":
      st.hands[ev.seat] = ev.cards.slice();
      break;
    case "flip":
      st.discard = [ev.card];
      st.colour = cards.get(ev.card).colour;
      break;
    case "play": {
      const card = cards.get(ev.card);
      const hand = st.hands[ev.seat];
      const at = hand.indexOf(ev.card);
      if (at >= 0) hand.splice(at, 1);
      st.discard.push(ev.card);
      st.colour = card.colour >= 0 ? card.colour : ev.color ? COLOURS.indexOf(ev.color) : -1;
      const left = hand.length;
      st.uno[ev.seat] = Boolean(ev.uno) && left === 1;
      st.lastPlay = ev.seat;
      const challengeable = card.draw && rules.challenge && view.restricted.includes(card.code) && !st.pending;
      if (left === 0 && !(challengeable && rules.challenge_last)) {
        st.pending = 0;
        st.pendingTop = null;
        st.challengeFrom = -1;
      } else if (card.draw) {
        if (rules.stacking !== "none" || challengeable) {
          st.challengeFrom = challengeable ? ev.seat : -1;
          st.pending += card.draw;
          st.pendingTop = card.code;
        }
      }
      break;
    }
    case "draw": {
      const hand = st.hands[ev.seat];
      for (const code of ev.cards) {
        insertSorted(hand, code, cards);
        if (st.drawOrder) {
          if (st.drawOrder.length && st.drawOrder[st.drawOrder.length - 1] === code) st.drawOrder.pop();
          else st.drawOrder = null; // not what we expected: forget the order rather than show a wrong one
        }
      }
      if (hand.length > 1) st.uno[ev.seat] = false;
      if (ev.reason === "penalty") {
        st.pending = 0;
        st.pendingTop = null;
        st.challengeFrom = -1;
      }
      st.lastDrawn = ev.cards.length ? ev.cards[ev.cards.length - 1] : st.lastDrawn;
      break;
    }
    case "challenge":
      if (ev.guilty && rules.challenge_guilty === "draw-skip" && !st.mercy[ev.target]) st.lostTurns[ev.target] += 1;
    // falls through: the penalty is resolved either way
    case "take":
      st.pending = 0;
      st.pendingTop = null;
      st.challengeFrom = -1;
      break;
    case "say_uno":
      st.uno[ev.seat] = true;
      break;
    case "mercy":
      st.hands[ev.seat] = [];
      st.mercy[ev.seat] = true;
      st.uno[ev.seat] = false;
      st.lostTurns[ev.seat] = 0;
      st.drawOrder = null; // shuffled into the draw pile (the view's piles give the new order)
      break;
    case "skip":
      if (ev.owed) st.lostTurns[ev.seat] -= 1;
      break;
    case "reverse":
      st.direction = ev.direction;
      break;
    case "swap": {
      const mine = st.hands[ev.seat];
      st.hands[ev.seat] = st.hands[ev.target];
      st.hands[ev.target] = mine;
      st.uno[ev.seat] = false;
      st.uno[ev.target] = false;
      break;
    }
    case "rotate": {
      const moved = st.hands.map((h) => h.slice());
      for (let s = 0; s < n; s++) if (!st.out[s] && !st.mercy[s]) moved[nextSeat(st, s)] = st.hands[s];
      st.hands = moved;
      st.uno = new Array(n).fill(false);
      break;
    }
    case "shuffle":
      st.hands = ev.hands.map((h) => h.slice());
      st.uno = new Array(n).fill(false);
      break;
    case "color":
      st.colour = COLOURS.indexOf(ev.color);
      break;
    case "reshuffle":
      st.discard = st.discard.slice(-1);
      st.drawOrder = null;
      break;
    case "hand_end":
    case "game_end":
      st.scores = ev.scores.slice();
      break;
    case "eliminated":
      for (const s of ev.seats) st.out[s] = true;
      break;
    default: // jump, keep, catch, slap, pass, return: no change to the table itself
      break;
  }
  st.at += 1;
}

/** The decision a position belongs to: the last decision starting at or before it (0 during the deal). */
export function decisionAt(view, position) {
  const bounds = view.bounds;
  let lo = 0;
  let hi = bounds.length - 1;
  if (position < bounds[0]) return 0;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (bounds[mid] <= position) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The hand (index into view.hands) a position is in. */
export function handAt(view, position) {
  let found = 0;
  view.hands.forEach((row, i) => {
    if (row[2] < position || (i === 0 && position === 0)) found = i;
  });
  return found;
}

/**
 * States at any position with snapshots every `every` events, computed lazily on the way forward:
 * any position then costs a copy and at most `every` events.
 */
export class Timeline {
  constructor(view, every = SNAPSHOT_EVERY) {
    this.view = view;
    this.every = every;
    this.snapshots = [emptyState(view)];
    this.pileAt = new Map();
    for (const [decision, pile] of Object.entries(view.piles || {})) {
      this.pileAt.set(view.bounds[Number(decision)], pile);
    }
  }

  /** Number of positions after the start (= number of events). */
  get length() {
    return this.view.events.length;
  }

  _advance(st, upto) {
    const events = this.view.events;
    while (st.at < upto) {
      applyEvent(this.view, st, events[st.at]);
      const pile = this.pileAt.get(st.at);
      if (pile) st.drawOrder = pile.slice();
    }
    return st;
  }

  /** The table after the first `upto` events (a fresh copy the caller may keep). */
  state(upto) {
    const target = Math.max(0, Math.min(upto, this.length));
    const k = Math.floor(target / this.every);
    while (this.snapshots.length <= k) {
      const last = this.snapshots[this.snapshots.length - 1];
      this.snapshots.push(this._advance(cloneState(last), this.snapshots.length * this.every));
    }
    return this._advance(cloneState(this.snapshots[k]), target);
  }
}

const timelines = new WeakMap();

/** The table after the first `upto` events of a view (a shared Timeline per view makes it O(64)). */
export function state(view, upto) {
  let timeline = timelines.get(view);
  if (!timeline) {
    timeline = new Timeline(view);
    timelines.set(view, timeline);
  }
  return timeline.state(upto);
}

/** The engine's control point at a position: [phase, current, turn, to_move]. */
export function pointAt(view, position) {
  return view.points[decisionAt(view, position)];
}

function drawPileSize(view, st) {
  let held = st.discard.length;
  for (const hand of st.hands) held += hand.length;
  return view.deck_size - held;
}

/** Everything at this point, shaped exactly like the engine's Game.omniscient(). */
export function omniscient(view, st) {
  const [phase, current, turn, toMove] = pointAt(view, st.at);
  return {
    players: view.players,
    hand_no: st.handNo,
    dealer: st.dealer,
    phase,
    to_move: toMove.slice(),
    current,
    top: st.discard.length ? st.discard[st.discard.length - 1] : null,
    color: st.colour >= 0 ? COLOURS[st.colour] : null,
    direction: st.direction,
    hand_sizes: st.hands.map((h) => h.length),
    draw_pile: drawPileSize(view, st),
    discard_pile: st.discard.length,
    pending_draw: st.pending,
    uno: st.uno.slice(),
    scores: st.scores.slice(),
    out: st.out.slice(),
    turn,
    catch_target: phase === "catch" || phase === "uno" ? st.lastPlay : null,
    mercy: st.mercy.slice(),
    lost_turns: st.lostTurns.slice(),
    hands: st.hands.map((h) => h.slice()),
    draw_order: st.drawOrder ? st.drawOrder.slice() : null,
    discard: st.discard.slice(),
    drawn: phase === "drawn" ? st.lastDrawn : null,
    pending_top: st.pending ? st.pendingTop : null,
  };
}

/** What one seat may see at this point, shaped exactly like the engine's Game.observation(seat). */
export function observation(view, st, seat) {
  const [phase, current, turn, toMove] = pointAt(view, st.at);
  return {
    seat,
    players: view.players,
    hand_no: st.handNo,
    dealer: st.dealer,
    phase,
    to_move: toMove.slice(),
    current,
    hand: st.hands[seat].slice(),
    top: st.discard.length ? st.discard[st.discard.length - 1] : null,
    color: st.colour >= 0 ? COLOURS[st.colour] : null,
    direction: st.direction,
    hand_sizes: st.hands.map((h) => h.length),
    draw_pile: drawPileSize(view, st),
    discard_pile: st.discard.length,
    pending_draw: st.pending,
    uno: st.uno.slice(),
    scores: st.scores.slice(),
    out: st.out.slice(),
    turn,
    drawn: phase === "drawn" && seat === current ? st.lastDrawn : null,
    catch_target: phase === "catch" || phase === "uno" ? st.lastPlay : null,
    challengeable: st.challengeFrom >= 0 && seat === current && phase === "turn",
    mercy: st.mercy.slice(),
    lost_turns: st.lostTurns.slice(),
  };
}

/** The part of an event a seat may see (the engine's arena.engine.game.redact): others' cards become counts. */
export function redact(ev, seat) {
  if ((ev.type === "deal" || ev.type === "draw" || ev.type === "mercy") && ev.seat !== seat) {
    const { cards, ...rest } = ev;
    return { ...rest, count: cards.length };
  }
  if (ev.type === "shuffle") {
    const { hands, ...rest } = ev;
    return { ...rest, hand_sizes: hands.map((h) => h.length), hand: hands[seat] };
  }
  return ev;
}

/**
 * The position at a decision in the position notation (docs/position.md; arena.engine.position), complete
 * (`pov` < 0) or as seat `pov` sees it; null between the events of a decision (a position is a decision
 * point). The engine gives the middle fields per decision (view.points[d][4], complete); the table gives
 * the rest. tests/viewer checks it equals the engine's Game.position() at every decision.
 */
export function position(view, st, pov = -1) {
  const d = decisionAt(view, st.at);
  if (view.bounds[d] !== st.at) return null;
  const [, , turn, , control] = view.points[d];
  const see = (s) => pov < 0 || s === pov;
  let mover = -1;
  const middle = control.split(" ").flatMap((field) => {
    const [key, ...rest] = field.split(":");
    if (key === "move") {
      const [phase, seats] = rest;
      mover = seats === undefined ? -1 : Number(seats.split(",")[0]);
      if (phase === "jump" && pov >= 0) return [`move:jump:${mover}`]; // who else holds the card is private
      return [field];
    }
    if (key === "drawn") return see(mover) ? [field] : [];
    if (key === "challenge") return see(Number(rest[0])) ? [field] : [`challenge:${rest[0]}:?`];
    if (key === "mercy") {
      const pairs = rest[0].split(",").map((pair) => (see(Number(pair.split("=")[0])) ? pair : `${pair.split("=")[0]}=?`));
      return [`mercy:${pairs.join(",")}`];
    }
    return [field];
  });
  const hands = st.hands.map((hand, s) => (!hand.length ? "-" : see(s) ? hand.join(",") : `#${hand.length}`));
  const size = drawPileSize(view, st);
  const pile = !size ? "-" : pov < 0 && st.drawOrder ? st.drawOrder.slice().reverse().join(",") : `#${size}`;
  return [
    "uno1",
    `rules:${view.rules_spec}`,
    `hand:${st.handNo}`,
    `dealer:${st.dealer}`,
    `turn:${turn}`,
    `scores:${st.scores.join(",")}`,
    `dir:${st.direction > 0 ? "cw" : "ccw"}`,
    `color:${st.colour >= 0 ? COLOURS[st.colour] : "-"}`,
    ...middle,
    `hands:${hands.join("/")}`,
    `discard:${st.discard.join(",")}`,
    `pile:${pile}`,
  ].join(" ");
}
