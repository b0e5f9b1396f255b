// Unit tests of mybot.js: `node --test` in this folder (the last one needs the uno-arena wheel installed).
//
// Each test starts mybot.js as the referee does and talks the protocol to it, so what passes here passes
// on the site. Add your own: build a request for the situation you care about, and check the answer.
"use strict";

const { test } = require("node:test");
const assert = require("node:assert");
const { execFileSync } = require("node:child_process");
const path = require("node:path");

const BOT = path.join(__dirname, "mybot.js");
const HELLO = {
  type: "hello", protocol: 1, seat: 0, players: 2, names: ["mybot", "opponent"],
  rules: { name: "classic" }, limits: { decision_timeout: 1.0, time_bank: 30.0 },
};

/** A request as the referee sends it (only the fields these tests need). */
function request(legal, hand, top, phase = "turn") {
  const observation = { seat: 0, players: 2, phase, hand, top, color: top[0], hand_sizes: [hand.length, 5], pending_draw: 0 };
  return { type: "request", id: 0, legal, observation, events: [] };
}

/** Start the bot, greet it, send the requests and the end of the match; return its actions. */
function answers(...requests) {
  const lines = [HELLO, ...requests, { type: "match_end", places: [[0], [1]], scores: [0, 0] }];
  const out = execFileSync(process.execPath, [BOT], { input: lines.map((m) => JSON.stringify(m) + "\n").join(""), cwd: __dirname, timeout: 30000 });
  const replies = out.toString().trim().split("\n").map((line) => JSON.parse(line));
  assert.strictEqual(replies[0].type, "ready");
  return replies.slice(1).map((m) => m.action);
}

test("declares UNO with its second-last card", () => {
  assert.deepStrictEqual(answers(request(["R7", "R7!", "draw"], ["R7", "Y2"], "R3")), ["R7!"]);
});

test("every answer is legal", () => {
  const cases = [
    [["color:R", "color:Y", "color:G", "color:B"], ["R1", "Y2"], "W", "color"],
    [["G5", "keep"], ["G5", "B9", "R1"], "G2", "drawn"],
    [["catch", "pass"], ["B1", "B2", "B3"], "Y4", "catch"],
  ];
  const replies = answers(...cases.map(([legal, hand, top, phase]) => request(legal, hand, top, phase)));
  cases.forEach(([legal], i) => assert.ok(legal.includes(replies[i]), `${replies[i]} is not in ${legal}`));
});

test("plays a whole match without a fault", () => {
  const out = execFileSync("uno-arena", ["match", BOT, "random", "--games", "3", "--rules", "classic-single", "--runner", "process", "--quiet"], { timeout: 300000 });
  assert.ok(!out.toString().includes("Faults:"), out.toString());
});
