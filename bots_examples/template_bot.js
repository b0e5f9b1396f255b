// Template bot in JavaScript: copy this file, rename the class and write your strategy in decide().
//
// Runnable as `node template_bot.js`. The protocol (the site's guide, docs/protocol.md) is handled by the
// uno_bot.js helper next to this file (upload both as a zip, with this file as the entry point; the
// site's starter kit pastes the helper in instead, so its mybot.js is one file to upload):
// onHello() gets the seat and the rules, onEvent() every public event (to track cards), decide() every
// request (return one of request.legal). Log with console.error() only: stdout is the protocol.
// run(TemplateBot) (the class) gives every game a fresh bot and lets one process play a series of
// games; for randomness use this.rng (seeded from the seat's seed), never Math.random.
"use strict";

const { Bot, run } = require("./uno_bot.js");

class TemplateBot extends Bot {
  constructor() {
    super();
    this.name = "template-js";
    this.seen = []; // every card seen played, to track what is left
  }

  /** Remember who we are. */
  onHello(hello) {
    this.seat = hello.seat;
    this.rules = hello.rules;
  }

  /** Track the cards played. */
  onEvent(event) {
    if (event.type === "play") this.seen.push(event.card);
  }

  /** Prefer a play that declares UNO (when it leaves one card), then any play, then whatever comes first. */
  decide(request) {
    const legal = request.legal;
    const obs = request.observation; // hand, top, color, hand_sizes, phase, pending_draw, ...
    const plays = legal.filter((a) => "RYGBWX".includes(a[0])); // card plays start with a colour or W
    if (obs.phase === "turn" && plays.length) {
      if (obs.hand.length === 2) {
        // this play leaves one card: declare UNO with it
        const declared = plays.filter((a) => a.endsWith("!"));
        return (declared.length ? declared : plays)[0];
      }
      // "!" here would be a false call (rule option false_uno): it costs cards
      return plays.filter((a) => !a.endsWith("!"))[0];
    }
    return legal[0];
  }
}

module.exports = { TemplateBot };

if (require.main === module) run(TemplateBot);
