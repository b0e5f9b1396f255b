// Run by the runtime's own node (inside its root filesystem) when the runtime is built: prints the
// interpreter as one JSON object for the runtime's manifest (Node's built-in modules only: no libraries).
console.log(JSON.stringify({
  interpreter: {
    command: "node",
    implementation: "Node.js",
    version: process.versions.node,
    build: process.version,
    executable: process.execPath,
    abi: `node-v${process.versions.modules}`,
    v8: process.versions.v8,
  },
  libraries: [],
}));
