// Prints, as one JSON line, what the runtime offers this bot, then waits for the end of its input. Run
// under every runner: the reports must be identical, and match the manifest.
const fs = require("fs");
const manifest = JSON.parse(fs.readFileSync("/usr/share/uno-arena/runtime.json", "utf8"));
process.stdout.write(JSON.stringify({
  version: process.versions.node,
  build: process.version,
  executable: process.execPath,
  abi: `node-v${process.versions.modules}`,
  manifest: manifest.hash,
  cwd: process.cwd(),
}) + "\n");
process.stdin.resume();
