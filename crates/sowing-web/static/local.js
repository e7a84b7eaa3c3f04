// Games played with no server (docs/web.md, "Installable and offline"). A game started while
// the server cannot be reached is kept in this browser and played through the engine in
// WebAssembly (pocket.js); its answers have the server's shapes (docs/api.md), so the page
// plays, replays and reviews it as any other. Its id is negative. When the server answers
// again, each is sent once (`POST /api/records` with its `client_id`, which the server
// keeps unique per owner) and goes on as the server's game.
import { T } from './i18n.js';
import { ask, withTables } from './pocket.js';

const KEY = 'sowing.local-games';
// The games sent, local id to the server's, so that every tab and link follows them there
// (the last 100).
const SENT = 'sowing.local-sent';
// The last id given.
const LAST = 'sowing.local-last';

/** Whether an API path is about a game kept in this browser. */
export function isLocalPath(path) {
  return /^\/games\/-\d+(\/|$|\?)/.test(path);
}

function all() {
  try { return JSON.parse(localStorage.getItem(KEY)) || {}; } catch (_) { return {}; }
}

function keep(games) {
  localStorage.setItem(KEY, JSON.stringify(games));
}

function refused(message, status = 400) {
  const error = new Error(message);
  error.status = status;
  return error;
}

function stored(id) {
  const g = all()[id];
  if (!g) throw refused(`game ${id} is not kept in this browser`, 404);
  return g;
}

function save(g) {
  const games = all();
  g.updated = now();
  games[g.id] = g;
  keep(games);
}

function now() {
  return new Date().toISOString().slice(0, 19).replace('T', ' ');
}

async function reply(request) {
  const r = await ask(request);
  if (r && r.error !== undefined) throw refused(r.error);
  return r;
}

async function view(g) {
  const parts = await reply({ op: 'view', position: g.position, moves: g.moves });
  const result = parts.state.over ? parts.state.winner || 'draw' : null;
  if (g.result !== result) {
    const games = all();
    if (games[g.id]) { games[g.id].result = result; keep(games); }
  }
  return {
    id: g.id, ...parts, players: g.players, names: null, redo: g.redo, match: null, round: null,
    created: g.created, updated: g.updated, local: true,
  };
}

