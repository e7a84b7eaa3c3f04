// The sowing page: plain JavaScript over the JSON API (docs/api.md), the board drawn in SVG.
// Every change goes through the server; the page only draws and animates what it answers.
'use strict';

const SVG = 'http://www.w3.org/2000/svg';
// Every text comes from the catalogues (i18n.js, static/i18n/*.ftl): T(id, args).
const PLAYERS = ['human', 'level:1', 'level:2', 'level:3', 'level:4', 'level:5', 'level:6', 'greedy', 'random'];
// A player spec as the catalogue's messages select on it: {kind, level}.
const playerArgs = (spec) => {
  const m = /^level:(\d)$/.exec(spec || '');
  if (m) return { kind: 'level', level: Number(m[1]), spec };
  return { kind: ['human', 'greedy', 'random'].includes(spec || 'human') ? spec || 'human' : 'other', level: 0, spec: spec || '' };
};
// The games, their boards and rule options as the server gives them (GET /api/rules).
let RULES = { games: [], options: [] };
// Milliseconds per sowing step at speeds 1 … 10; the computer's moves go twice as fast.
const STEP_MS = [700, 450, 300, 200, 140, 95, 60, 35, 15, 4];
const COMPUTER_PACE = 0.5;
// The one engine behind the evaluation bar, whoever plays: the bar must not jump because
// another engine answered.
const EVAL_ENGINE = 'level:6';
// An estimate means something only from this depth on: on 2×12 the start swings between +22
// and −25 up to depth 6, then settles near −55 (depth 7–14); 2×6 reaches depth 18 in 300 ms.
const EVAL_MIN_DEPTH = 8;
// Before a game: what it is, in a few words, and which seat is harder (README: the start
// of Hoyito II 2×6 is worth about −25 seeds to South, Hoyito III −31; docs/web.md: Ayoayo's
// about +7 to South, `sow engine` at 1–60 million nodes, since solved: +8; Hoyito II 2×12 about −55 to South,
// `go nodes 20000000`, depth 14). `easier`: the seat a newcomer is given by default.
// `solved`: the proven value of the start (docs/solve.md: `sow solve`, its certificate
// checked by `sow solve verify`) for the board and options it was solved with; other
// options show the estimate. The words are the catalogue's.
const ABOUT = {
  'hoyito-ii': {
    text: () => T('about-hoyito-ii'),
    seat: () => T('about-hoyito-ii-seat', { seeds: 25 }),
    seat12: () => T('about-hoyito-ii-seat12', { seeds: 55, positions: 20000000 }),
    solved: { pits: 6, options: { casa_rows: 'any' }, seat: () => T('about-solved-north', { seeds: 28 }) },
    easier: 'north',
  },
  'hoyito-iii': {
    text: () => T('about-hoyito-iii'),
    seat: () => T('about-hoyito-iii-seat', { seeds: 31 }),
    solved: { pits: 6, options: { casa_rows: 'any', final_four: 'capturer' }, seat: () => T('about-solved-north', { seeds: 36 }) },
    easier: 'north',
  },
  ayoayo: {
    text: () => T('about-ayoayo'),
    seat: () => T('about-ayoayo-seat', { seeds: 7 }),
    solved: { pits: 6, options: { leftover: 'last-mover' }, seat: () => T('about-ayoayo-solved', { seeds: 8 }) },
    easier: 'south',
  },
};

const S = {
  view: null,          // the game as the server last gave it
  viewPly: null,       // the ply being looked at, or null for the game as it stands
  flipped: false,
  busy: false,         // a request or animation is running
  skipAll: false,      // finish the running animation and every one queued behind it
  wake: null,          // ends the animation's current pause at once
  hint: null,          // pit index the engine suggested
  thinkMs: 1000,
  evalSeq: 0,
  turn: null,          // the turn being told: {id, side, ply, moves, taken, again}
};
// Counters the browser tests read: animations played, steps drawn, animations whose
// replay of the trace did not reach the server's position.
window.sowing = { animations: 0, steps: 0, painted: 0, mismatches: 0, lastStepMs: null, state: S };

const $ = (id) => document.getElementById(id);
// The live game being shown (live.js, "Play a friend"), or null for a one-screen game.
const LIVE = () => (window.sowingLive && window.sowingLive.active() ? window.sowingLive : null);

// ---------------------------------------------------------------- the API

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
async function api(method, path, body, headers = {}, { once = false } = {}) {
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

// A refusal of the server in the reader's words, by its code (docs/api.md, "Errors"). A
// code that names a kind of refusal adds the server's English detail.
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
  'bad-request': (d) => T('error-bad-request', { detail: d.error }),
  forbidden: (d) => T('error-forbidden', { detail: d.error }),
  'not-found': (d) => T('error-not-found', { detail: d.error }),
  conflict: (d) => T('error-conflict', { detail: d.error }),
  'too-large': () => T('error-too-large'),
  'unsupported-type': (d) => T('error-unsupported-type', { detail: d.error }),
  unprocessable: (d) => T('error-unprocessable', { detail: d.error }),
  limited: (d) => T('error-limited', { detail: d.error }),
  'server-error': (d) => T('error-server', { detail: d.error }),
  'signed-out': (d) => T('error-signed-out', { detail: d.error }),
  'unknown-account': () => T('error-unknown-account'),
};
window.sowing.errorCodes = Object.keys(ERRORS);

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

// ---------------------------------------------------------------- board geometry

const PW = 100, R = 42, STORE_W = 96, TOP = 34, ROW_H = 112;
// Upright (narrow screens): the rows run top to bottom, the stores above and below.
const SIDE = 58, STORE_H = 104;
const NARROW = window.matchMedia('(max-width: 600px)');

function geometry(n, upright) {
  if (upright) {
    const y0 = STORE_H + 14;
    return { n, upright, y0, width: SIDE * 2 + ROW_H * 2, height: y0 * 2 + n * PW };
  }
  const x0 = STORE_W + 14;
  return {
    n, upright, x0,
    width: x0 * 2 + n * PW,
    height: TOP * 2 + ROW_H * 2,
  };
}

// The centre of pit `i` on the drawn board: South's row along the bottom from the left,
// North's along the top from the right (sowing runs counter-clockwise), turned round when
// the board is flipped. Upright, the picture is turned a quarter clockwise: South's row
// runs down the left, North's up the right. `top` says the pit is in the far row.
function pitCentre(g, i) {
  const n = g.n;
  let column, top;
  if (i < n) { column = i; top = false; } else { column = 2 * n - 1 - i; top = true; }
  if (S.flipped) { column = n - 1 - column; top = !top; }
  if (g.upright) return { x: SIDE + (top ? ROW_H * 1.5 : ROW_H / 2), y: g.y0 + column * PW + PW / 2, top };
  return { x: g.x0 + column * PW + PW / 2, y: TOP + (top ? ROW_H / 2 : ROW_H * 1.5), top };
}

// South's store is on South's right (upright: below); turned round, on the left (above).
function storeBox(g, side) {
  const right = (side === 'south') !== S.flipped;
  if (g.upright) return { x: 6, y: right ? g.height - STORE_H - 6 : 6, w: g.width - 12, h: STORE_H };
  return { x: right ? g.width - STORE_W - 6 : 6, y: TOP + 6, w: STORE_W, h: ROW_H * 2 - 12 };
}

function el(name, attrs, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

function letter(i, n) {
  return i < n ? String.fromCharCode(65 + i) : String.fromCharCode(97 + i - n);
}

// Seeds drawn in a pit, at most: more would be a blur; the count beside the pit says how many.
const SEEDS_DRAWN = 20;

// A fixed scatter of seeds: a sunflower spiral with a little jitter, the same every time.
function seedSpots(count, radius, salt) {
  const shown = Math.min(count, SEEDS_DRAWN);
  const spots = [];
  const step = Math.min(8.4, (radius - 8) / Math.sqrt(Math.max(shown, 1)));
  for (let k = 0; k < shown; k++) {
    const a = k * 2.39996 + salt;
    const r = step * Math.sqrt(k + (shown === 1 ? 0 : 0.6));
    const j = ((salt * 31 + k * 17) % 7) / 7 - 0.5;
    spots.push([Math.cos(a) * r + j * 1.5, Math.sin(a) * r - j * 1.5]);
  }
  return spots;
}

let G = null;   // the geometry and element handles of the board drawn now

function buildBoard(rules) {
  const n = rules.pits;
  const g = geometry(n, NARROW.matches);
  const svg = $('board');
  svg.innerHTML = '';
  svg.setAttribute('viewBox', `0 0 ${g.width} ${g.height}`);
  svg.classList.toggle('upright', g.upright);
  svg.dataset.pits = String(n);
  boardDefs(svg);
  el('rect', { class: 'wood', x: 1, y: 1, width: g.width - 2, height: g.height - 2, rx: 30 }, svg);
  const ayoayo = rules.game === 'ayoayo';
  g.stores = {};
  for (const side of ['south', 'north']) {
    const box = storeBox(g, side);
    const group = el('g', { class: `store ${ayoayo ? 'real' : 'heap'}`, 'data-store': side }, svg);
    el('rect', { class: 'store-hole', x: box.x, y: box.y, width: box.w, height: box.h, rx: 40 }, group);
    const seeds = el('g', { class: 'seeds' }, group);
    const lx = g.upright ? box.x + 62 : box.x + box.w / 2;
    const label = el('text', { class: 'store-label', x: lx, y: box.y + (g.upright ? 34 : 22) }, group);
    label.textContent = ayoayo ? T('store-label', { side }) : T('took-label', { side });
    const count = el('text', { class: 'store-count', x: lx, y: box.y + (g.upright ? 78 : 52) }, group);
    g.stores[side] = { group, seeds, count, box };
  }
  g.pits = [];
  for (let i = 0; i < 2 * n; i++) {
    const c = pitCentre(g, i);
    const name = letter(i, n);
    const group = el('g', {
      class: 'pit', 'data-pit': i, 'data-name': name,
      transform: `translate(${c.x},${c.y})`, role: 'button',
    }, svg);
    el('circle', { class: 'ring', r: R + 6 }, group);
    el('circle', { class: 'hole', r: R }, group);
    const seeds = el('g', { class: 'seeds' }, group);
    // Upright, the count sits on the pit's outer upper corner and the letter outside it.
    const badgeAt = g.upright ? [c.top ? R - 6 : -(R - 6), -(R - 6)] : [R - 8, c.top ? R - 8 : -(R - 8)];
    const badge = el('g', { class: 'badge', transform: `translate(${badgeAt[0]},${badgeAt[1]})` }, group);
    el('circle', { r: g.upright ? 19 : 14 }, badge);
    const count = el('text', { class: 'count', y: g.upright ? 7 : 5 }, badge);
    const label = g.upright
      ? el('text', { class: 'letter', x: c.top ? R + 14 : -R - 14, y: 26 }, group)
      : el('text', { class: 'letter', y: c.top ? -R - 12 : R + 26 }, group);
    label.textContent = name;
    group.addEventListener('click', () => clickPit(i));
    group.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); e.stopPropagation(); clickPit(i); }
    });
    g.pits.push({ group, seeds, count, centre: c, name, shown: -1 });
  }
  const hand = el('g', { id: 'hand', class: 'hand', visibility: 'hidden' }, svg);
  el('circle', { r: 17 }, hand);
  g.handText = el('text', { y: 6 }, hand);
  g.hand = hand;
  G = g;
}

