// The JSON API (docs/api.md) as the page calls it: this browser's player key in a header,
// what is safe to send again retried while the server cannot be reached, a refusal turned
// into the reader's words by its code.
import { T } from './i18n.js';
import { listed, moveName } from './words.js';
import { createLocal, importLocal, isLocalPath, localApi } from './local.js';

const $ = (id) => document.getElementById(id);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// This browser's player key: 128 random bits made here, kept in this browser's storage and
// sent in a header (never in an address). The games it creates are its own: only it may
// move in them, take moves back or delete them (docs/api.md, "Owners").
const PLAYER_KEY = 'sowing.player';

function playerKey() {
  let key = localStorage.getItem(PLAYER_KEY);
  if (!/^[0-9a-f]{32}$/.test(key || '')) {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    key = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
    localStorage.setItem(PLAYER_KEY, key);
  }
  return key;
}

// The headers every request of this page carries.
function apiHeaders() {
  return { 'X-Player-Key': playerKey() };
}

// `once`: give up at the first failure to reach the server instead of waiting for it (a
// list someone opened should say the server is down, not load for ever).
// A game kept in this browser (local.js) is answered here; a one-screen game or a record
// posted while the server cannot be reached becomes one.
async function api(method, path, body, headers = {}, { once = false } = {}) {
  if (isLocalPath(path)) return localApi(method, path, body);
  const init = { method, headers: { ...apiHeaders(), ...headers } };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let response;
  for (let attempt = 0; ; attempt++) {
    try {
      response = await fetch('/api' + path, init);
      break;
    } catch (_) {
      // fetch fails only when no answer came at all. Reading, and a change that names
      // the ply it expects (the server refuses it if it was done meanwhile), are safe to
      // send again: wait and retry by ourselves.
      const safe = method === 'GET' || (body && body.ply !== undefined);
      if (!once && method === 'POST' && (path === '/games' || path === '/records')) {
        offline(true);
        return path === '/games' ? createLocal(body) : importLocal(body);
      }
      if (!safe || once) throw new Error(T('error-unreachable'));
      offline(true);
      await sleep(Math.min(8000, 1000 * 2 ** Math.min(attempt, 3)));
    }
  }
  offline(false);
  let data = null;
  try { data = await response.json(); } catch (_) { /* not JSON */ }
  if (!response.ok) {
    const error = new Error(errorWords(data, response));
    error.status = response.status;
    error.code = data && data.code;
    throw error;
  }
  return data;
}

// A refusal of the server in the reader's words, by its code (docs/api.md, "Errors"). The
// server's English detail is passed only where the code alone says too little (an unknown
// player, a record, a conflict, a body refused, a failure): English says it, other
// languages say the code's sentence.
const ERRORS = {
  'unknown-game': () => T('error-unknown-game'),
  'unknown-match': () => T('error-unknown-match'),
  'no-such-move': () => T('error-no-such-move'),
  'illegal-move': (d) => T('error-illegal-move', { legal: listed((d.legal || []).map(moveName)) }),
  'stale-ply': () => T('error-stale-ply'),
  'nothing-to-undo': () => T('error-nothing-to-undo'),
  'nothing-to-redo': () => T('error-nothing-to-redo'),
  'game-over': () => T('error-game-over'),
  'round-not-over': () => T('error-round-not-over'),
  'match-over': () => T('error-match-over'),
  'round-closed': () => T('error-round-closed'),
  'changed-meanwhile': () => T('error-changed-meanwhile'),
  'round-taken': () => T('error-round-taken'),
  'in-match': () => T('error-in-match'),
  'unknown-player': (d) => T('error-unknown-player', { detail: d.error }),
  'engine-busy': () => T('error-engine-busy'),
  'engine-no-answer': () => T('error-engine-no-answer'),
  'write-conflict': () => T('error-write-conflict'),
  'store-unavailable': () => T('error-store-unavailable'),
  'store-full': () => T('error-store-full'),
  'not-live': () => T('error-not-live'),
  'bad-record': (d) => T('error-bad-record', { detail: d.error }),
  'bad-request': () => T('error-bad-request'),
  forbidden: (d) => T('error-forbidden', { detail: d.error }),
  'not-found': () => T('error-not-found'),
  conflict: (d) => T('error-conflict', { detail: d.error }),
  'too-large': () => T('error-too-large'),
  'unsupported-type': () => T('error-unsupported-type'),
  unprocessable: (d) => T('error-unprocessable', { detail: d.error }),
  limited: () => T('error-limited'),
  'server-error': (d) => T('error-server', { detail: d.error }),
  'signed-out': () => T('error-signed-out'),
  'unknown-account': () => T('error-unknown-account'),
  'unknown-seek': () => T('error-unknown-seek'),
  'wrong-recovery-code': () => T('error-wrong-recovery-code'),
  'unknown-challenge': () => T('error-unknown-challenge'),
  'unknown-tournament': () => T('error-unknown-tournament'),
  'challenge-gone': () => T('error-challenge-gone'),
  'challenge-refused': () => T('error-challenge-refused'),
  'name-taken': () => T('error-name-taken'),
};

function errorWords(data, response) {
  const words = data && ERRORS[data.code];
  if (words) return words(data);
  if (data && data.error) return T('error-other', { detail: data.error });
  return T('error-status', { status: response.status, text: response.statusText });
}

function offline(down) {
  const box = $('offline');
  if (!box || box.hidden === !down) return;
  box.hidden = !down;
  document.body.dataset.offline = down ? '1' : '0';
}

export { PLAYER_KEY, playerKey, apiHeaders, api };
