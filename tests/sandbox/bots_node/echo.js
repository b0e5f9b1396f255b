// Echo bot in JavaScript: answers every line with the same line.
const readline = require("readline");
process.stderr.write("node echo ready\n");
readline.createInterface({ input: process.stdin }).on("line", (line) => process.stdout.write(line + "\n"));
