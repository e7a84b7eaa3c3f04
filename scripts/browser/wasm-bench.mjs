// The engine's speed in WebAssembly, in headless Chromium, beside native `sow bench`: the
// same seeded random games on each board (full rules, repetition included, one thread), each
// side the median of REPEAT runs, native and WebAssembly taking turns run by run.
// A benchmark, not a test: it prints the figures and the ratio. Run by scripts/wasm-bench.sh.
//   node scripts/browser/wasm-bench.mjs SOW_BINARY [GAMES] [REPEAT]
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const [sow, gamesArg = '100000', repeatArg = '5'] = process.argv.slice(2);
if (!sow) throw new Error('usage: wasm-bench.mjs SOW_BINARY [GAMES] [REPEAT]');
const games = Number(gamesArg);
const repeat = Number(repeatArg);
const engineDir = join(dirname(fileURLToPath(import.meta.url)), '../../crates/sowing-web/static/engine');
const ORIGIN = 'http://bench.sowing.invalid';

// The boards of `sow bench`; 2×12 games are longer, so fewer of them (as `sow bench` does).
const BOARDS = [
  { game: 'hoyito-ii', pits: 6, games },
  { game: 'hoyito-ii', pits: 12, games: Math.max(1, Math.round(games * 0.06)) },
  { game: 'hoyito-iii', pits: 6, games },
  { game: 'ayoayo', pits: 6, games: games * 3 },
];

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
    '--no-first-run', '--disable-sync'],
});
const page = await browser.newPage();
await page.route(`${ORIGIN}/**`, (route) => {
  const path = new URL(route.request().url()).pathname;
  if (path === '/') return route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>bench</title>' });
  if (path === '/sowing.js') return route.fulfill({ contentType: 'text/javascript', body: readFileSync(join(engineDir, 'sowing.js')) });
  if (path === '/sowing.wasm') return route.fulfill({ contentType: 'application/wasm', body: readFileSync(join(engineDir, 'sowing.wasm')) });
  return route.fulfill({ status: 404 });
});
await page.goto(`${ORIGIN}/`);
await page.evaluate(async () => {
  const { load } = await import('/sowing.js');
  window.engine = await load(new URL('/sowing.wasm', location.href));
});

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rows = [];
for (const board of BOARDS) {
  // Native and WebAssembly take turns, one run each, REPEAT times: the machine's load drifts,
  // and alternating lets both sides meet the same drift.
  const nativeRates = [];
  const wasmRates = [];
  let moves = 0;
  for (let i = 0; i < repeat; i++) {
    const native = JSON.parse(execFileSync(sow, ['bench', '--json', '--game', board.game, '--pits', String(board.pits),
      '--games', String(board.games), '--repeat', '1'], { encoding: 'utf8' }))[0];
    nativeRates.push(native.moves_per_sec);
    const wasm = await page.evaluate((board) => {
      const position = window.engine.call({ op: 'start', game: board.game, pits_per_row: board.pits }).position;
      const t = performance.now();
      const { moves } = window.engine.call({ op: 'random_games', position, games: board.games, seed: 2026 });
      return { moves, seconds: (performance.now() - t) / 1000 };
    }, board);
    moves = wasm.moves;
    wasmRates.push(Math.round(wasm.moves / wasm.seconds));
  }
  const nativeRate = median(nativeRates);
  const wasmRate = median(wasmRates);
  rows.push({ board: `${board.game} 2×${board.pits}`, games: board.games, moves,
    native_moves_per_sec: nativeRate, wasm_moves_per_sec: wasmRate,
    ratio: +(wasmRate / nativeRate).toFixed(3), native_runs: nativeRates, wasm_runs: wasmRates });
}
await browser.close();
for (const r of rows) {
  console.log(`${r.board.padEnd(16)} native ${String(r.native_moves_per_sec).padStart(10)} moves/s   ` +
    `wasm ${String(r.wasm_moves_per_sec).padStart(10)} moves/s   ${(100 * r.ratio).toFixed(1)}% ` +
    `(${r.games} games, ${r.moves} moves)`);
}
console.log(JSON.stringify(rows));
