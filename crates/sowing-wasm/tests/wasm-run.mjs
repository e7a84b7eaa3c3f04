// Runs cases on the committed WebAssembly engine in Node, for tests/agree.rs, which compares
// the replies with the native build. Usage: node wasm-run.mjs MODULE.wasm CASES.json
// Each case is one of
//   {"kind": "call", "request": {...}}                       one request, its reply
//   {"kind": "load", "request": {...}, "files": [paths]}     a `tables` request with files
//   {"kind": "random_game", "position": P, "seed": S}        a game of random moves, each
//       chosen among the legal moves the module lists: the moves, each ply's legal moves
//       and the final state
// and the output is the JSON array of their results ({"error": message} when refused).
import { readFileSync } from "node:fs";
import { load } from "../../sowing-web/static/engine/sowing.js";

const [wasmPath, casesPath] = process.argv.slice(2);
const engine = await load(readFileSync(wasmPath));
const cases = JSON.parse(readFileSync(casesPath, "utf8"));

/** xorshift32: the test's own choice of moves, replayed natively from the moves it gives. */
function generator(seed) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x;
  };
}

function randomGame({ position, seed }) {
  const next = generator(seed);
  const moves = [];
  const legal = [];
  for (;;) {
    const reply = engine.call({ op: "state", position, moves });
    if (reply.state.over) return { moves, legal, final: reply };
    legal.push(reply.state.legal);
    moves.push(reply.state.legal[next() % reply.state.legal.length]);
  }
}

function run(c) {
  try {
    switch (c.kind) {
      case "call":
        return engine.call(c.request);
      case "load": {
        const files = c.files.map((f) => readFileSync(f));
        const data = new Uint8Array(files.reduce((n, f) => n + f.length, 0));
        let at = 0;
        for (const f of files) {
          data.set(f, at);
          at += f.length;
        }
        return engine.call({ ...c.request, lengths: files.map((f) => f.length) }, data);
      }
      case "random_game":
        return randomGame(c);
      default:
        throw new Error(`unknown case ${c.kind}`);
    }
  } catch (error) {
    return { error: error.message };
  }
}

process.stdout.write(JSON.stringify(cases.map(run)));
