// Dump the viewer's reconstruction (platform/static/viewer/table.js) of a replay for the engine check.
//
//   node tests/viewer/dump_states.mjs <view.json> <out.json>
//
// For every decision point (view.bounds), visited in a scrambled order through one Timeline so that
// seeking back and forth over its snapshots is exercised, writes the omniscient view, every seat's
// observation and the position (complete, and every seat's view); plus each event redacted for every
// seat. tests/viewer/test_table_js.py compares them with the engine's.
import { readFileSync, writeFileSync } from "node:fs";
import { Timeline, observation, omniscient, position, redact, state } from "../../platform/static/viewer/table.js";

const [viewPath, outPath] = process.argv.slice(2);
const view = JSON.parse(readFileSync(viewPath, "utf8"));
const timeline = new Timeline(view, 16);
const order = view.bounds.map((_, i) => i);
let seed = 12345;
for (let i = order.length - 1; i > 0; i--) {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  const j = seed % (i + 1);
  [order[i], order[j]] = [order[j], order[i]];
}
const points = new Array(order.length);
for (const i of order) {
  const st = timeline.state(view.bounds[i]);
  const seats = [];
  const views = [];
  for (let s = 0; s < view.players; s++) {
    seats.push(observation(view, st, s));
    views.push(position(view, st, s));
  }
  points[i] = { omniscient: omniscient(view, st), observations: seats, position: position(view, st), views };
}
// The shared-timeline entry point must agree with a private one.
const last = view.bounds.length - 1;
const viaState = omniscient(view, state(view, view.bounds[last]));
const redacted = [];
for (let s = 0; s < view.players; s++) redacted.push(view.events.map((e) => redact(e, s)));
writeFileSync(outPath, JSON.stringify({ points, final: viaState, redacted }));