async function created(position, moves, players) {
  // Never an id given before, here or in another tab, kept or sent.
  const used = [...Object.keys(all()), ...Object.keys(sentMap()), localStorage.getItem(LAST) || 0];
  const id = Math.min(0, ...used.map(Number)) - 1;
  localStorage.setItem(LAST, String(id));
  const client = [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('');
  const g = { id, client_id: client, position, moves, redo: [], players, created: now(), analysis: null };
  await reply({ op: 'view', position, moves }); // refused before it is kept
  save(g);
  return view(g);
}

/** A one-screen game made here as `POST /api/games` would make it (`body` its request). */
export async function createLocal(body) {
  if (body.rounds) throw refused(T('offline-needs-server'), 503);
  const options = {};
  for (const [key, value] of Object.entries(body)) {
    if (!['game', 'south', 'north', 'pits'].includes(key)) options[key.replace('_', '-')] = value;
  }
  const { position } = await reply({ op: 'start', game: body.game, pits_per_row: body.pits, options });
  return created(position, [], { south: body.south || 'human', north: body.north || 'human' });
}

/** A game made here from a record as `POST /api/records` would make it. */
export async function importLocal(body) {
  const { position, moves } = await reply({ op: 'record', record: body.record });
  return created(position, moves, { south: body.south || 'human', north: body.north || 'human' });
}

async function played(g, move) {
  const moves = [...g.moves, move];
  const { trace } = await reply({ op: 'replay', position: g.position, moves, ply: moves.length });
  g.moves = moves;
  g.analysis = null;
  return trace;
}

function expectPly(g, body) {
  if (body && body.ply !== undefined && body.ply !== g.moves.length) {
    throw refused(`the game is at ply ${g.moves.length}, not ${body.ply}`, 409);
  }
}

/** The answer to an API request about a game kept here (`isLocalPath(path)`). */
export async function localApi(method, path, body) {
  const [, idText, rest = ''] = /^\/games\/(-\d+)(?:\/(.*))?$/.exec(path.split('?')[0]);
  const id = Number(idText);
  const g = stored(id);
  const route = `${method} ${rest.replace(/^moves\/\d+$/, 'moves/N')}`;
  switch (route) {
    case 'GET ':
      return view(g);
    case 'DELETE ': {
      const games = all();
      delete games[id];
      keep(games);
      return { deleted: id };
    }
    case 'POST moves': {
      expectPly(g, body);
      const trace = await played(g, body.move);
      g.redo = [];
      save(g);
      return { trace, game: await view(g) };
    }
    case 'POST undo':
      expectPly(g, body);
      if (!g.moves.length) throw refused('nothing to undo', 409);
      g.redo.unshift(g.moves.pop());
      g.analysis = null;
      save(g);
      return { game: await view(g) };
    case 'POST redo': {
      expectPly(g, body);
      if (!g.redo.length) throw refused('nothing to redo', 409);
      const trace = await played(g, g.redo.shift());
      save(g);
      return { trace, game: await view(g) };
    }
    case 'GET moves/N':
      return reply({ op: 'replay', position: g.position, moves: g.moves, ply: Number(rest.split('/')[1]) });
    case 'POST engine': {
      expectPly(g, body);
      await withTables({ position: g.position });
      const v = await view(g);
      const player = g.players[v.state.to_move];
      const engine = await reply({
        op: 'search', position: g.position, moves: g.moves, engine: player !== 'human' ? player : 'level:6',
        seed: Math.abs(id) * 1000003 + g.moves.length, time_ms: body.time_ms,
      });
      if (!body.play) return { engine };
      const trace = await played(g, engine.move);
      g.redo = [];
      save(g);
      return { engine, trace, game: await view(g) };
    }
    case 'GET tables':
      await withTables({ position: g.position });
      return reply({ op: 'table_values', position: g.position, moves: g.moves });
    case 'GET analysis':
      return analysisView(g);
    case 'POST analysis': {
      if (!g.analysis) {
        await withTables({ position: g.position });
        g.analysis = await reply({ op: 'analyse', position: g.position, moves: g.moves });
        g.analysed = now();
        save(g);
      }
      return analysisView(g);
    }
    default:
      throw refused(`${method} ${path} needs the connection`, 503);
  }
}

function analysisView(g) {
  const done = !!g.analysis;
  return {
    game: g.id, status: done ? 'done' : 'none', plies: g.moves.length, progress: null,
    analysis: g.analysis, created: done ? g.analysed : null,
  };
}

/**
 * Sends each game kept here to the server once, through `api` (api.js), as a record with
 * its client_id; the server answers the same game for the same client_id, so a reload or
 * a second tab sending it again makes no second game; `keepId`, a game still being played
 * here, waits. The pairs [local id, server id] sent.
 */
export async function syncLocal(api, { keepId = null } = {}) {
  const sent = [];
  for (const g of Object.values(all())) {
    if (g.id === keepId) continue;
    const { record } = await reply({ op: 'record', position: g.position, moves: g.moves });
    const v = await api('POST', '/records', {
      record, south: g.players.south, north: g.players.north, client_id: g.client_id,
    }, {}, { once: true });
    const games = all();
    delete games[g.id];
    keep(games);
    const moved = Object.entries(sentMap()).slice(-99);
    localStorage.setItem(SENT, JSON.stringify(Object.fromEntries([...moved, [g.id, v.id]])));
    sent.push([g.id, v.id]);
  }
  return sent;
}

function sentMap() {
  try { return JSON.parse(localStorage.getItem(SENT)) || {}; } catch (_) { return {}; }
}

/** The server's id of a game once kept here and sent (by any tab), or null. */
export function sentAs(id) {
  return sentMap()[id] || null;
}

/** The games kept here, as `GET /api/games` lists them (newest first). */
export function localSummaries() {
  return Object.values(all()).sort((a, b) => a.id - b.id).map((g) => ({
    id: g.id, game: g.position.split(' ')[0], pits: g.position.split(' ')[1].split('/')[0].split(',').length,
    south: g.players.south, north: g.players.north, plies: g.moves.length, result: g.result || null,
    termination: null, match: null, round: null, created: g.created, updated: g.updated, local: true,
  }));
}
