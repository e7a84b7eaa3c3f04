// The engine in the browser (docs/web.md, "The engine in the browser"): the rules, the search
// and the endgame tables in WebAssembly in a worker (engine/worker.js), asked with the same
// specs and seeds as the server's engine route, whose answers have the same shape. Where the
// browser cannot run WebAssembly, or the module disagrees with the server's view of a game,
// `inBrowser` says no and the page asks the server instead.

let worker = null;
let next = 0;
const waiting = new Map();

/** Whether this browser can run the engine itself. */
export function canRunEngine() {
  return typeof WebAssembly === 'object' && typeof Worker === 'function'
    && localStorage.getItem('sowing.engine') !== 'server';
}

function start() {
  worker = new Worker(new URL('/engine/worker.js', location.href), { type: 'module' });
  worker.addEventListener('message', ({ data }) => {
    const pending = waiting.get(data.id);
    if (!pending) return;
    waiting.delete(data.id);
    if (data.error !== undefined) pending.reject(new Error(data.error));
    else pending.resolve(data.reply);
  });
  worker.addEventListener('error', (event) => {
    for (const pending of waiting.values()) pending.reject(new Error(event.message || 'engine worker failed'));
    waiting.clear();
    worker = null;
  });
}

/** The worker's reply to `request` (an object with an `op`; crates/sowing-wasm/src/api.rs). */
export function ask(request, data) {
  if (!worker) start();
  const id = ++next;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    worker.postMessage({ id, request, data });
  });
}

const OPTIONS = {
  'hoyito-ii': ['casa_rows'],
  'hoyito-iii': ['casa_rows', 'final_four'],
  ayoayo: ['leftover'],
};

/** A game view of the API (docs/api.md) as the worker takes a game: start text and moves. */
export function gameOf(v) {
  const n = v.rules.pits;
  const { pits, captured, to_move: toMove } = v.start;
  const sower = v.ply === 0 && v.state.last_sower ? v.state.last_sower[0].toUpperCase() : '-';
  const options = (OPTIONS[v.rules.game] || [])
    .filter((key) => v.rules[key])
    .map((key) => ` ${key.replace('_', '-')}=${v.rules[key]}`).join('');
  const position = `${v.rules.game} ${pits.slice(0, n).join(',')}/${pits.slice(n).join(',')} `
    + `${captured[0]}-${captured[1]} ${toMove === 'south' ? 'S' : 'N'} ${sower}${options}`;
  return { position, moves: v.history.slice(0, v.ply).map((h) => h.move) };
}

// The endgame tables to 12 seeds of each game, fetched once from the server
// (GET /api/tables/{family}) and kept in the browser's Cache Storage, then handed to the
// worker: the computer, the bar and the values on the pits use them with no server.
const TABLES_CACHE = 'sowing-tables-1';
const tablesLoaded = new Map();

/** A response from the cache, else from the network (then kept); null when neither has it. */
async function kept(url) {
  const cache = typeof caches === 'object' ? await caches.open(TABLES_CACHE) : null;
  const hit = cache && await cache.match(url);
  if (hit) return hit;
  let response;
  try { response = await fetch(url); } catch (_) { return null; }
  if (!response.ok) return null;
  if (cache) await cache.put(url, response.clone());
  return response;
}

async function loadTables(family, game) {
  const base = `/api/tables/${encodeURIComponent(family)}`;
  const listing = await kept(base);
  if (!listing) return false;
  const { layers } = await listing.json();
  const files = [];
  for (const layer of layers) {
    const response = await kept(`${base}/${layer.seeds}`);
    if (!response) return false;
    files.push(new Uint8Array(await response.arrayBuffer()));
  }
  const data = new Uint8Array(files.reduce((n, f) => n + f.length, 0));
  let at = 0;
  for (const f of files) { data.set(f, at); at += f.length; }
  await ask({ op: 'tables', position: game.position, lengths: files.map((f) => f.length) }, data);
  return true;
}

/**
 * Gives the worker the tables of `game`'s family ({position}) once (tried again 30 s after a
 * failure); true when it has them.
 */
export async function withTables(game) {
  const { family } = await ask({ op: 'family', position: game.position });
  if (!tablesLoaded.has(family)) {
    tablesLoaded.set(family, loadTables(family, game).catch(() => false).then((ok) => {
      if (!ok) setTimeout(() => tablesLoaded.delete(family), 30000);
      return ok;
    }));
  }
  return tablesLoaded.get(family);
}

/** Whether the worker's state of `game` is the server's `state` (else the server answers). */
async function agrees(game, state) {
  const reply = await ask({ op: 'state', ...game });
  const mine = reply.state;
  return mine.over === state.over && mine.to_move === state.to_move
    && mine.pits.join() === state.pits.join() && mine.captured.join() === state.captured.join()
    && mine.legal.join() === state.legal.join();
}

/**
 * The engine's answer for the game of view `v` as the server's `POST /games/{id}/engine`
 * gives it ({engine: {engine, move, score, depth, nodes, pv}}): `engine` the spec (default
 * the side to move's computer, else level 6), within `timeMs`. `null` when the browser cannot
 * answer it (no WebAssembly, or the module sees another game): then ask the server.
 */
export async function inBrowser(v, { engine, timeMs }) {
  if (!canRunEngine()) return null;
  try {
    const game = gameOf(v);
    if (!(await agrees(game, v.state))) return null;
    await withTables(game);
    const player = v.players[v.state.to_move];
    const spec = engine || (player && player !== 'human' ? player : 'level:6');
    const seed = Math.abs(v.id) * 1000003 + v.ply; // a game kept here has a negative id
    const reply = await ask({ op: 'search', ...game, engine: spec, seed: Number.isSafeInteger(seed) ? seed : 0, time_ms: timeMs });
    return { engine: reply };
  } catch (_) {
    return null; // a spec the module does not run (mcts, greedy …), or no module: the server's
  }
}

/** The endgame tables' values of the game of view `v`, as `GET /games/{id}/tables` gives them, or null. */
export async function tableValuesInBrowser(v) {
  if (!canRunEngine()) return null;
  try {
    const game = gameOf(v);
    await withTables(game);
    const reply = await ask({ op: 'table_values', ...game });
    // Outside the browser's tables (to 12 seeds) the server's may reach further.
    return reply.inside || reply.not_built ? reply : null;
  } catch (_) {
    return null;
  }
}