// The board's wood, the carved hollows and the seeds' light side, as SVG gradients that
// style.css names (fill: url(#g-…)).
function boardDefs(svg) {
  const defs = el('defs', {}, svg);
  const stops = (gradient, colours) => colours.forEach(([offset, colour]) => el('stop', { offset, 'stop-color': colour }, gradient));
  stops(el('linearGradient', { id: 'g-wood', x1: 0, y1: 0, x2: 0, y2: 1 }, defs),
    [['0', '#c98f55'], ['.45', '#b0733b'], ['.55', '#a86c35'], ['1', '#93592a']]);
  for (const id of ['g-pit', 'g-store']) {
    stops(el('radialGradient', { id, cx: '.5', cy: '.58', r: '.62', fx: '.5', fy: '.7' }, defs),
      [['0', '#6d4522'], ['.7', '#51310f'], ['1', '#2f1a07']]);
  }
  const seeds = [['#fffaf0', '#e6d6b0', '#a8916a'], ['#fbe3a0', '#d9a441', '#8a5a1f'],
    ['#f2efe6', '#bdb6a2', '#6f6958'], ['#e7b78a', '#a8733f', '#5e3815']];
  seeds.forEach(([light, body, shade], k) => {
    stops(el('radialGradient', { id: `g-seed${k}`, cx: '.35', cy: '.3', r: '.75' }, defs),
      [['0', light], ['.55', body], ['1', shade]]);
  });
}

// Seeds as seeds: small ovals, each turned its own way, in a cluster.
function drawSeeds(group, count, radius, salt) {
  group.innerHTML = '';
  const big = count > 12 ? 0.82 : 1;
  for (const [k, [x, y]] of seedSpots(count, radius, salt).entries()) {
    const turn = (salt * 47 + k * 73) % 180;
    el('ellipse', {
      class: `seed s${(salt + Math.round(x * 7 + y * 3)) & 3}`, rx: (7.6 * big).toFixed(1), ry: (5.6 * big).toFixed(1),
      transform: `translate(${x.toFixed(1)},${y.toFixed(1)}) rotate(${turn})`,
    }, group);
  }
}

function drawStoreSeeds(store, count, salt) {
  const group = store.seeds;
  group.innerHTML = '';
  const { x, y, w, h } = store.box;
  const shown = Math.min(count, 96);
  const wide = w > h; // upright: the seeds lie to the right of the label
  const left = wide ? x + 120 : x + 10;
  const cell = wide ? 12.5 : (w - 20) / 6;
  const cols = wide ? Math.floor((x + w - 10 - left) / cell) : 6;
  for (let k = 0; k < shown; k++) {
    const col = k % cols, row = Math.floor(k / cols);
    const j = ((k * 13 + salt) % 5) / 5 - 0.5;
    const cx = left + cell * (col + 0.5) + j * 2;
    const cy = y + h - 16 - row * (cell * 0.9) - j;
    if (cy < y + (wide ? 10 : 66)) break;
    el('circle', { class: `seed s${(k + salt) & 3}`, cx: cx.toFixed(1), cy: cy.toFixed(1), r: 5 }, group);
  }
}

// Draws counts and seeds; `marks` gives the classes of the moment (legal, hint, last …).
function paint(pits, captured, marks) {
  marks = marks || {};
  pits.forEach((count, i) => {
    const p = G.pits[i];
    if (p.shown !== count) {
      drawSeeds(p.seeds, count, R, i * 3 + 1);
      p.count.textContent = String(count);
      p.shown = count;
    }
    const legal = marks.legal && marks.legal.has(i);
    p.group.classList.toggle('legal', !!legal);
    p.group.classList.toggle('hint', marks.hint === i);
    p.group.classList.toggle('last', marks.last === i);
    p.group.classList.toggle('mover-row', !!(marks.moverRow && marks.moverRow(i)));
    if (legal) {
      p.group.setAttribute('tabindex', '0');
      p.group.setAttribute('aria-label', T('pit-playable', { pit: p.name, seeds: count }));
      p.group.removeAttribute('aria-disabled');
    } else {
      p.group.removeAttribute('tabindex');
      p.group.setAttribute('aria-label', T('pit-label', { pit: p.name, seeds: count }));
      p.group.setAttribute('aria-disabled', 'true');
    }
  });
  ['south', 'north'].forEach((side, k) => {
    const store = G.stores[side];
    if (store.shown !== captured[k]) {
      drawStoreSeeds(store, captured[k], k * 5);
      store.shown = captured[k];
    }
    store.count.textContent = String(captured[k]);
  });
}

function flash(i, kind) {
  const group = i === 'south' || i === 'north' ? G.stores[i].group : G.pits[i].group;
  group.classList.remove('flash-lift', 'flash-drop', 'flash-skip', 'flash-take', 'flash-relay');
  void group.getBoundingClientRect();
  group.classList.add(`flash-${kind}`);
}

function moveHand(i, seeds) {
  if (seeds <= 0) { G.hand.setAttribute('visibility', 'hidden'); return; }
  const c = G.pits[i].centre;
  G.hand.setAttribute('visibility', 'visible');
  const at = G.upright ? [c.top ? c.x + R - 6 : c.x - R + 6, c.y + R - 6] : [c.x - R + 6, c.top ? c.y - R + 6 : c.y + R - 6];
  G.hand.setAttribute('transform', `translate(${at[0]},${at[1]})`);
  G.handText.textContent = String(seeds);
}

// ---------------------------------------------------------------- animation

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// A pause of the animation, which Skip ends at once.
function pause(ms) {
  return new Promise((resolve) => {
    const done = () => { clearTimeout(timer); S.wake = null; resolve(); };
    const timer = setTimeout(done, ms);
    S.wake = done;
  });
}

// Skip: the running animation and every one queued behind it (the computer's replies)
// end at once, until a person is to move again.
function skipAnimation() {
  S.skipAll = true;
  if (S.wake) S.wake();
}

// Replays a move's trace on the drawn board, seed by seed, from the position `before`.
// Returns the pits and captures it reached, which must be the server's. A computer's move
// goes at COMPUTER_PACE.
async function animate(before, trace, mover, computer) {
  document.body.dataset.animating = '1';
  const n = G.n;
  const pits = before.pits.slice();
  const captured = before.captured.slice();
  let hand = 0, laps = 0;
  const say = (text) => { $('commentary').textContent = text; };
  const ms = (STEP_MS[Number($('speed').value) - 1] || 60) * (computer ? COMPUTER_PACE : 1);
  window.sowing.lastStepMs = { ms, computer: !!computer };
  for (const ev of trace) {
    let wait = ms;
    switch (ev.kind) {
      case 'lift':
        laps += 1;
        hand = ev.seeds;
        pits[ev.pit] = 0;
        say(ev.relay ? T('say-relay', { lap: laps, seeds: ev.seeds, pit: ev.name }) : T('say-lift', { who: mover, seeds: ev.seeds, pit: ev.name }));
        if (!S.skipAll) { flash(ev.pit, ev.relay ? 'relay' : 'lift'); moveHand(ev.pit, hand); }
        wait = ms * 2;
        break;
      case 'drop':
        pits[ev.pit] += 1;
        hand -= 1;
        if (!S.skipAll) { flash(ev.pit, 'drop'); moveHand(ev.pit, hand); }
        break;
      case 'skip':
        say(T('say-skip', { lap: laps, pit: ev.name }));
        if (!S.skipAll) flash(ev.pit, 'skip');
        break;
      case 'take': {
        pits[ev.pit] -= ev.seeds;
        captured[ev.by === 'south' ? 0 : 1] += ev.seeds;
        say(T('say-take', { who: sideName(ev.by), why: ev.why, seeds: ev.seeds, pit: ev.name }));
        if (!S.skipAll) { flash(ev.pit, 'take'); flash(ev.by, 'take'); }
        wait = ms * 3;
        break;
      }
      case 'extra-turn':
        say(T('say-extra-turn', { who: mover }));
        wait = ms * 3;
        break;
      case 'pass':
        say(T('say-pass', { who: mover }));
        wait = ms * 3;
        break;
      default:
        break;
    }
    window.sowing.steps += 1;
    if (!S.skipAll) {
      paint(pits, captured, {});
      window.sowing.painted += 1;
      await pause(wait);
    }
  }
  G.hand.setAttribute('visibility', 'hidden');
  window.sowing.animations += 1;
  document.body.dataset.animating = '0';
  return { pits, captured };
}

function sameBoard(a, b) {
  return a.pits.join() === b.pits.join() && a.captured.join() === b.captured.join();
}

// ---------------------------------------------------------------- drawing the game

// A sentence's first letter made a capital, as the language writes it.
const upperFirst = (s) => s.charAt(0).toLocaleUpperCase(I18N.locale) + s.slice(1);
// A move as people name it: a pit's letter, or pass.
const moveName = (move) => (move === 'pass' ? T('move-pass') : move);
// A side as people name it: South, North.
const sideName = (side) => T('side', { side });
// Text made safe to put into innerHTML (players' names come from strangers).
const escapeHtml = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const isComputer = (spec) => spec && spec !== 'human';

function playerName(spec) {
  return T('player-name', playerArgs(spec));
}

function positionAt(view, ply) {
  if (ply === 0) return view.start;
  return view.history[ply - 1].after;
}

