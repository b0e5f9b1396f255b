// uno_bot.js: a tiny, dependency-free helper for writing UNO Arena bots in JavaScript (Node.js 18 or
// later; protocol version 1). The JavaScript twin of uno_bot.py: same hooks, same behaviour.
//
// Put this file next to your bot and `const { Bot, run } = require("./uno_bot.js");` (upload both as a
// zip, with your bot as the entry point), or paste the block between the two `uno_bot helper` marker
// lines into a single-file bot (the site's starter kit does: its mybot.js is one file to upload). Extend
// Bot, override decide() (and, if you track cards, the other hooks), then call run(MyBot). The protocol is
// on the site's guide (docs/protocol.md).
//
// run(MyBot) (the class) makes a fresh `new MyBot()` for every game and tells the referee that the bot
// plays a series of games in one process ("series": true): what the file loads is loaded once, and no
// state leaks from one game into the next. run(new MyBot()) (an instance) plays one game per process,
// unless the bot sets `this.series = true` (then onHello must reset it).
//
// Randomness: Math.random cannot be seeded. Use this.rng (set before onHello, seeded with the seat's seed
// from hello): this.rng.random() in [0, 1), this.rng.int(n) in 0..n-1, this.rng.choice(array); a replayed
// game is then played exactly again.
//
// stdout is the protocol: log with console.error(), never console.log().
//
// Run on its own (`node uno_bot.js`), this file is a complete (if simple) bot: it plays the first legal
// action.
"use strict";

// ---- uno_bot helper, protocol v1 (docs/protocol.md): copy from here ----
const readline = require("readline");

class Bot {
  constructor() {
    this.name = "bot";
  }

  /** The start of a game: hello.seat, .players, .names, .rules (every option), .limits, .seed (this.rng
   * is already seeded with it). */
  onHello(hello) {}

  /** One public event, redacted for this seat (other players' cards are counts), in game order. */
  onEvent(event) {}

  /** Return one of request.legal; request.observation is what this seat sees now. */
  decide(request) {
    return request.legal[0];
  }

  /** A hand ended: message.winner, .points, .scores. */
  onHandEnd(message) {}

  /** The game ended: message.places, .scores. In a series a new_game may follow. */
  onMatchEnd(message) {}
}

/** A seeded random generator (sfc32, from the 53-bit seat seed): random(), int(n), choice(array). */
class Rng {
  constructor(seed) {
    const s = Number.isSafeInteger(seed) && seed >= 0 ? seed : Math.floor(Math.random() * 2 ** 53);
    this.a = s % 2 ** 32 >>> 0;
    this.b = Math.floor(s / 2 ** 32) >>> 0;
    this.c = 0x9e3779b9;
    this.d = 1;
    for (let i = 0; i < 15; i++) this.next();
  }

  /** The next 32-bit unsigned integer. */
  next() {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** A number in [0, 1). */
  random() {
    return this.next() / 2 ** 32;
  }

  /** An integer in 0..n-1. */
  int(n) {
    return Math.floor(this.random() * n);
  }

  /** One element of a non-empty array. */
  choice(items) {
    return items[this.int(items.length)];
  }
}

/** Play over stdin/stdout: answer hello (and new_game) with ready and every request with an action.
 * `bot` is a Bot class (a fresh bot per game; series) or an instance (one game, unless bot.series). */
function run(bot, input = process.stdin, output = process.stdout) {
  const make = typeof bot === "function" ? bot : null;
  const series = make !== null || Boolean(bot.series);
  const lines = readline.createInterface({ input, terminal: false });
  const send = (message) => output.write(JSON.stringify(message) + "\n"); // a pipe write is synchronous
  lines.on("line", (line) => {
    if (!line.trim()) return;
    const message = JSON.parse(line);
    if (message.type === "hello" || message.type === "new_game") {
      if (make !== null) bot = new make();
      bot.rng = new Rng(message.seed);
      bot.onHello(message);
      send(series ? { type: "ready", name: bot.name, series: true } : { type: "ready", name: bot.name });
      return;
    }
    for (const event of message.events || []) bot.onEvent(event);
    switch (message.type) {
      case "request":
        send({ type: "action", id: message.id, action: bot.decide(message) });
        break;
      case "hand_end":
        bot.onHandEnd(message);
        break;
      case "match_end":
        bot.onMatchEnd(message);
        if (!series) lines.close();
        break;
      case "error":
        process.stderr.write(`referee: ${message.fault}: ${message.message}\n`);
        break;
    }
  });
  return lines;
}
// ---- end of the uno_bot helper ----

// ---- card helpers (optional): what the cards are worth ----
const COLOURS = "RYGB";

/** Card value: numbers their face, Skip/Reverse/Draw Two 20, Shuffle/Customizable 40, others 50. */
function points(code) {
  const rank = COLOURS.includes(code[0]) ? code.slice(1) : code;
  if (/^\d$/.test(rank)) return Number(rank);
  if (rank === "S" || rank === "R" || rank === "D2") return 20;
  if (rank === "WS" || rank === "WC") return 40;
  return 50;
}

module.exports = { Bot, Rng, run, points, COLOURS };

if (require.main === module) run(Bot);
