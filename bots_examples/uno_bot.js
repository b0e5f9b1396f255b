// uno_bot.js: a tiny, dependency-free helper for writing UNO Arena bots in JavaScript (Node.js 18 or
// later; protocol version 1). The JavaScript twin of uno_bot.py: same hooks, same behaviour.
//
// Put this file next to your bot and `const { Bot, run } = require("./uno_bot.js");` (upload both as a
// zip, with your bot as the entry point), or paste the block between the two `uno_bot helper` marker
// lines into a single-file bot (the site's starter kit does: its mybot.js is one file to upload). Extend Bot, override decide() (and, if you track cards, the
// other hooks), then call run(new MyBot()). The protocol is on the site's guide (docs/protocol.md).
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

  /** The greeting: hello.seat, .players, .names, .rules (every option), .limits. */
  onHello(hello) {}

  /** One public event, redacted for this seat (other players' cards are counts), in game order. */
  onEvent(event) {}

  /** Return one of request.legal; request.observation is what this seat sees now. */
  decide(request) {
    return request.legal[0];
  }

  /** A hand ended: message.winner, .points, .scores. */
  onHandEnd(message) {}

  /** The match ended: message.places, .scores. run() stops reading after this. */
  onMatchEnd(message) {}
}

/** Play one match over stdin/stdout: answer hello with ready and every request with an action. */
function run(bot, input = process.stdin, output = process.stdout) {
  const lines = readline.createInterface({ input, terminal: false });
  const send = (message) => output.write(JSON.stringify(message) + "\n"); // a pipe write is synchronous
  lines.on("line", (line) => {
    if (!line.trim()) return;
    const message = JSON.parse(line);
    for (const event of message.events || []) bot.onEvent(event);
    switch (message.type) {
      case "request":
        send({ type: "action", id: message.id, action: bot.decide(message) });
        break;
      case "hello":
        bot.onHello(message);
        send({ type: "ready", name: bot.name });
        break;
      case "hand_end":
        bot.onHandEnd(message);
        break;
      case "match_end":
        bot.onMatchEnd(message);
        lines.close();
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

module.exports = { Bot, run, points, COLOURS };

if (require.main === module) run(new Bot());