function render() {
  const v = S.view;
  if (!v) { renderEmpty(); return; }
  if (!G || G.n !== v.rules.pits || G.game !== v.rules.game || G.flipped !== S.flipped || G.upright !== NARROW.matches) {
    buildBoard(v.rules);
    G.game = v.rules.game;
    G.flipped = S.flipped;
  }
  const live = S.viewPly === null;
  const ply = live ? v.ply : S.viewPly;
  const pos = live ? { pits: v.state.pits, captured: v.state.captured, to_move: v.state.to_move } : positionAt(v, ply);
  const n = v.rules.pits;
  const humanTurn = live && !v.state.over && !isComputer(v.players[v.state.to_move]) && !S.busy
    && (!LIVE() || LIVE().mayMove(v));
  const legal = new Set();
  if (humanTurn) {
    for (const name of v.state.legal) if (name !== 'pass') legal.add(nameToPit(name, n));
  }
  const lastMove = ply > 0 ? v.history[ply - 1].move : null;
  const mover = pos.to_move;
  paint(pos.pits, pos.captured, {
    legal,
    hint: live ? S.hint : null,
    last: lastMove && lastMove !== 'pass' ? nameToPit(lastMove, n) : null,
    moverRow: (i) => !v.state.over && ((i < n) === (mover === 'south')),
  });

  // Titles, players and whose turn it is.
  const opts = [];
  for (const o of optionsOf(v.rules.game)) {
    const value = v.rules[o.field];
    if (value !== o.default) opts.push(T('title-option', { option: optionLabel(o).toLocaleLowerCase(I18N.locale), value: valueLabel(o, value) }));
  }
  const title = T('game-title', {
    game: gameTitle(v.rules.game), pits: n, match: v.match ? 'yes' : 'no', round: v.round || 0,
    rounds: v.match ? v.match.rounds : 0, options: opts.join(T('list-comma')), hasOptions: opts.length ? 'yes' : 'no', id: String(v.id),
  });
  $('title').textContent = L.on && v.id === L.game ? T('learn-board-title', { lesson: lessonText(L.variant, L.k, 'title') }) : title;
  const label = (side) => {
    const k = side === 'south' ? 0 : 1;
    return T.html('player-line', {
      side: sideName(side), player: playerName(v.players[side]), captured: pos.captured[k],
      turn: !v.state.over && pos.to_move === side ? 'yes' : 'no',
    });
  };
  $('player-top').innerHTML = label(S.flipped ? 'south' : 'north');
  $('player-bottom').innerHTML = label(S.flipped ? 'north' : 'south');
  const toMove = v.state.over ? null : pos.to_move;
  $('player-top').classList.toggle('to-move', toMove === (S.flipped ? 'south' : 'north'));
  $('player-bottom').classList.toggle('to-move', toMove === (S.flipped ? 'north' : 'south'));
  document.body.dataset.turn = v.state.over ? 'over' : isComputer(v.players[v.state.to_move]) ? 'computer' : 'human';
  document.body.dataset.ply = String(v.ply);
  document.body.dataset.game = String(v.id);

  if (S.note && !S.busy) {
    setStatus(S.note.text, S.note.error);
  } else if (!S.busy) {
    const who = sideName(v.state.to_move);
    if (v.state.over) setStatus(T('status-over', { result: resultText(v) }));
    else if (!live) setStatus(T('status-in-game', { who }));
    else if (isComputer(v.players[v.state.to_move])) setStatus(T('status-computer', { who, player: playerName(v.players[v.state.to_move]) }));
    else if (v.state.legal.length === 1 && v.state.legal[0] === 'pass') setStatus(T('status-must-pass', { who }));
    else setStatus(T('status-to-move', { who }));
  }

  $('viewing').hidden = live;
  if (!live) {
    $('viewing-text').textContent = ply === 0 ? T('viewing-start')
      : T('viewing-after', { ply, side: v.history[ply - 1].side, move: moveName(v.history[ply - 1].move) });
  }
  $('btn-pass').hidden = !(humanTurn && v.state.legal.includes('pass'));
  $('btn-undo').disabled = S.busy || !canUndo(v);
  $('btn-flip').disabled = false;
  $('download').hidden = false;
  $('btn-redo').disabled = S.busy || v.redo.length === 0;
  $('btn-hint').disabled = S.busy || v.state.over || !live;
  $('btn-skip').disabled = document.body.dataset.animating !== '1';
  $('download').href = `/api/games/${v.id}/record`;

  renderMoves(v, ply);
  renderSummary(v);
  renderMatch(v);
  if (LIVE()) LIVE().decorate(v);
  if (window.sowingAnalysis) window.sowingAnalysis.decorate(v, ply);
  refreshTableValues();
}

// Nothing to play on (the first dialog was cancelled, or the game was deleted): nothing
// to press either.
function renderEmpty() {
  for (const id of ['btn-undo', 'btn-redo', 'btn-hint', 'btn-flip', 'btn-skip']) $(id).disabled = true;
  $('btn-pass').hidden = true;
  $('download').hidden = true;
  $('title').textContent = T('no-game');
  for (const id of ['player-top', 'player-bottom', 'commentary', 'moves']) $(id).textContent = '';
  $('board').innerHTML = '';
  G = null;
  $('evalbar').hidden = true;
  $('summary').hidden = true;
  $('match').hidden = true;
  $('viewing').hidden = true;
  setStatus('');
  delete document.body.dataset.game;
  if (window.sowingAnalysis) window.sowingAnalysis.decorate(null, null);
}

// Undo goes back to a person's turn, taking back the computer's replies: with no move of a
// person to take back (the computer moved first), it would only replay the computer's.
function canUndo(v) {
  if (v.ply === 0) return false;
  const people = ['south', 'north'].filter((side) => !isComputer(v.players[side]));
  return people.length === 0 || v.history.some((h) => people.includes(h.side));
}

function nameToPit(name, n) {
  const code = name.charCodeAt(0);
  return code >= 97 ? n + code - 97 : code - 65;
}

function setStatus(text, error) {
  const s = $('status');
  s.textContent = text;
  s.classList.toggle('error', !!error);
}

// How a game ended, in a few words: "the last four went to South" (the server's `end`, by
// its reason code).
function endWords(end) {
  return end ? T('end-short', { reason: end.reason, to: end.to ? sideName(end.to) : '' }) : '';
}

// How a live game ended, in a few words: the server's `result` by its reason code (the
// game's own end, `rules`, by the game's `end`); in a match, an end that is not the rules'
// ends the match.
function liveEnd(result, v) {
  if (result.reason === 'rules') return v && v.end ? endWords(v.end) : T('end-over');
  const sides = ['south', 'north'];
  return T('live-end', {
    reason: result.reason, outcome: result.outcome,
    winner: sides.includes(result.outcome) ? sideName(result.outcome) : '',
    loser: sideName(result.outcome === 'south' ? 'north' : 'south'),
    match: v && v.match ? 'yes' : 'no',
  });
}

// "North wins, 30–18 — …": the winner's seeds first.
function resultText(v) {
  const [south, north] = v.state.captured;
  const [first, second] = v.state.winner === 'north' ? [north, south] : [south, north];
  return T('result', {
    winner: v.state.winner, who: v.state.winner === 'draw' ? '' : sideName(v.state.winner),
    first, second, why: endWords(v.end), hasWhy: v.end ? 'yes' : 'no',
  });
}

// "48 moves in 40 turns": a turn is a side's moves in a row, as the moves list numbers them.
function movesAndTurns(v) {
  let turns = 0, last = null;
  for (const h of v.history) {
    if (h.side !== last) turns += 1;
    last = h.side;
  }
  return T('moves-and-turns', { moves: v.ply, turns, same: turns === v.ply ? 'yes' : 'no' });
}

function renderMoves(v, ply) {
  const list = $('moves');
  list.innerHTML = '';
  const start = document.createElement('li');
  start.innerHTML = `<button type="button" data-ply="0">${escapeHtml(T('moves-start'))}</button>`;
  list.appendChild(start);
  // One entry per turn (a side's moves in a row, extra turns included), numbered.
  let item = null, lastSide = null, turn = 0;
  v.history.forEach((h) => {
    if (h.side !== lastSide || !item) {
      turn += 1;
      item = document.createElement('li');
      item.className = `turn ${h.side}`;
      item.innerHTML = `<span class="num">${turn}.</span><span class="side" title="${escapeHtml(sideName(h.side))}">${escapeHtml(T('side-initial', { side: h.side }))}</span>`;
      list.appendChild(item);
      lastSide = h.side;
    }
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.ply = String(h.ply);
    b.textContent = h.move;
    b.title = T('move-title', { ply: String(h.ply), side: h.side, move: moveName(h.move) });
    item.appendChild(b);
  });
  for (const b of list.querySelectorAll('button')) {
    if (Number(b.dataset.ply) === ply) { b.classList.add('current'); b.setAttribute('aria-current', 'step'); }
    b.addEventListener('click', () => lookAt(Number(b.dataset.ply)));
  }
  const current = list.querySelector('.current');
  if (current) scrollWithin(list, current);
}

// Brings `item` into view inside the scrolling `box` alone. scrollIntoView would also scroll
// the page, and on a phone, where the list sits below the board, it carried the board (and
// the sowing being played) off the screen.
function scrollWithin(box, item) {
  const b = box.getBoundingClientRect(), r = item.getBoundingClientRect();
  if (r.top < b.top) box.scrollTop -= b.top - r.top;
  else if (r.bottom > b.bottom) box.scrollTop += r.bottom - b.bottom;
}

function renderSummary(v) {
  const box = $('summary');
  if (!v.state.over) { box.hidden = true; return; }
  box.hidden = false;
  const [south, north] = v.state.captured;
  const headline = T('summary-headline', { winner: v.state.winner, who: v.state.winner === 'draw' ? '' : sideName(v.state.winner) });
  const why = T('summary-why', {
    reason: v.end ? v.end.reason : 'none', to: v.end && v.end.to ? sideName(v.end.to) : '',
    leftover: v.rules.leftover || 'last-mover', moves: movesAndTurns(v),
  });
  // In a match, the next round is the main action; a new game would leave the match.
  const m = v.match;
  const next = m && !m.winner && m.next_round_ready
    ? `<button type="button" id="btn-next-round" class="primary">${escapeHtml(T('next-round', { round: m.rows.length + 1, rounds: m.rounds }))}</button>` : '';
  const side = (name, k, seeds) => `<div class="side${v.state.winner === name ? ' won' : ''}"><span class="name">${escapeHtml(sideName(name))}</span>
    <span class="score">${seeds}</span><span class="who">${escapeHtml(LIVE() ? LIVE().playerLabel(name) : playerName(v.players[name]))}</span></div>`;
  box.innerHTML = `<div class="head"><h2>${escapeHtml(headline)}</h2><div class="final">${side('south', 0, south)}<span class="dash">–</span>${side('north', 1, north)}</div></div>
    <p class="why">${escapeHtml(why)}</p>
    <p class="summary-buttons">${next}<button type="button" id="btn-again"${next ? '' : ' class="primary"'}>${escapeHtml(T('summary-new', { leaves: m && !m.winner ? 'yes' : 'no' }))}</button>
    ${window.sowingAnalysis ? window.sowingAnalysis.summaryButton() : ''}
    <button type="button" id="btn-review">${escapeHtml(T('summary-review'))}</button>
    <a class="button" href="/api/games/${v.id}/record" download>${escapeHtml(T('download'))}</a></p>`;
  $('btn-again').addEventListener('click', openNewGame);
  $('btn-review').addEventListener('click', () => lookAt(0));
  if ($('btn-analysis')) $('btn-analysis').addEventListener('click', () => window.sowingAnalysis.open());
  if (next) $('btn-next-round').addEventListener('click', nextRound);
}

function renderMatch(v) {
  const box = $('match');
  const m = v.match;
  if (!m) { box.hidden = true; return; }
  box.hidden = false;
  const rows = m.rows.map((r) => `<tr${r.game === v.id ? ' class="current"' : ''}>
    <td><button type="button" data-game="${r.game}">${r.round}</button></td><td>${escapeHtml(sideName(r.starter))}</td><td>${T.escaped('final-four', { to: r.final_four })}</td>
    <td>${r.captured[0]}</td><td>${r.captured[1]}</td><td>${r.winner ? T.escaped('round-winner', { winner: r.winner }) : '…'}</td></tr>`).join('');
  let footer = '';
  const counts = { south: m.wins[0], north: m.wins[1], southSeeds: m.seeds[0], northSeeds: m.seeds[1] };
  if (m.winner) footer = `<p class="match-result">${T.html('match-over', { ...counts, winner: m.winner, who: m.winner === 'draw' ? '' : sideName(m.winner) })}</p>`;
  else if (m.next_round_ready) footer = `<p>${T.escaped('match-next-ready', { round: m.rows.length + 1 })}</p>`;
  box.innerHTML = `<h2>${T.escaped('match-title', { rounds: m.rounds })}</h2>
    <table class="score"><thead><tr><th>${T.escaped('match-round')}</th><th>${T.escaped('match-starts')}</th><th>${T.escaped('match-last-four')}</th><th>${T.escaped('side', { side: 'south' })}</th><th>${T.escaped('side', { side: 'north' })}</th><th>${T.escaped('match-winner')}</th></tr></thead>
    <tbody>${rows}</tbody>
    <tfoot><tr><th colspan="3">${T.escaped('match-rounds-won', counts)}</th><th>${m.seeds[0]}</th><th>${m.seeds[1]}</th><th></th></tr></tfoot></table>${footer}`;
  for (const b of box.querySelectorAll('button[data-game]')) b.addEventListener('click', () => load(Number(b.dataset.game)));
}

// ---------------------------------------------------------------- words for people

// "A, B and C", in the reader's language.
function listed(names) {
  if (names.length <= 1) return names.join('');
  return T('list-and', { rest: names.slice(0, -1).join(T('list-comma')), last: names[names.length - 1] });
}

// What a move did, in a sentence: "North sowed c: it relayed twice and made a casa at E —
// North takes 4 and moves again."
function describeMove(side, move, trace, game) {
  const who = sideName(side);
  if (move === 'pass') return T('move-passed', { who });
  const relays = trace.filter((e) => e.kind === 'lift' && e.relay).length;
  const captures = trace.filter((e) => e.kind === 'take' && e.why === 'capture');
  const lastFour = trace.find((e) => e.kind === 'take' && e.why === 'last-four');
  const left = trace.filter((e) => e.kind === 'take' && e.why === 'leftover');
  const again = trace.some((e) => e.kind === 'extra-turn');
  const skipped = [...new Set(trace.filter((e) => e.kind === 'skip').map((e) => e.name))];
  const did = [];
  if (skipped.length) did.push(T('did-skip', { pits: listed(skipped) }));
  if (relays) did.push(T('did-relay', { count: relays }));
  const at = listed(captures.map((e) => e.name));
  if (captures.length && game === 'ayoayo') {
    // The capturing seed's pit is in the mover's row, the seeds across in the other.
    const mine = (e) => (side === 'south') === (e.name === e.name.toUpperCase());
    const end = captures.find(mine);
    const across = captures.filter((e) => !mine(e));
    const seeds = across.reduce((sum, e) => sum + e.seeds, 0);
    did.push(T('did-capture-across', { end: end ? end.name : 'none', seeds, across: listed(across.map((e) => e.name)) }));
  } else if (captures.length === 1) did.push(T('did-casa', { pits: at }));
  else if (captures.length) did.push(T('did-chain', { pits: at }));
  else did.push(T('did-empty'));
  const then = [];
  const taken = captures.reduce((sum, e) => sum + e.seeds, 0);
  if (taken) then.push(T('then-takes', { who, seeds: taken, again: again ? 'yes' : 'no' }));
  else if (again) then.push(T('then-again', { who }));
  if (lastFour) then.push(T('then-last-four', { who: sideName(lastFour.by) }));
  for (const by of ['south', 'north']) {
    const seeds = left.filter((e) => e.by === by).reduce((sum, e) => sum + e.seeds, 0);
    if (seeds) then.push(T('then-left', { who: sideName(by), seeds }));
  }
  return T('move-sowed', { who, move, did: listed(did), then: then.join(T('list-semicolon')), hasThen: then.length ? 'yes' : 'no' });
}

// An engine's score in words, for `side`: {kind, south} as the API gives it.
function scoreWords(score) {
  const s = score.south;
  const ahead = s > 0 ? 'south' : 'north';
  if (score.kind === 'proven') return T('score-proven', { margin: Math.abs(s), who: sideName(ahead) });
  return T('score-estimate', { margin: Math.round(Math.abs(s)), who: sideName(ahead) });
}

// The hint, for the person to move: "Best: A — you stay about 26 seeds behind".
function hintWords(move, score, mover) {
  move = moveName(move);
  if (!score) return T('hint-bare', { move });
  const v = mover === 'south' ? score.south : -score.south;
  if (score.kind === 'proven') return T('hint-proven', { move, ahead: v > 0 ? 'yes' : 'no', margin: Math.abs(v) });
  return T('hint-estimate', { move, ahead: v > 0 ? 'yes' : 'no', margin: Math.round(Math.abs(v)) });
}

// The number shown in the bar: whole seeds, with a real minus sign.
const barNumber = (s) => (Math.round(s) === 0 ? '0' : `${s > 0 ? '+' : '−'}${Math.abs(Math.round(s))}`);

Object.assign(window.sowing, { describeMove, tellTurn, resultText, movesAndTurns, scoreWords, hintWords, barNumber, api });

// ---------------------------------------------------------------- evaluation bar

async function refreshEval() {
  const v = S.view;
  const bar = $('evalbar');
  // No help in a game between two people, and none in a lesson: it teaches the rule.
  if (LIVE() || inLesson()) { bar.hidden = true; $('eval-words').hidden = true; return; }
  bar.hidden = !$('eval-on').checked;
  $('eval-words').hidden = bar.hidden;
  if (!v || bar.hidden) return;
  const seq = ++S.evalSeq;
  let south = null, title = '', words = '', proven = false, unclear = false;
  if (v.state.over) {
    south = v.state.captured[0] - v.state.captured[1];
    title = T('eval-final-title');
    words = T('eval-final', { margin: Math.abs(south), who: sideName(south > 0 ? 'south' : 'north') });
  } else {
    try {
      const r = await api('POST', `/games/${v.id}/engine`, { time_ms: 300, ply: v.ply, engine: EVAL_ENGINE });
      if (seq !== S.evalSeq) return;
      const shallow = r.engine.score && r.engine.score.kind !== 'proven' && (r.engine.depth || 0) < EVAL_MIN_DEPTH;
      if (shallow) {
        south = 0;
        unclear = true;
        words = T('eval-unclear');
        title = T('eval-unclear-title', { engine: r.engine.engine, depth: r.engine.depth || 0, needs: EVAL_MIN_DEPTH });
      } else if (r.engine.score) {
        south = r.engine.score.south;
        proven = r.engine.score.kind === 'proven';
        words = T('eval-words', { score: upperFirst(scoreWords(r.engine.score)) });
        title = T('eval-score-title', { engine: r.engine.engine, score: scoreWords(r.engine.score), depth: r.engine.depth || 0 });
      } else {
        south = v.state.captured[0] - v.state.captured[1];
        title = T('eval-none-title', { engine: r.engine.engine });
        words = T('eval-none');
      }
    } catch (e) {
      if (seq !== S.evalSeq) return;
      south = v.state.captured[0] - v.state.captured[1];
      title = T('eval-failed-title', { error: e.message });
      words = T('eval-failed');
    }
  }
  const text = unclear ? '?' : barNumber(south);
  $('eval-words').textContent = words;
  const share = 0.5 + 0.5 * Math.tanh(south / 8);
  $('eval-south').style.height = `${(share * 100).toFixed(1)}%`;
  $('eval-north').style.height = `${((1 - share) * 100).toFixed(1)}%`;
  $('eval-text').textContent = text;
  bar.title = T('eval-bar-title', { title });
  bar.setAttribute('aria-label', T('eval-bar-label', { words, title }));
  bar.classList.toggle('flipped', S.flipped);
  bar.classList.toggle('proven', proven);
  bar.dataset.kind = proven ? 'proven' : unclear ? 'unclear' : 'estimate';
}

// ---------------------------------------------------------------- table values on the pits

// Inside the endgame tables (GET /api/games/{id}/tables) each playable pit shows the exact
// value of sowing it for the mover: a win, draw or loss colour and the margin. Drawn after
// every render; the answer for a game and ply is kept, so a redraw asks nothing again.
const TV = { key: null, answer: null, seq: 0 };

function tableValuesOn() {
  const box = $('tables-on');
  return !!box && box.checked;
}

function clearTableValues() {
  document.querySelectorAll('#board .table-value').forEach((e) => e.remove());
  document.body.dataset.tables = 'off';
}

// The label on pit i: the corner across from the seed count. Upright (a phone), on the side
// toward the other row: on the outer side it met the count of the pit below.
function drawTableValue(i, value) {
  const p = G.pits[i];
  const kind = value > 0 ? 'win' : value < 0 ? 'loss' : 'draw';
  const at = G.upright ? [p.centre.top ? -(R - 6) : R - 6, R - 6] : [-(R - 8), p.centre.top ? R - 8 : -(R - 8)];
  const g = el('g', { class: `table-value ${kind}`, transform: `translate(${at[0]},${at[1]})`, 'data-value': value }, p.group);
  el('rect', { x: -17, y: -12, width: 34, height: 24, rx: 6 }, g);
  const t = el('text', { y: 6 }, g);
  t.textContent = value > 0 ? `+${value}` : value < 0 ? `−${-value}` : '0';
  const title = el('title', {}, g);
  title.textContent = T('table-value', { pit: p.name, kind, margin: Math.abs(value) });
}

function showTableValues(v, answer) {
  clearTableValues();
  document.body.dataset.tables = answer.inside ? 'inside' : answer.building ? 'building' : answer.not_built ? 'not-built' : 'outside';
  // A set-up position between the layers built (by default only those play reaches).
  const seeds = v.state.pits.reduce((a, b) => a + b, 0);
  $('tables-on').parentElement.title = answer.not_built
    ? T('tables-not-built', { seeds }) : T.attr('tables-on-label', 'title');
  if (!answer.inside) return;
  for (const m of answer.moves) {
    if (m.move !== 'pass') drawTableValue(nameToPit(m.move, v.rules.pits), m.value);
  }
}

async function refreshTableValues() {
  const v = S.view;
  if (!v || !G || !tableValuesOn() || inLesson() || S.viewPly !== null || S.busy || v.state.over) { clearTableValues(); return; }
  const key = `${v.id}:${v.ply}:${v.state.to_move}:${v.state.pits.join(',')}`;
  if (TV.key === key && TV.answer && !TV.answer.building) { showTableValues(v, TV.answer); return; }
  const seq = ++TV.seq;
  let answer;
  try {
    answer = await api('GET', `/games/${v.id}/tables`);
  } catch (e) {
    return;
  }
  if (seq !== TV.seq || S.view !== v || S.viewPly !== null || S.busy) return;
  TV.key = key;
  TV.answer = answer;
  showTableValues(v, answer);
}

function initTableValues() {
  const box = $('tables-on');
  if (!box) return;
  box.checked = localStorage.getItem('sowing.tables') !== '0';
  box.addEventListener('change', () => {
    localStorage.setItem('sowing.tables', box.checked ? '1' : '0');
    refreshTableValues();
  });
}

// ---------------------------------------------------------------- actions

// Runs one action at a time; what it leaves in S.note stays on the status line until the
// next action.
async function run(action) {
  if (S.busy) return;
  S.busy = true;
  S.note = null;
  document.body.dataset.busy = '1';
  try {
    await action();
  } catch (e) {
    S.busy = false;
    S.note = { text: e.message, error: true };
    document.body.dataset.busy = '0';
    render();
    return;
  }
  S.busy = false;
  document.body.dataset.busy = '0';
  afterChange();
}

// Shows a move the server played: animated from the position before it, then the new view.
async function showMove(response, side, move, computer) {
  const before = S.view ? { pits: S.view.state.pits, captured: S.view.state.captured } : null;
  const game = S.view ? S.view.rules.game : null;
  S.hint = null;
  if (before && S.viewPly === null) {
    render();
    $('btn-skip').disabled = false;
    const reached = await animate(before, response.trace, sideName(side), computer);
    const after = { pits: response.game.state.pits, captured: response.game.state.captured };
    if (!sameBoard(reached, after)) {
      window.sowing.mismatches += 1;
      console.warn('animation reached', reached, 'server says', after);
    }
  }
  S.view = response.game;
  $('commentary').textContent = tellTurn(side, move, response.trace, game, response.game.ply);
}

// A move in words; when it continues its side's turn (an extra turn), the whole turn so far:
// "North’s turn: 8 moves (f, d, …), capturing 32 seeds. Last: North sowed a: …".
function tellTurn(side, move, trace, game, ply) {
  const taken = trace.filter((e) => e.kind === 'take' && e.why === 'capture').reduce((sum, e) => sum + e.seeds, 0);
  const t = S.turn, id = S.view && S.view.id;
  S.turn = t && t.id === id && t.side === side && t.ply === ply - 1 && t.again
    ? { id, side, ply, moves: [...t.moves, move], taken: t.taken + taken }
    : { id, side, ply, moves: [move], taken };
  S.turn.again = trace.some((e) => e.kind === 'extra-turn');
  const last = describeMove(side, move, trace, game);
  const { moves } = S.turn;
  if (moves.length === 1) return last;
  const shown = moves.length > 6 ? [...moves.slice(0, 5), '…', moves[moves.length - 1]] : moves;
  const seeds = S.turn.taken;
  return T('turn-told', { who: sideName(side), count: moves.length, moves: shown.join(', '), seeds, last });
}

function afterChange() {
  render();
  const v = S.view;
  if (!v) return;
  refreshEval();
  lessonCheck();
  if (S.viewPly === null && !v.state.over && isComputer(v.players[v.state.to_move])) {
    computerMove();
  } else {
    S.skipAll = false; // a person is to move: the next animation plays again
  }
}

function computerMove() {
  run(async () => {
    const v = S.view;
    const side = v.state.to_move;
    setStatus(T('status-thinking', { who: sideName(side), player: playerName(v.players[side]) }));
    const r = await api('POST', `/games/${v.id}/engine`, { play: true, time_ms: S.thinkMs, ply: v.ply });
    setStatus(T('status-plays', { who: sideName(side), move: moveName(r.engine.move) }));
    await showMove(r, side, r.engine.move, true);
  });
}

function clickPit(i) {
  const v = S.view;
  if (!v || S.busy || S.viewPly !== null || v.state.over) return;
  if (isComputer(v.players[v.state.to_move])) return;
  const name = letter(i, v.rules.pits);
  if (!v.state.legal.includes(name)) {
    setStatus(T('status-not-playable', { pit: name }), true);
    return;
  }
  playMove(name);
}

function playMove(name) {
  if (LIVE()) { LIVE().play(name); return; }
  run(async () => {
    const v = S.view;
    const side = v.state.to_move;
    S.skipAll = false;
    setStatus(T('status-plays', { who: sideName(side), move: moveName(name) }));
    const r = await api('POST', `/games/${v.id}/moves`, { move: name, ply: v.ply });
    await showMove(r, side, name, false);
  });
}

function undo() {
  run(async () => {
    let v = S.view;
    let r = await api('POST', `/games/${v.id}/undo`, { ply: v.ply });
    v = r.game;
    // Against the computer, take back its replies too: back to a person's turn.
    const someoneHuman = !isComputer(v.players.south) || !isComputer(v.players.north);
    while (someoneHuman && v.ply > 0 && isComputer(v.players[v.state.to_move])) {
      r = await api('POST', `/games/${v.id}/undo`, { ply: v.ply });
      v = r.game;
    }
    S.view = v;
    S.hint = null;
    S.viewPly = null;
    S.note = { text: T('taken-back', { ply: v.ply, who: sideName(v.state.to_move) }) };
  });
}

function redo() {
  run(async () => {
    const v = S.view;
    const side = v.state.to_move;
    const r = await api('POST', `/games/${v.id}/redo`, { ply: v.ply });
    await showMove(r, side, r.game.history[r.game.ply - 1].move, false);
  });
}

// A hint is for the live position: not while an earlier one is on screen.
function hint() {
  const v = S.view;
  if (!v || S.viewPly !== null || v.state.over) return;
  run(async () => {
    const r = await api('POST', `/games/${v.id}/engine`, { play: false, time_ms: S.thinkMs, ply: v.ply });
    S.hint = r.engine.move === 'pass' ? null : nameToPit(r.engine.move, v.rules.pits);
    S.note = { text: hintWords(r.engine.move, r.engine.score, v.state.to_move) };
  });
}

// Replays the move after the one looked at, animated, from the server's trace.
function stepForward() {
  const v = S.view;
  if (!v || S.viewPly === null) return;
  run(async () => {
    const from = S.viewPly;
    const r = await api('GET', `/games/${v.id}/moves/${from + 1}`);
    S.skipAll = false;
    render();
    const reached = await animate(r.before, r.trace, sideName(r.side), false);
    $('commentary').textContent = describeMove(r.side, r.move, r.trace, v.rules.game);
    if (!sameBoard(reached, r.after)) window.sowing.mismatches += 1;
    S.viewPly = from + 1 >= v.ply ? null : from + 1;
  });
}

function lookAt(ply) {
  const v = S.view;
  if (!v || S.busy) return;
  ply = Math.max(0, Math.min(v.ply, ply));
  S.viewPly = ply === v.ply ? null : ply;
  render();
  if (S.viewPly === null) afterChange();
}

async function load(id) {
  const v = await api('GET', `/games/${id}`);
  if (window.sowingLive) window.sowingLive.leave();
  if (L.on) leaveLearn();
  S.view = v;
  S.viewPly = null;
  S.hint = null;
  S.note = null;
  $('commentary').textContent = '';
  // A new entry in the browser's history, so that Back returns to the game before.
  // (The review's address, #game=ID&analysis, stays as it is.)
  const shown = /^#game=(\d+)/.exec(location.hash);
  if (!shown || Number(shown[1]) !== v.id) history.pushState(null, '', `#game=${v.id}`);
  localStorage.setItem('sowing.game', String(id));
  $('summary').hidden = true;
  afterChange();
  if (window.sowingAnalysis) window.sowingAnalysis.fromAddress();
}

function nextRound() {
  run(async () => {
    const v = await api('POST', `/matches/${S.view.match.id}/next`);
    S.view = v;
    S.viewPly = null;
    S.hint = null;
    $('commentary').textContent = '';
    history.pushState(null, '', `#game=${v.id}`);
    localStorage.setItem('sowing.game', String(v.id));
    S.note = { text: T('round-begins', { round: v.round, who: sideName(v.state.to_move) }) };
  });
}

// ---------------------------------------------------------------- new game, saved games, upload

function fillPlayers() {
  labelPlayers();
  $('f-north').value = 'level:3';
  for (const select of document.querySelectorAll('.player-select')) {
    select.addEventListener('change', () => { select.dataset.chosen = '1'; });
  }
}

// The players' and thinking times' names, in the language of the moment (the choices kept).
function labelPlayers() {
  for (const select of document.querySelectorAll('.player-select')) {
    const chosen = select.value;
    select.innerHTML = PLAYERS.map((spec) => `<option value="${spec}">${escapeHtml(T('player-option', playerArgs(spec)))}</option>`).join('');
    if (chosen) select.value = chosen;
  }
  for (const option of $('f-time').options) option.textContent = T('think-time', { seconds: Number(option.value) / 1000 });
}

// Until the reader chooses the players, they play the game's easier seat against the
// computer (South moves first, and in Hoyito that is the harder seat).
function seatNewcomer(easier) {
  const [mine, computer] = easier === 'north' ? ['f-north', 'f-south'] : ['f-south', 'f-north'];
  if ($(mine).dataset.chosen || $(computer).dataset.chosen) return;
  $(mine).value = 'human';
  $(computer).value = 'level:3';
}

// The game the form names: {game, pits (null for the usual board), match}.
function chosenGame() {
  const [game, extra] = $('f-game').value.split(':');
  return { game, pits: extra && extra !== 'match' ? Number(extra) : null, match: extra === 'match' };
}

// The rule options' words, by the server's field (GET /api/rules): the message's value is
// the option's name, `.about` what it decides, and one attribute per value. An option the
// catalogue does not know yet keeps the server's English.
const OPTION_MESSAGES = {
  casa_rows: { msg: 'option-casa-rows' }, leftover: { msg: 'option-leftover' }, final_four: { msg: 'option-final-four' },
};
const optionMsg = (o) => OPTION_MESSAGES[o.field] && OPTION_MESSAGES[o.field].msg;
const optionLabel = (o) => (optionMsg(o) ? T(optionMsg(o)) : o.label);
const optionAbout = (o) => (optionMsg(o) ? T.attr(optionMsg(o), 'about') : o.description);
function valueLabel(o, value) {
  const id = optionMsg(o);
  if (id && T.has(id, value)) return T.attr(id, value);
  return (o.values.find((x) => x.name === value) || { label: value }).label;
}

const gameInfo = (game) => RULES.games.find((g) => g.game === game);
const gameTitle = (game) => (gameInfo(game) || { title: game }).title;
const optionsOf = (game) => RULES.options.filter((o) => (gameInfo(game) || { options: [] }).options.includes(o.field));

// The new-game form from the server's description of the games: one entry per board (and
// per match, where a game has matches), one select per rule option.
async function buildGameForm() {
  RULES = await api('GET', '/rules');
  const before = $('f-south').closest('label');
  for (const o of RULES.options) {
    const label = document.createElement('label');
    label.dataset.option = o.field;
    // The option in words; the rule id only as a small reference.
    const name = document.createElement('span');
    name.className = 'option-name';
    label.append(name);
    const select = document.createElement('select');
    select.id = `f-option-${o.field}`;
    select.name = o.field;
    select.innerHTML = o.values.map((v) => `<option value="${v.name}"></option>`).join('');
    select.addEventListener('change', showFormFields);
    label.append(select);
    const about = document.createElement('small');
    about.className = 'option-about';
    label.append(about);
    before.before(label);
  }
  labelGameForm();
}

// The form's games and options in words, in the language of the moment.
function labelGameForm() {
  const entries = [];
  for (const g of RULES.games) {
    for (const pits of g.pits) {
      if (g.pits.length > 1) entries.push([`${g.game}:${pits}`, T('entry-board', { game: g.title, pits })]);
      else entries.push([g.game, g.match ? T('entry-single', { game: g.title }) : g.title]);
    }
    if (g.match) entries.push([`${g.game}:match`, T('entry-match', { game: g.title })]);
  }
  const chosen = $('f-game').value;
  $('f-game').innerHTML = entries.map(([v, t]) => `<option value="${v}">${escapeHtml(t)}</option>`).join('');
  if (chosen) $('f-game').value = chosen;
  for (const o of RULES.options) {
    const label = document.querySelector(`#new-form [data-option="${o.field}"]`);
    const name = label.querySelector('.option-name');
    name.textContent = optionLabel(o);
    const ref = document.createElement('small');
    ref.className = 'rule-ref';
    ref.textContent = T('rule-ref', { rule: o.rule });
    name.append(' ', ref);
    for (const option of label.querySelector('select').options) option.textContent = valueLabel(o, option.value);
    label.querySelector('.option-about').textContent = optionAbout(o);
  }
}

function showFormFields() {
  const { game, match } = chosenGame();
  const info = gameInfo(game);
  if (!info) return;
  $('f-rounds').closest('label').hidden = !match;
  if (info.match) {
    $('f-rounds').min = info.match.rounds[0];
    $('f-rounds').max = info.match.rounds[1];
  }
  for (const label of document.querySelectorAll('#new-form [data-option]')) {
    const field = label.dataset.option;
    label.hidden = !info.options.includes(field) || (match && info.match.decides.includes(field));
  }
  // The game in a few words, and which seat is harder, before it starts.
  const about = ABOUT[game];
  $('game-about').hidden = !about;
  if (about) {
    $('about-title').textContent = info.title;
    $('about-text').textContent = about.text();
    // The proven result only for the rules it was proven under.
    const { pits } = chosenGame();
    const solved = about.solved && !match && (pits || info.pits[0]) === about.solved.pits
      && Object.entries(about.solved.options).every(([field, value]) => $(`f-option-${field}`).value === value);
    $('about-seat').textContent = (solved ? about.solved.seat : (pits === 12 && about.seat12) || about.seat)();
    seatNewcomer(about.easier);

  }
}

// Where each seat sits on the board as this screen will draw it: bottom and top when the
// board lies flat, left and right when it stands upright (narrow screens), turned round
// when the board is flipped.
function seatLabels() {
  const [south, north] = NARROW.matches ? ['left', 'right'] : ['bottom', 'top']; // the catalogue's places
  const [s, n] = S.flipped ? [north, south] : [south, north];
  $('seat-south').textContent = T('seat-south', { place: s });
  $('seat-north').textContent = T('seat-north', { place: n });
}

function openNewGame() {
  $('new-error').textContent = '';
  showFormFields();
  seatLabels();
  const d = $('new-game');
  if (!d.open) d.showModal();
}

async function startGame(event) {
  event.preventDefault();
  const { game, pits, match } = chosenGame();
  const body = { game, south: $('f-south').value, north: $('f-north').value };
  if (pits) body.pits = pits;
  if (match) body.rounds = Number($('f-rounds').value);
  for (const label of document.querySelectorAll('#new-form [data-option]')) {
    if (!label.hidden) body[label.dataset.option] = label.querySelector('select').value;
  }
  S.thinkMs = Number($('f-time').value);
  localStorage.setItem('sowing.think', String(S.thinkMs));
  try {
    const v = await api('POST', '/games', body);
    $('new-game').close();
    await load(v.id);
  } catch (e) {
    $('new-error').textContent = e.message;
  }
}

// This browser's games: those its key owns (GET /api/games sends the key), and the live games
// it holds a seat in (their tokens are kept here). A live game opens as a live game, and has no
// Delete: it belongs to both seats.
async function openSaved() {
  const d = $('saved');
  const tbody = $('saved-body');
  tbody.innerHTML = `<tr><td colspan="8">${escapeHtml(T('loading'))}</td></tr>`;
  $('key-mine').value = playerKey();
  $('key-said').textContent = '';
  if (!d.open) d.showModal();
  try {
    const { games } = await api('GET', '/games?limit=200', undefined, {}, { once: true });
    const seats = liveSeatsHere();
    const listed = new Set(games.map((g) => g.id));
    const elsewhere = await Promise.all([...seats.keys()].filter((id) => !listed.has(id)).slice(0, 50)
      .map((id) => api('GET', `/live/${id}`, undefined, {}, { once: true }).then(liveSummary, () => null)));
    const all = [...games, ...elsewhere.filter(Boolean)].sort((a, b) => (a.updated < b.updated ? 1 : -1));
    tbody.innerHTML = all.length ? '' : `<tr><td colspan="8">${escapeHtml(T('no-games'))}</td></tr>`;
    for (const g of all) tbody.appendChild(savedRow(g, seats.get(g.id), d));
  } catch (e) {
    tbody.innerHTML = `<tr><td colspan="8" class="error">${escapeHtml(e.message)}</td></tr>`;
  }
}

// The live games this browser holds a seat in: id → seat token.
function liveSeatsHere() {
  const seats = new Map();
  for (let i = 0; i < localStorage.length; i++) {
    const m = /^sowing\.seat\.(\d+)$/.exec(localStorage.key(i));
    if (m) seats.set(Number(m[1]), localStorage.getItem(m[0]));
  }
  return seats;
}

// A live game's view (GET /api/live/{id}) as a line of the list.
function liveSummary({ live, game }) {
  const result = live.result;
  return {
    id: live.id, game: game.rules.game, pits: game.rules.pits, live: true, plies: game.ply,
    south: live.seats.south.name || 'human', north: live.seats.north.name || 'human',
    result: result && result.outcome !== 'none' ? result.outcome : null, termination: result ? result.text : null, closedWords: result ? liveEnd(result, game) : null,
    updated: new Date().toISOString().replace('T', ' ').slice(0, 19), match: null,
  };
}

function savedRow(g, seatToken, dialog) {
  const tr = document.createElement('tr');
  // A live game closed with no result has no winner but says why (termination).
  const over = !!(g.result || g.termination);
  const result = g.result ? T('saved-outcome', { winner: g.result })
    : g.termination ? g.closedWords || T('saved-closed') : T('saved-in-play');
  const name = T('saved-name', {
    game: gameTitle(g.game), pits: g.pits, live: g.live ? 'yes' : 'no', inMatch: g.match ? 'yes' : 'no',
    match: String(g.match || ''), round: g.round || 0,
  });
  const who = (player) => escapeHtml(g.live ? (player === 'human' ? T('a-person') : player) : playerName(player));
  tr.dataset.game = String(g.id);
  if (g.live) tr.dataset.live = '1';
  tr.innerHTML = `<td data-label="#">${g.id}</td><td data-label="${T.escaped('saved-game')}">${escapeHtml(name)}</td><td data-label="${T.escaped('saved-south')}">${who(g.south)}</td><td data-label="${T.escaped('saved-north')}">${who(g.north)}</td><td data-label="${T.escaped('saved-moves')}">${g.plies}</td><td data-label="${T.escaped('saved-result')}">${escapeHtml(result)}</td><td class="when" data-label="${T.escaped('saved-when')}">${escapeHtml(localTime(g.updated))}</td>
    <td class="row-buttons"><button type="button" class="open">${escapeHtml(T('saved-open', { over: over ? 'yes' : 'no' }))}</button>${
  window.sowingAnalysis && g.plies > 0 && (over || !g.live) ? `<button type="button" class="analyse">${escapeHtml(window.sowingAnalysis.savedLabel())}</button>` : ''}${
  g.match || g.live ? '' : `<button type="button" class="delete" title="${escapeHtml(T.attr('saved-delete', 'title'))}">${escapeHtml(T('saved-delete'))}</button>`}</td>`;
  tr.querySelector('.open').addEventListener('click', async () => {
    dialog.close();
    if (g.live) {
      location.hash = seatToken ? `#live=${g.id}&seat=${seatToken}` : `#live=${g.id}`;
      return;
    }
    await load(g.id);
    if (over) lookAt(0);
  });
  const analyse = tr.querySelector('.analyse');
  if (analyse) {
    analyse.addEventListener('click', async () => {
      dialog.close();
      if (g.live) {
        location.hash = `#game=${g.id}&analysis`;
        return;
      }
      await load(g.id);
      window.sowingAnalysis.open();
    });
  }
  const del = tr.querySelector('.delete');
  if (del) del.addEventListener('click', () => deleteGame(g.id, tr));
  return tr;
}

// Carrying the player key to another device: copy it here, paste it there.
function initKeyCarry() {
  $('key-copy').addEventListener('click', async () => {
    try { await navigator.clipboard.writeText(playerKey()); $('key-said').textContent = T('copied'); } catch (_) { $('key-mine').select(); }
  });
  $('key-use').addEventListener('click', () => {
    const key = $('key-other').value.trim().toLowerCase();
    if (!/^[0-9a-f]{32}$/.test(key)) {
      $('key-said').textContent = T('key-bad');
      return;
    }
    localStorage.setItem(PLAYER_KEY, key);
    $('key-other').value = '';
    openSaved();
    $('key-said').textContent = T('key-used');
  });
}

// The server's times are UTC ("2026-11-29 21:31:30"): shown in the reader's time, with its zone.
function localTime(utc) {
  const date = new Date(`${utc.replace(' ', 'T')}Z`);
  if (Number.isNaN(date.getTime())) return utc;
  return date.toLocaleString(I18N.locale, {
    year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'short',
  });
}

async function deleteGame(id, row) {
  if (!window.confirm(T('confirm-delete', { id: String(id) }))) return;
  try {
    await api('DELETE', `/games/${id}`);
    row.remove();
    if (S.view && S.view.id === id) {
      S.view = null;
      localStorage.removeItem('sowing.game');
      history.replaceState(null, '', location.pathname);
      renderEmpty();
    }
  } catch (e) {
    row.querySelector('.when').textContent = T('not-deleted', { error: e.message });
  }
}

async function upload(event) {
  const file = event.target.files[0];
  if (!file) return;
  const text = await file.text();
  event.target.value = '';
  try {
    const v = await api('POST', '/records', { record: text });
    await load(v.id);
    S.note = { text: T('record-loaded', { id: String(v.id) }) };
    render();
  } catch (e) {
    setStatus(T('record-unread', { error: e.message }), true);
  }
}

// ---------------------------------------------------------------- Learn

// Each game, rule by rule: a lesson is a set-up position (a position text, docs/
// notation.md; `tags`, the record's option tags it needs; `moves`, moves played before the
// lesson begins, for a rule that needs a history), a move that shows the rule, and what the
// reader should try. The positions and what their moves do are checked by the browser tests
// against the server.
const HOYITO_II = [
  {
    msg: 'lesson-h2-sowing-and-relays', rule: 'H2.1, H2.2, H2.3',
    start: 'hoyito-ii 1,0,2,0,2,0/0,0,1,2,1,1 0-0 S -', example: 'C', expect: 'C',
  },
  {
    msg: 'lesson-h2-a-casa', rule: 'H2.3, H2.4, H2.6',
    start: 'hoyito-ii 1,0,3,0,0,3/2,1,0,1,0,1 0-0 S -', example: 'C', expect: 'C',
  },
  {
    msg: 'lesson-h2-a-chain-of-casas', rule: 'H2.5',
    start: 'hoyito-ii 2,0,0,3,3,3/3,1,0,2,0,1 0-0 S -', example: 'D', expect: 'D',
  },
  {
    msg: 'lesson-h2-casas-on-the-opponents-row-only', rule: 'H2.5 (casa-rows)',
    start: 'hoyito-ii 2,0,0,3,3,3/3,1,0,2,0,1 0-0 S - casa-rows=opponent', tags: '[CasaRows "opponent"]', example: 'D', expect: 'D',
  },
  {
    msg: 'lesson-h2-the-last-four-and-the-end', rule: 'H2.7, C.4',
    start: 'hoyito-ii 0,1,3,0,0,0/2,0,0,0,0,2 0-0 S -', example: 'B', expect: 'B',
  },
  {
    msg: 'lesson-h2-passing', rule: 'C.2',
    start: 'hoyito-ii 0,0,0,0,0,0/1,2,0,3,0,2 0-0 S -', example: 'pass', expect: 'pass',
  },
  {
    msg: 'lesson-h2-an-endless-sowing-is-refused', rule: 'C.1',
    start: 'hoyito-ii 2,1,0,1,3,1/0,2,1,0,1,0 0-0 S -', example: null, expect: null,
  },
  {
    msg: 'lesson-h2-a-position-comes-back', rule: 'C.3, H2.8, H3.4, A.8',
    start: 'hoyito-ii 0,1,1,0,0,0/0,0,0,1,0,1 20-20 S -', moves: 'B d D f F', example: 'b', expect: 'b',
  },
];
const HOYITO_III = [
  {
    msg: 'lesson-h3-as-hoyito-ii', rule: 'H3',
    start: 'hoyito-iii 1,0,3,0,0,3/2,1,0,1,0,1 0-0 S -', example: 'C', expect: 'C',
  },
  {
    msg: 'lesson-h3-one-casa-at-a-time', rule: 'H3.1',
    start: 'hoyito-iii 2,0,0,3,3,3/3,1,0,2,0,1 0-0 S -', example: 'D', expect: 'D',
  },
  {
    msg: 'lesson-h3-the-last-four', rule: 'H3.2',
    start: 'hoyito-iii 0,1,3,0,0,0/2,0,0,0,0,2 0-0 S -', example: 'B', expect: 'B',
  },
  {
    msg: 'lesson-h3-the-last-four-in-a-match', rule: 'H3.3',
    start: 'hoyito-iii 0,1,3,0,0,0/2,0,0,0,0,2 0-0 S - final-four=north', tags: '[FinalFour "north"]', example: 'B', expect: 'B',
  },
];
const AYOAYO = [
  {
    msg: 'lesson-ayo-sowing-and-relays', rule: 'A.1, A.3',
    start: 'ayoayo 1,0,2,0,2,0/0,0,1,2,1,1 0-0 S -', example: 'C', expect: 'C',
  },
  {
    msg: 'lesson-ayo-capture', rule: 'A.4',
    start: 'ayoayo 0,1,0,1,2,0/2,1,1,3,0,1 0-0 S -', example: 'B', expect: 'B',
  },
  {
    msg: 'lesson-ayo-skipping-the-pit-you-lifted', rule: 'A.2',
    start: 'ayoayo 12,0,1,0,1,0/1,0,1,0,1,0 0-0 S -', example: 'A', expect: 'A',
  },
  {
    msg: 'lesson-ayo-feeding', rule: 'A.5',
    start: 'ayoayo 1,0,0,0,0,2/0,0,0,0,0,0 10-20 S N', example: 'F', expect: 'F',
  },
  {
    msg: 'lesson-ayo-passing', rule: 'A.6, C.2',
    start: 'ayoayo 0,0,0,0,0,0/0,0,1,0,0,2 22-23 S N', example: 'pass', expect: 'pass',
  },
  {
    msg: 'lesson-ayo-the-end', rule: 'A.7, C.4',
    start: 'ayoayo 0,0,0,0,0,1/0,1,0,0,0,0 10-10 S N', example: 'F', expect: 'F',
  },
  {
    msg: 'lesson-ayo-the-seeds-left-to-each-rows-owner', rule: 'A.7 (leftover)',
    start: 'ayoayo 0,0,0,0,0,1/1,0,0,0,0,0 23-23 S N leftover=holder', tags: '[Leftover "holder"]', example: 'F', expect: 'F',
  },
];
const LEARN = [['hoyito-ii', 'Hoyito II', HOYITO_II], ['hoyito-iii', 'Hoyito III', HOYITO_III], ['ayoayo', 'Ayoayo', AYOAYO]];
// A lesson's words: its message's `title`, `words` or `ask`.
function lessonText(variant, k, part) {
  const [, , lessons] = LEARN.find(([v]) => v === variant);
  return T.attr(lessons[k].msg, part);
}
let LESSONS = HOYITO_II;
const L = { on: false, k: 0, game: null, returnTo: null, trying: false, variant: 'hoyito-ii' };

// Whether the board shows a lesson's game.
function inLesson() {
  return L.on && !!S.view && S.view.id === L.game;
}
window.sowing.learn = LEARN;

function lessonSay(text, good) {
  $('lesson-say').textContent = text;
  $('lesson-say').classList.toggle('good', !!good);
}

function openLearn() {
  if (!L.on) {
    L.returnTo = S.view && S.view.id !== L.game ? S.view.id : L.returnTo;
    L.on = true;
  }
  $('learn').hidden = false;
  document.body.dataset.learn = '1';
  learnGame(L.variant, L.k);
}

// The lessons of one game.
function learnGame(variant, k) {
  const [, title, lessons] = LEARN.find(([v]) => v === variant);
  L.variant = variant;
  LESSONS = lessons;
  $('learn-games').innerHTML = LEARN.map(([v, t]) => `<button type="button" data-learn="${v}"${v === variant ? ' aria-current="page"' : ''}>${t}</button>`).join('');
  for (const b of $('learn-games').querySelectorAll('button')) b.addEventListener('click', () => learnGame(b.dataset.learn, 0));
  $('learn-title').textContent = T('learn-title', { game: title });
  $('lesson-list').innerHTML = LESSONS.map((l, n) => `<li><button type="button" data-lesson="${n}">${n + 1}. ${escapeHtml(T.attr(l.msg, 'title'))}</button></li>`).join('');
  for (const b of $('lesson-list').querySelectorAll('button')) b.addEventListener('click', () => showLesson(Number(b.dataset.lesson)));
  showLesson(Math.min(k, LESSONS.length - 1));
}

// Sets the lesson's position up as a game of its own (two people at this screen); the
// previous lesson's game is deleted.
function showLesson(k) {
  run(async () => {
    L.k = k;
    L.trying = false;
    const lesson = LESSONS[k];
    const old = L.game;
    const event = T('learn-event', { lesson: T.attr(lesson.msg, 'title') }).replace(/["\\]/g, '');
    const record = `[Game "${L.variant}"]\n${lesson.tags ? lesson.tags + '\n' : ''}[Event "${event}"]\n[Start "${lesson.start}"]\n\n${lesson.moves || ''} *`;
    const v = await api('POST', '/records', { record });
    L.game = v.id;
    localStorage.setItem(LESSON_GAME, String(v.id));
    if (old) await dropLessonGame(old);
    S.view = v;
    S.viewPly = null;
    S.hint = null;
    $('commentary').textContent = '';
    $('summary').hidden = true;
    showLessonWords();
    $('lesson-watch').hidden = !lesson.example;
    $('lesson-next').hidden = k + 1 >= LESSONS.length;
    for (const b of $('lesson-list').querySelectorAll('button')) {
      if (Number(b.dataset.lesson) === k) b.setAttribute('aria-current', 'step'); else b.removeAttribute('aria-current');
    }
    if (lesson.example) {
      lessonSay(T('lesson-press-watch'));
    } else {
      L.trying = true;
      lessonSay(T.attr(lesson.msg, 'ask'));
    }
    document.body.dataset.lesson = `${L.variant}:${k}`;
  });
}

// The lesson's title, words and rule, in the language of the moment.
function showLessonWords() {
  const lesson = LESSONS[L.k];
  $('lesson-title').textContent = `${L.k + 1}. ${T.attr(lesson.msg, 'title')}`;
  $('lesson-words').textContent = T.attr(lesson.msg, 'words');
  $('lesson-rule').textContent = T('rule-ref', { rule: lesson.rule });
}

// The moves a lesson plays before it begins.
const lessonPlies = (lesson) => (lesson.moves ? lesson.moves.split(' ').length : 0);

// Back to the lesson's start position (after its prepared moves).
async function lessonRewind() {
  let v = S.view;
  const from = lessonPlies(LESSONS[L.k]);
  while (v.ply > from) v = (await api('POST', `/games/${v.id}/undo`, { ply: v.ply })).game;
  S.view = v;
  S.viewPly = null;
  S.hint = null;
}

function lessonWatch() {
  const lesson = LESSONS[L.k];
  if (!lesson.example || !S.view || S.view.id !== L.game) return;
  run(async () => {
    L.trying = false;
    await lessonRewind();
    render();
    const v = S.view;
    lessonSay(T('lesson-watching'));
    S.skipAll = false;
    const r = await api('POST', `/games/${v.id}/moves`, { move: lesson.example, ply: v.ply });
    await showMove(r, v.state.to_move, lesson.example, false);
    lessonSay(T('lesson-watched'));
  });
}

function lessonTry() {
  if (!S.view || S.view.id !== L.game) return;
  run(async () => {
    await lessonRewind();
    $('commentary').textContent = '';
    L.trying = true;
    lessonSay(T.attr(LESSONS[L.k].msg, 'ask'));
  });
}

// After a move in a lesson: was it the one asked for?
function lessonCheck() {
  if (!L.on || !L.trying || !S.view || S.view.id !== L.game) return;
  const lesson = LESSONS[L.k];
  const from = lessonPlies(lesson);
  if (S.view.ply <= from) return;
  L.trying = false;
  const played = S.view.history[from].move;
  const last = L.k + 1 < LESSONS.length ? 'no' : 'yes';
  if (!lesson.expect) lessonSay(T('lesson-played', { move: moveName(played), last }), true);
  else if (played === lesson.expect) lessonSay(T('lesson-well-done', { last }), true);
  else lessonSay(T('lesson-not-that', { move: moveName(played), expected: moveName(lesson.expect) }));
}

// Another game opened during a lesson: the lesson and its game go.
function leaveLearn() {
  if (L.game) dropLessonGame(L.game);
  L.on = false;
  L.game = null;
  L.trying = false;
  $('learn').hidden = true;
  delete document.body.dataset.learn;
  delete document.body.dataset.lesson;
}

// A lesson's game is scaffolding, not a saved game: deleted when the lesson ends, when the
// tab closes (a request that outlives the page), or, failing both, at the next visit.
const LESSON_GAME = 'sowing.lesson';

async function dropLessonGame(id) {
  await api('DELETE', `/games/${id}`).catch(() => {});
  if (localStorage.getItem(LESSON_GAME) === String(id)) localStorage.removeItem(LESSON_GAME);
}

window.addEventListener('pagehide', () => {
  if (L.game) fetch(`/api/games/${L.game}`, { method: 'DELETE', keepalive: true, headers: apiHeaders() });
});

function closeLearn() {
  const lessonGame = L.game;
  L.on = false;
  L.game = null;
  L.trying = false;
  $('learn').hidden = true;
  delete document.body.dataset.learn;
  delete document.body.dataset.lesson;
  run(async () => {
    if (lessonGame) await dropLessonGame(lessonGame);
    S.view = null;
    if (L.returnTo) {
      const v = await api('GET', `/games/${L.returnTo}`).catch(() => null);
      S.view = v;
    }
    S.viewPly = null;
    S.hint = null;
    $('commentary').textContent = '';
    if (!S.view) renderEmpty();
  });
}

// ---------------------------------------------------------------- keyboard

function onKey(e) {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const tag = (e.target.tagName || '').toLowerCase();
  if (['input', 'select', 'textarea'].includes(tag) || document.querySelector('dialog[open]')) return;
  const v = S.view;
  if (e.key === ' ' && document.body.dataset.animating === '1') { e.preventDefault(); skipAnimation(); return; }
  if (e.key === 'n') { e.preventDefault(); openNewGame(); return; }
  if (!v) return;
  if (e.key === 'ArrowLeft') { e.preventDefault(); lookAt((S.viewPly === null ? v.ply : S.viewPly) - 1); return; }
  if (e.key === 'ArrowRight') { e.preventDefault(); lookAt((S.viewPly === null ? v.ply : S.viewPly) + 1); return; }
  if (e.key === 'Home') { e.preventDefault(); lookAt(0); return; }
  if (e.key === 'End') { e.preventDefault(); lookAt(v.ply); return; }
  if (e.key === 'u') { undo(); return; }
  if (e.key === 'r') { redo(); return; }
  if (e.key === 't') { flip(); return; }
  if (e.key === '?') { hint(); return; }
  if (e.key === 'p' && v.state.legal.includes('pass')) { playPass(); return; }
  if (/^[a-lA-L]$/.test(e.key) && S.viewPly === null && !S.busy) {
    const name = v.state.legal.find((m) => m.toLowerCase() === e.key.toLowerCase());
    if (name) { e.preventDefault(); clickPit(nameToPit(name, v.rules.pits)); }
  }
}

function playPass() {
  const v = S.view;
  if (!v || S.busy || isComputer(v.players[v.state.to_move])) return;
  playMove('pass');
}

// The game the address names (#game=N), when the address bar or Back/Forward changes it.
function followAddress() {
  if (window.sowingLive && window.sowingLive.fromAddress()) return;
  const m = /#game=(\d+)/.exec(location.hash);
  if (m && S.view && S.view.id === Number(m[1]) && window.sowingAnalysis) window.sowingAnalysis.fromAddress();
  if (!m || (S.view && S.view.id === Number(m[1]))) return;
  if (S.busy) { setTimeout(followAddress, 100); return; }
  load(Number(m[1])).catch((e) => {
    // The board and title must not go on showing the game before as if it were this one.
    S.view = null;
    renderEmpty();
    setStatus(T('game-not-opened', { id: m[1], error: e.message }), true);
  });
}

function flip() {
  if (!S.view) return;
  S.flipped = !S.flipped;
  localStorage.setItem('sowing.flipped', S.flipped ? '1' : '0');
  render();
  refreshEval();
}

// ---------------------------------------------------------------- start

// The language changed (i18n.js): everything the page wrote in words is written again.
function relabel() {
  labelPlayers();
  if (RULES.games.length) labelGameForm();
  seatLabels();
  if ($('new-game').open) showFormFields();
  if (L.on) {
    $('learn-title').textContent = T('learn-title', { game: LEARN.find(([v]) => v === L.variant)[1] });
    for (const b of $('lesson-list').querySelectorAll('button')) {
      const k = Number(b.dataset.lesson);
      b.textContent = `${k + 1}. ${T.attr(LESSONS[k].msg, 'title')}`;
    }
    showLessonWords();
  }
  G = null; // the board's labels (the stores') are drawn with it
  if (S.view) { render(); refreshEval(); } else renderEmpty();
}

async function init() {
  await I18N.ready;
  I18N.changed.push(relabel);
  fillPlayers();
  try {
    await buildGameForm();
  } catch (e) {
    $('new-error').textContent = T('games-not-loaded', { error: e.message });
  }
  S.thinkMs = Number(localStorage.getItem('sowing.think')) || 1000;
  S.flipped = localStorage.getItem('sowing.flipped') === '1';
  $('f-game').addEventListener('change', showFormFields);
  $('new-form').addEventListener('submit', (e) => {
    if (e.submitter && e.submitter.value === 'cancel') return;
    startGame(e);
  });
  $('btn-new').addEventListener('click', openNewGame);
  $('btn-learn').addEventListener('click', openLearn);
  $('lesson-close').addEventListener('click', closeLearn);
  $('lesson-watch').addEventListener('click', lessonWatch);
  $('lesson-try').addEventListener('click', lessonTry);
  $('lesson-next').addEventListener('click', () => showLesson(L.k + 1));
  $('about-learn').addEventListener('click', () => {
    const { game } = chosenGame();
    $('new-game').close();
    L.variant = game;
    L.k = 0;
    openLearn();
  });
  $('btn-saved').addEventListener('click', openSaved);
  initKeyCarry();
  $('upload').addEventListener('change', upload);
  $('btn-undo').addEventListener('click', undo);
  $('btn-redo').addEventListener('click', redo);
  $('btn-pass').addEventListener('click', playPass);
  $('btn-hint').addEventListener('click', hint);
  $('btn-flip').addEventListener('click', flip);
  $('btn-skip').addEventListener('click', skipAnimation);
  $('btn-live').addEventListener('click', () => lookAt(S.view.ply));
  $('btn-step').addEventListener('click', stepForward);
  $('eval-on').addEventListener('change', () => {
    localStorage.setItem('sowing.eval', $('eval-on').checked ? '1' : '0');
    refreshEval();
  });
  $('eval-on').checked = localStorage.getItem('sowing.eval') !== '0';
  initTableValues();
  const speed = localStorage.getItem('sowing.speed');
  if (speed) $('speed').value = speed;
  $('speed').addEventListener('change', () => localStorage.setItem('sowing.speed', $('speed').value));
  document.addEventListener('keydown', onKey);
  window.addEventListener('hashchange', followAddress);
  window.addEventListener('popstate', followAddress);
  NARROW.addEventListener('change', () => { G = null; render(); seatLabels(); });
  renderEmpty();
  const leftover = localStorage.getItem(LESSON_GAME);
  if (leftover) dropLessonGame(Number(leftover));

  if (window.sowingLive && window.sowingLive.fromAddress()) return;
  const fromHash = /#game=(\d+)/.exec(location.hash);
  const id = fromHash ? fromHash[1] : localStorage.getItem('sowing.game');
  if (id) {
    load(id).catch((e) => {
      localStorage.removeItem('sowing.game');
      openNewGame();
      // A link to a game that is gone says so, rather than opening the dialog silently.
      if (fromHash) $('new-error').textContent = T('game-gone', { id: String(id), error: e.message.replace(/\.$/, '') });
    });
  } else {
    openNewGame();
  }
}

document.addEventListener('DOMContentLoaded', init);
