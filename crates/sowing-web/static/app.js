// The sowing page: plain JavaScript over the JSON API (docs/api.md), the board drawn in SVG.
// Every change goes through the server; the page only draws and animates what it answers.
'use strict';

const SVG = 'http://www.w3.org/2000/svg';
const PLAYERS = [
  ['human', 'Person at this screen'],
  ['level:1', 'Computer, level 1'], ['level:2', 'Computer, level 2'],
  ['level:3', 'Computer, level 3'], ['level:4', 'Computer, level 4'],
  ['level:5', 'Computer, level 5'], ['level:6', 'Computer, level 6'],
  ['greedy', 'Computer, greedy'], ['random', 'Computer, random'],
];
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
// options show the estimate.
const ABOUT = {
  'hoyito-ii': {
    text: 'Two rows of pits, four seeds in each. Take all the seeds of one of your pits and sow them one by one to the right, round the board. Where the last seed lands decides: a pit of exactly four is a casa — you take it (and the fours just behind it), and move again; an empty pit ends your move; any other pit is picked up and sown on (a relay). Most seeds taken wins.',
    seat: 'South moves first, and that is the harder seat: with best play the start is worth about 25 seeds to North.',
    seat12: 'South moves first, and that is the harder seat: a deep search (20 million positions) values the 2×12 start at about 55 seeds to North.',
    solved: { pits: 6, options: { casa_rows: 'any' }, seat: 'South moves first, and that is the harder seat — solved: with best play North wins by 28 seeds.' },
    easier: 'north',
  },
  'hoyito-iii': {
    text: 'Hoyito II with two changes: a casa takes only the pit where the last seed landed (no chain), and the last four seeds go to whoever takes the four before them — or, in a match, to the previous round’s winner.',
    seat: 'South moves first, and that is the harder seat: with best play the start is worth about 31 seeds to North. In a match the starter alternates.',
    solved: { pits: 6, options: { casa_rows: 'any', final_four: 'capturer' }, seat: 'South moves first, and that is the harder seat — solved: with best play North wins by 36 seeds.' },
    easier: 'north',
  },
  ayoayo: {
    text: 'Two rows of pits and a store for each player. Sow from one of your pits, skipping the pit you lifted; a lap that ends in an occupied pit is picked up and sown on. When the last seed lands in an empty pit of your own row, you capture it and the seeds across from it. If your opponent’s row is empty you must give them seeds. Most seeds in your store wins.',
    seat: 'South moves first, and that is the easier seat: North’s is the harder. A deep search from the start position values it at about 7 seeds to South.',
    solved: { pits: 6, options: { leftover: 'last-mover' }, seat: 'South moves first, and that is the easier seat: North’s is the harder — solved: with best play South wins by 8 seeds.' },
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
      if (!safe || once) throw new Error('The server cannot be reached: is sow serve still running? Try again once it is.');
      offline(true);
      await sleep(Math.min(8000, 1000 * 2 ** Math.min(attempt, 3)));
    }
  }
  offline(false);
  let data = null;
  try { data = await response.json(); } catch (_) { /* not JSON */ }
  if (!response.ok) {
    const error = new Error((data && data.error) || `${response.status} ${response.statusText}`);
    error.status = response.status;
    throw error;
  }
  return data;
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
    label.textContent = ayoayo ? `${side === 'south' ? 'South' : 'North'} store` : `${side === 'south' ? 'South' : 'North'} took`;
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
      p.group.setAttribute('aria-label', `Pit ${p.name}, ${count} seeds: play it`);
      p.group.removeAttribute('aria-disabled');
    } else {
      p.group.removeAttribute('tabindex');
      p.group.setAttribute('aria-label', `Pit ${p.name}, ${count} seeds`);
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
        say(ev.relay ? `Lap ${laps}: relay — lift ${ev.seeds} from ${ev.name}` : `${mover} lifts ${ev.seeds} from ${ev.name}`);
        if (!S.skipAll) { flash(ev.pit, ev.relay ? 'relay' : 'lift'); moveHand(ev.pit, hand); }
        wait = ms * 2;
        break;
      case 'drop':
        pits[ev.pit] += 1;
        hand -= 1;
        if (!S.skipAll) { flash(ev.pit, 'drop'); moveHand(ev.pit, hand); }
        break;
      case 'skip':
        say(`Lap ${laps}: skips ${ev.name}, the pit it was lifted from`);
        if (!S.skipAll) flash(ev.pit, 'skip');
        break;
      case 'take': {
        pits[ev.pit] -= ev.seeds;
        captured[ev.by === 'south' ? 0 : 1] += ev.seeds;
        const why = { capture: 'captures', 'last-four': 'takes the last four from', leftover: 'takes the seeds left in' }[ev.why] || 'takes';
        say(`${cap(ev.by)} ${why} ${ev.seeds} ${ev.why === 'capture' ? 'from ' : ''}${ev.name}`.replace('  ', ' '));
        if (!S.skipAll) { flash(ev.pit, 'take'); flash(ev.by, 'take'); }
        wait = ms * 3;
        break;
      }
      case 'extra-turn':
        say(`${mover} captured: another turn`);
        wait = ms * 3;
        break;
      case 'pass':
        say(`${mover} has no move and passes`);
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

const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);
// Text made safe to put into innerHTML (players' names come from strangers).
const escapeHtml = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const isComputer = (spec) => spec && spec !== 'human';

function playerName(spec) {
  if (!isComputer(spec)) return 'person';
  const m = /^level:(\d)$/.exec(spec);
  return m ? `computer, level ${m[1]}` : `computer, ${spec}`;
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
  let title = `${gameTitle(v.rules.game)} 2×${n}`;
  if (v.match) title += ` — match, round ${v.round} of ${v.match.rounds}`;
  const opts = [];
  for (const o of optionsOf(v.rules.game)) {
    const value = v.rules[o.field];
    if (value !== o.default) opts.push(`${o.label.toLowerCase()}: ${(o.values.find((x) => x.name === value) || { label: value }).label}`);
  }
  $('title').textContent = L.on && v.id === L.game
    ? `Learn: ${LESSONS[L.k].title} — the board is yours to try`
    : `${title}${opts.length ? ' (' + opts.join(', ') + ')' : ''} · game ${v.id}`;
  const label = (side) => {
    const k = side === 'south' ? 0 : 1;
    const turn = !v.state.over && pos.to_move === side ? ' ◀ to move' : '';
    return `<b>${cap(side)}</b> — ${playerName(v.players[side])} · captured <b>${pos.captured[k]}</b>${turn}`;
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
    if (v.state.over) setStatus(`Game over: ${resultText(v)}.`);
    else if (!live) setStatus(`${cap(v.state.to_move)} is to move in the game.`);
    else if (isComputer(v.players[v.state.to_move])) setStatus(`${cap(v.state.to_move)} (${playerName(v.players[v.state.to_move])}) to move.`);
    else if (v.state.legal.length === 1 && v.state.legal[0] === 'pass') setStatus(`${cap(v.state.to_move)} has no sowing move and must pass.`);
    else setStatus(`${cap(v.state.to_move)} to move: click a marked pit or type its letter.`);
  }

  $('viewing').hidden = live;
  if (!live) $('viewing-text').textContent = ply === 0 ? 'Looking at the start.' : `Looking at the position after move ${ply} (${v.history[ply - 1].side} ${v.history[ply - 1].move}).`;
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
  $('title').textContent = 'No game open: start a new game, or open a saved one.';
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

// "North wins, 30–18 — …": the winner's seeds first.
function resultText(v) {
  const [south, north] = v.state.captured;
  const who = v.state.winner === 'draw' ? 'a draw' : `${cap(v.state.winner)} wins`;
  const score = v.state.winner === 'north' ? `${north}–${south}` : `${south}–${north}`;
  const why = v.end ? v.end.text.replace(/\b(south|north)\b/g, cap) : '';
  return `${who}, ${score}${why ? ' — ' + why : ''}`;
}

// "48 moves in 40 turns": a turn is a side's moves in a row, as the moves list numbers them.
function movesAndTurns(v) {
  let turns = 0, last = null;
  for (const h of v.history) {
    if (h.side !== last) turns += 1;
    last = h.side;
  }
  const moves = `${v.ply} ${plural(v.ply, 'move', 'moves')}`;
  return turns === v.ply ? moves : `${moves} in ${turns} ${plural(turns, 'turn', 'turns')}`;
}

function renderMoves(v, ply) {
  const list = $('moves');
  list.innerHTML = '';
  const start = document.createElement('li');
  start.innerHTML = `<button type="button" data-ply="0">start</button>`;
  list.appendChild(start);
  // One entry per turn (a side's moves in a row, extra turns included), numbered.
  let item = null, lastSide = null, turn = 0;
  v.history.forEach((h) => {
    if (h.side !== lastSide || !item) {
      turn += 1;
      item = document.createElement('li');
      item.className = `turn ${h.side}`;
      item.innerHTML = `<span class="num">${turn}.</span><span class="side" title="${cap(h.side)}">${h.side === 'south' ? 'S' : 'N'}</span>`;
      list.appendChild(item);
      lastSide = h.side;
    }
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.ply = String(h.ply);
    b.textContent = h.move;
    b.title = `Move ${h.ply}: ${h.side} ${h.move}`;
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
  const headline = v.state.winner === 'draw' ? 'A draw' : `${cap(v.state.winner)} wins`;
  const reasons = {
    'last-four': `a capture left exactly four seeds, and ${v.end && v.end.to ? cap(v.end.to) : 'the capturer'} took them`,
    'board-cleared': 'a capture cleared the board',
    'cannot-feed': `the player to move could not feed the empty row, so ${v.rules.leftover === 'holder'
      ? 'each seed left went to the owner of its row' : 'the seeds left went to the last player who sowed'}`,
    repetition: 'a position recurred, so the seeds on the board go to nobody',
  };
  // In a match, the next round is the main action; a new game would leave the match.
  const m = v.match;
  const next = m && !m.winner && m.next_round_ready
    ? `<button type="button" id="btn-next-round" class="primary">Start round ${m.rows.length + 1} of ${m.rounds}</button>` : '';
  const side = (name, k, seeds) => `<div class="side${v.state.winner === name ? ' won' : ''}"><span class="name">${cap(name)}</span>
    <span class="score">${seeds}</span><span class="who">${escapeHtml(LIVE() ? LIVE().playerLabel(name) : playerName(v.players[name]))}</span></div>`;
  box.innerHTML = `<div class="head"><h2>${headline}</h2><div class="final">${side('south', 0, south)}<span class="dash">–</span>${side('north', 1, north)}</div></div>
    <p class="why">The game ended because ${v.end ? reasons[v.end.reason] || v.end.text : 'it is over'} (after ${movesAndTurns(v)}).</p>
    <p class="summary-buttons">${next}<button type="button" id="btn-again"${next ? '' : ' class="primary"'}>${m && !m.winner ? 'New game (leaves the match)' : 'New game'}</button>
    ${window.sowingAnalysis ? window.sowingAnalysis.summaryButton() : ''}
    <button type="button" id="btn-review">Replay from the start</button>
    <a class="button" href="/api/games/${v.id}/record" download>Download record</a></p>`;
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
    <td><button type="button" data-game="${r.game}">${r.round}</button></td><td>${cap(r.starter)}</td><td>${r.final_four}</td>
    <td>${r.captured[0]}</td><td>${r.captured[1]}</td><td>${r.winner ? cap(r.winner) : '…'}</td></tr>`).join('');
  let footer = '';
  if (m.winner) footer = `<p class="match-result"><b>Match over: ${m.winner === 'draw' ? 'a draw' : cap(m.winner) + ' wins the match'}</b> (rounds ${m.wins[0]}–${m.wins[1]}, seeds ${m.seeds[0]}–${m.seeds[1]}).</p>`;
  else if (m.next_round_ready) footer = `<p>Round ${m.rows.length + 1} is ready: start it from the summary above.</p>`;
  box.innerHTML = `<h2>Match: ${m.rounds} rounds</h2>
    <table class="score"><thead><tr><th>Round</th><th>Starts</th><th>Last four</th><th>South</th><th>North</th><th>Winner</th></tr></thead>
    <tbody>${rows}</tbody>
    <tfoot><tr><th colspan="3">Rounds won ${m.wins[0]}–${m.wins[1]}</th><th>${m.seeds[0]}</th><th>${m.seeds[1]}</th><th></th></tr></tfoot></table>${footer}`;
  for (const b of box.querySelectorAll('button[data-game]')) b.addEventListener('click', () => load(Number(b.dataset.game)));
}

// ---------------------------------------------------------------- words for people

const plural = (k, one, many) => (k === 1 ? one : many);
const listed = (names) => (names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`);
const times = (k) => (k === 1 ? 'once' : k === 2 ? 'twice' : `${k} times`);

// What a move did, in a sentence: "North sowed c: it relayed twice and made a casa at E —
// North takes 4 and moves again."
function describeMove(side, move, trace, game) {
  const who = cap(side);
  if (move === 'pass') return `${who} had no sowing move and passed.`;
  const relays = trace.filter((e) => e.kind === 'lift' && e.relay).length;
  const captures = trace.filter((e) => e.kind === 'take' && e.why === 'capture');
  const lastFour = trace.find((e) => e.kind === 'take' && e.why === 'last-four');
  const left = trace.filter((e) => e.kind === 'take' && e.why === 'leftover');
  const again = trace.some((e) => e.kind === 'extra-turn');
  const skipped = [...new Set(trace.filter((e) => e.kind === 'skip').map((e) => e.name))];
  const did = [];
  if (skipped.length) did.push(`skipped ${listed(skipped)}`);
  if (relays) did.push(`relayed ${times(relays)}`);
  const at = listed(captures.map((e) => e.name));
  if (captures.length && game === 'ayoayo') {
    // The capturing seed's pit is in the mover's row, the seeds across in the other.
    const mine = (e) => (side === 'south') === (e.name === e.name.toUpperCase());
    const end = captures.find(mine);
    const across = captures.filter((e) => !mine(e));
    const seeds = across.reduce((sum, e) => sum + e.seeds, 0);
    did.push(`ended in the empty ${end ? end.name : 'pit'}, capturing the ${seeds} ${plural(seeds, 'seed', 'seeds')} across in ${listed(across.map((e) => e.name))}`);
  } else if (captures.length === 1) did.push(`made a casa at ${at}`);
  else if (captures.length) did.push(`made a chain of casas at ${at}`);
  else did.push('ended in an empty pit');
  let text = `${who} sowed ${move}: it ${listed(did)}`;
  const then = [];
  const taken = captures.reduce((sum, e) => sum + e.seeds, 0);
  if (taken) then.push(`${who} takes ${taken}${again ? ' and moves again' : ''}`);
  else if (again) then.push(`${who} moves again`);
  if (lastFour) then.push(`${cap(lastFour.by)} takes the last four`);
  for (const by of ['south', 'north']) {
    const seeds = left.filter((e) => e.by === by).reduce((sum, e) => sum + e.seeds, 0);
    if (seeds) then.push(`${cap(by)} takes the ${seeds} ${plural(seeds, 'seed', 'seeds')} left`);
  }
  if (then.length) text += ` — ${then.join('; ')}`;
  return `${text}.`;
}

// An engine's score in words, for `side`: {kind, south} as the API gives it.
function scoreWords(score) {
  const s = score.south;
  if (score.kind === 'proven') {
    if (s === 0) return 'a draw with best play';
    return `${s > 0 ? 'South' : 'North'} wins by ${Math.abs(s)} with best play`;
  }
  const r = Math.round(Math.abs(s));
  if (r === 0) return 'about level';
  return `${s > 0 ? 'South' : 'North'} is about ${r} ${plural(r, 'seed', 'seeds')} ahead`;
}

// The hint, for the person to move: "Best: A — you stay about 26 seeds behind".
function hintWords(move, score, mover) {
  const best = move === 'pass' ? 'Best: pass' : `Best: ${move}`;
  if (!score) return `${best}.`;
  const v = mover === 'south' ? score.south : -score.south;
  if (score.kind === 'proven') {
    if (v === 0) return `${best} — a draw with best play.`;
    return `${best} — you ${v > 0 ? 'win' : 'lose'} by ${Math.abs(v)} with best play.`;
  }
  const r = Math.round(Math.abs(v));
  if (r === 0) return `${best} — the game stays about level.`;
  return `${best} — you stay about ${r} ${plural(r, 'seed', 'seeds')} ${v > 0 ? 'ahead' : 'behind'}.`;
}

// The number shown in the bar: whole seeds, with a real minus sign.
const barNumber = (s) => (Math.round(s) === 0 ? '0' : `${s > 0 ? '+' : '−'}${Math.abs(Math.round(s))}`);

Object.assign(window.sowing, { describeMove, tellTurn, resultText, movesAndTurns, scoreWords, hintWords, barNumber });

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
    title = 'final result';
    words = south === 0 ? 'The game ended in a draw.' : `${south > 0 ? 'South' : 'North'} won by ${Math.abs(south)}.`;
  } else {
    try {
      const r = await api('POST', `/games/${v.id}/engine`, { time_ms: 300, ply: v.ply, engine: EVAL_ENGINE });
      if (seq !== S.evalSeq) return;
      const shallow = r.engine.score && r.engine.score.kind !== 'proven' && (r.engine.depth || 0) < EVAL_MIN_DEPTH;
      if (shallow) {
        south = 0;
        unclear = true;
        words = 'Unclear: the computer has not yet looked far enough ahead to judge this position.';
        title = `${r.engine.engine} reached depth ${r.engine.depth || 0} only (a value needs ${EVAL_MIN_DEPTH})`;
      } else if (r.engine.score) {
        south = r.engine.score.south;
        proven = r.engine.score.kind === 'proven';
        words = `${cap(scoreWords(r.engine.score))}.`;
        title = `${r.engine.engine}: ${r.engine.score.text} for ${v.state.to_move}${r.engine.depth ? `, depth ${r.engine.depth}` : ''}`;
      } else {
        south = v.state.captured[0] - v.state.captured[1];
        title = `${r.engine.engine} gives no evaluation; the bar shows the captures`;
        words = 'No evaluation: the bar shows the seeds taken so far.';
      }
    } catch (e) {
      if (seq !== S.evalSeq) return;
      south = v.state.captured[0] - v.state.captured[1];
      title = `no evaluation (${e.message}); the bar shows the captures`;
      words = 'No evaluation now: the bar shows the seeds taken so far.';
    }
  }
  const text = unclear ? '?' : barNumber(south);
  $('eval-words').textContent = words;
  const share = 0.5 + 0.5 * Math.tanh(south / 8);
  $('eval-south').style.height = `${(share * 100).toFixed(1)}%`;
  $('eval-north').style.height = `${((1 - share) * 100).toFixed(1)}%`;
  $('eval-text').textContent = text;
  bar.title = `Evaluation, South's point of view: ${title}`;
  bar.setAttribute('aria-label', `Evaluation: ${words} (${title})`);
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
  title.textContent = `${p.name}: ${kind === 'draw' ? 'a draw' : `${kind === 'win' ? 'wins' : 'loses'} by ${Math.abs(value)}`} with perfect play`;
}

function showTableValues(v, answer) {
  clearTableValues();
  document.body.dataset.tables = answer.inside ? 'inside' : answer.building ? 'building' : answer.not_built ? 'not-built' : 'outside';
  // A set-up position between the layers built (by default only those play reaches).
  const seeds = v.state.pits.reduce((a, b) => a + b, 0);
  $('tables-on').parentElement.title = answer.not_built
    ? `The endgame tables do not hold the layer of ${seeds} seeds on the board (only those play from the start reaches are built by default): add it with sow tables build --layer ${seeds}`
    : 'Inside the endgame tables, each playable pit shows the exact value of sowing it';
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
    const reached = await animate(before, response.trace, cap(side), computer);
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
  return `${cap(side)}’s turn: ${moves.length} moves (${shown.join(', ')})${seeds ? `, capturing ${seeds} ${plural(seeds, 'seed', 'seeds')}` : ''}. Last: ${last}`;
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
    setStatus(`${cap(side)} (${playerName(v.players[side])}) is thinking…`);
    const r = await api('POST', `/games/${v.id}/engine`, { play: true, time_ms: S.thinkMs, ply: v.ply });
    setStatus(`${cap(side)} plays ${r.engine.move}.`);
    await showMove(r, side, r.engine.move, true);
  });
}

function clickPit(i) {
  const v = S.view;
  if (!v || S.busy || S.viewPly !== null || v.state.over) return;
  if (isComputer(v.players[v.state.to_move])) return;
  const name = letter(i, v.rules.pits);
  if (!v.state.legal.includes(name)) {
    setStatus(`${name} cannot be played now: choose a marked pit.`, true);
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
    setStatus(`${cap(side)} plays ${name}.`);
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
    S.note = { text: `Taken back to move ${v.ply}: ${cap(v.state.to_move)} to move.` };
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
    const reached = await animate(r.before, r.trace, cap(r.side), false);
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
    S.note = { text: `Round ${v.round} begins: ${cap(v.state.to_move)} starts.` };
  });
}

// ---------------------------------------------------------------- new game, saved games, upload

function fillPlayers() {
  for (const select of document.querySelectorAll('.player-select')) {
    select.innerHTML = PLAYERS.map(([v, t]) => `<option value="${v}">${t}</option>`).join('');
  }
  $('f-north').value = 'level:3';
  for (const select of document.querySelectorAll('.player-select')) {
    select.addEventListener('change', () => { select.dataset.chosen = '1'; });
  }
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

const gameInfo = (game) => RULES.games.find((g) => g.game === game);
const gameTitle = (game) => (gameInfo(game) || { title: game }).title;
const optionsOf = (game) => RULES.options.filter((o) => (gameInfo(game) || { options: [] }).options.includes(o.field));

// The new-game form from the server's description of the games: one entry per board (and
// per match, where a game has matches), one select per rule option.
async function buildGameForm() {
  RULES = await api('GET', '/rules');
  const entries = [];
  for (const g of RULES.games) {
    for (const pits of g.pits) {
      if (g.pits.length > 1) entries.push([`${g.game}:${pits}`, `${g.title} (2×${pits})`]);
      else entries.push([g.game, g.match ? `${g.title}, single game` : g.title]);
    }
    if (g.match) entries.push([`${g.game}:match`, `${g.title}, match of rounds`]);
  }
  $('f-game').innerHTML = entries.map(([v, t]) => `<option value="${v}">${t}</option>`).join('');
  const before = $('f-south').closest('label');
  for (const o of RULES.options) {
    const label = document.createElement('label');
    label.dataset.option = o.field;
    // The option in words; the rule id only as a small reference.
    const name = document.createElement('span');
    name.className = 'option-name';
    name.textContent = o.label;
    const ref = document.createElement('small');
    ref.className = 'rule-ref';
    ref.textContent = `rule ${o.rule}`;
    name.append(' ', ref);
    label.append(name);
    const select = document.createElement('select');
    select.id = `f-option-${o.field}`;
    select.name = o.field;
    select.innerHTML = o.values.map((v) => `<option value="${v.name}">${v.label}</option>`).join('');
    select.addEventListener('change', showFormFields);
    label.append(select);
    const about = document.createElement('small');
    about.className = 'option-about';
    about.textContent = o.description;
    label.append(about);
    before.before(label);
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
    $('about-text').textContent = about.text;
    // The proven result only for the rules it was proven under.
    const { pits } = chosenGame();
    const solved = about.solved && !match && (pits || info.pits[0]) === about.solved.pits
      && Object.entries(about.solved.options).every(([field, value]) => $(`f-option-${field}`).value === value);
    $('about-seat').textContent = solved ? about.solved.seat : (pits === 12 && about.seat12) || about.seat;
    seatNewcomer(about.easier);

  }
}

// Where each seat sits on the board as this screen will draw it: bottom and top when the
// board lies flat, left and right when it stands upright (narrow screens), turned round
// when the board is flipped.
function seatLabels() {
  const [south, north] = NARROW.matches ? ['left', 'right'] : ['bottom', 'top'];
  const [s, n] = S.flipped ? [north, south] : [south, north];
  $('seat-south').textContent = `South (${s}, moves first)`;
  $('seat-north').textContent = `North (${n})`;
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
    $('new-error').textContent = e.message + (/level:/.test(e.message) ? ' — the computer levels are not in this build yet: choose greedy or random.' : '');
  }
}

// This browser's games: those its key owns (GET /api/games sends the key), and the live games
// it holds a seat in (their tokens are kept here). A live game opens as a live game, and has no
// Delete: it belongs to both seats.
async function openSaved() {
  const d = $('saved');
  const tbody = $('saved-body');
  tbody.innerHTML = '<tr><td colspan="8">Loading…</td></tr>';
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
    tbody.innerHTML = all.length ? '' : '<tr><td colspan="8">No games yet.</td></tr>';
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
    south: live.seats.south.name || 'a person', north: live.seats.north.name || 'a person',
    result: result && result.outcome !== 'none' ? result.outcome : null, termination: result ? result.text : null,
    updated: new Date().toISOString().replace('T', ' ').slice(0, 19), match: null,
  };
}

function savedRow(g, seatToken, dialog) {
  const tr = document.createElement('tr');
  // A live game closed with no result has no winner but says why (termination).
  const over = !!(g.result || g.termination);
  const result = g.result ? (g.result === 'draw' ? 'draw' : `${cap(g.result)} won`) : g.termination || 'in play';
  const name = `${gameTitle(g.game)} 2×${g.pits}${g.live ? ', with a friend' : ''}${g.match ? `, match ${g.match} round ${g.round}` : ''}`;
  const who = (player) => escapeHtml(g.live ? (player === 'human' ? 'a person' : player) : playerName(player));
  tr.dataset.game = String(g.id);
  if (g.live) tr.dataset.live = '1';
  tr.innerHTML = `<td data-label="#">${g.id}</td><td data-label="Game">${escapeHtml(name)}</td><td data-label="South">${who(g.south)}</td><td data-label="North">${who(g.north)}</td><td data-label="Moves">${g.plies}</td><td data-label="Result">${escapeHtml(result)}</td><td class="when" data-label="Last played">${localTime(g.updated)}</td>
    <td class="row-buttons"><button type="button" class="open">${over ? 'Replay' : 'Resume'}</button>${
  window.sowingAnalysis && g.plies > 0 && (over || !g.live) ? `<button type="button" class="analyse">${window.sowingAnalysis.savedLabel}</button>` : ''}${
  g.match || g.live ? '' : '<button type="button" class="delete" title="Delete this game">Delete</button>'}</td>`;
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
    try { await navigator.clipboard.writeText(playerKey()); $('key-said').textContent = 'Copied.'; } catch (_) { $('key-mine').select(); }
  });
  $('key-use').addEventListener('click', () => {
    const key = $('key-other').value.trim().toLowerCase();
    if (!/^[0-9a-f]{32}$/.test(key)) {
      $('key-said').textContent = 'A player key is 32 letters a–f and digits.';
      return;
    }
    localStorage.setItem(PLAYER_KEY, key);
    $('key-other').value = '';
    openSaved();
    $('key-said').textContent = 'This browser now uses that key: its games are listed above.';
  });
}

// The server's times are UTC ("2026-11-29 21:31:30"): shown in the reader's time, with its zone.
function localTime(utc) {
  const date = new Date(`${utc.replace(' ', 'T')}Z`);
  if (Number.isNaN(date.getTime())) return utc;
  return date.toLocaleString(undefined, {
    year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'short',
  });
}

async function deleteGame(id, row) {
  if (!window.confirm(`Delete game ${id}? This cannot be undone.`)) return;
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
    row.querySelector('.when').textContent = `Not deleted: ${e.message}`;
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
    S.note = { text: `Record loaded as game ${v.id}: step through it in the move list, or play on.` };
    render();
  } catch (e) {
    setStatus(`The record could not be read: ${e.message}`, true);
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
    title: 'Sowing and relays', rule: 'H2.1, H2.2, H2.3',
    words: 'On your turn, pick up every seed of one of your pits and drop them one by one into the pits that follow, counter-clockwise: along your row to the right, then back along your opponent’s row. Then look at the pit where the last seed fell. If it was empty (it now holds one seed), your move ends. If it now holds more — but not exactly four — pick them all up and sow on from there: a relay.',
    start: 'hoyito-ii 1,0,2,0,2,0/0,0,1,2,1,1 0-0 S -', example: 'C', expect: 'C',
    ask: 'Now you: sow C. Its two seeds go to D and E; E then holds three, so they are relayed on, and the last falls into the empty b.',
  },
  {
    title: 'A casa', rule: 'H2.3, H2.4, H2.6',
    words: 'If the last seed of a lap makes exactly four, that pit is a casa: you take its four seeds, and you move again, choosing any of your pits. Seeds that pass through a four during a lap take nothing: only where the last seed falls counts.',
    start: 'hoyito-ii 1,0,3,0,0,3/2,1,0,1,0,1 0-0 S -', example: 'C', expect: 'C',
    ask: 'Now you: sow C. Its last seed makes F a four — a casa.',
  },
  {
    title: 'A chain of casas', rule: 'H2.5',
    words: 'After taking a casa, look at the pit just before it, going backwards round the board (across rows too). If it holds exactly four, take it as well, and the one before it, and so on, until a pit that does not hold four. (With the option “Casas: the opponent’s row only”, only fours in your opponent’s row count.)',
    start: 'hoyito-ii 2,0,0,3,3,3/3,1,0,2,0,1 0-0 S -', example: 'D', expect: 'D',
    ask: 'Now you: sow D. a becomes a casa, and so do F and E behind it: twelve seeds, and another move.',
  },
  {
    title: 'Casas on the opponent’s row only', rule: 'H2.5 (casa-rows)',
    words: 'With the new-game option “Casas: the opponent’s row only”, a four in your own row is never a casa: your last seed making four there is a relay like any other pit, and a chain stops at your own row. This is the position of the last lesson, played with that option.',
    start: 'hoyito-ii 2,0,0,3,3,3/3,1,0,2,0,1 0-0 S - casa-rows=opponent', tags: '[CasaRows "opponent"]', example: 'D', expect: 'D',
    ask: 'Now you: sow D. a, in North’s row, is a casa; F and E behind it hold four but are in your own row, so the chain stops: four seeds, and another move.',
  },
  {
    title: 'The last four, and the end', rule: 'H2.7, C.4',
    words: 'When a capture leaves exactly four seeds on the board, they go to the player who captured, and the game ends; a capture that clears the board ends it too. The player who took more seeds wins; equal is a draw.',
    start: 'hoyito-ii 0,1,3,0,0,0/2,0,0,0,0,2 0-0 S -', example: 'B', expect: 'B',
    ask: 'Now you: sow B. C becomes a casa, and the four seeds left (two in a, two in f) are yours as well.',
  },
  {
    title: 'Passing', rule: 'C.2',
    words: 'A player with no pit that can be sown — every pit of their row empty — passes, and only then; the other player moves again.',
    start: 'hoyito-ii 0,0,0,0,0,0/1,2,0,3,0,2 0-0 S -', example: 'pass', expect: 'pass',
    ask: 'Now you: South’s row is empty, so press Pass (or type p).',
  },
  {
    title: 'An endless sowing is refused', rule: 'C.1',
    words: 'Relays can go round the board for ever. A move whose sowing has not ended after 65,536 laps is not allowed, just like sowing an empty pit; a player with no allowed move passes. Such moves are rare in play, but they happen.',
    start: 'hoyito-ii 2,1,0,1,3,1/0,2,1,0,1,0 0-0 S -', example: null, expect: null,
    ask: 'E holds three seeds but is not ringed: sowing it would go round for ever (every 60 laps the same). Click it to see; any ringed pit may be played.',
  },
  {
    title: 'A position comes back', rule: 'C.3, H2.8, H3.4, A.8',
    words: 'If a position comes back in a game — the same seeds in every pit and the same player to move — the game ends at once. The seeds still on the board go to nobody, and the seeds taken so far decide. It can only happen between two captures. (In Hoyito III the position also holds who gets the last four; in Ayoayo, who made the last sowing move.) Here four seeds have gone round the board for five moves without a capture.',
    start: 'hoyito-ii 0,1,1,0,0,0/0,0,0,1,0,1 20-20 S -', moves: 'B d D f F', example: 'b', expect: 'b',
    ask: 'Now you, as North: sow b. Its relays bring the board back to the start of this lesson, South to move: the game ends, a 20–20 draw.',
  },
];
const HOYITO_III = [
  {
    title: 'As Hoyito II', rule: 'H3',
    words: 'Hoyito III is played like Hoyito II — sowing, relays, a casa when the last seed makes four, another move after a capture, passing, no endless sowing — with two differences, shown next. Learn Hoyito II first if you have not.',
    start: 'hoyito-iii 1,0,3,0,0,3/2,1,0,1,0,1 0-0 S -', example: 'C', expect: 'C',
    ask: 'Now you: sow C. Its last seed makes F a four: a casa, and another move.',
  },
  {
    title: 'One casa at a time', rule: 'H3.1',
    words: 'A capture takes only the pit where the last seed fell: the fours behind it stay on the board, where either player may make them casas later.',
    start: 'hoyito-iii 2,0,0,3,3,3/3,1,0,2,0,1 0-0 S -', example: 'D', expect: 'D',
    ask: 'Now you: sow D. a becomes a casa; E and F hold four too, but stay (in Hoyito II all three would go).',
  },
  {
    title: 'The last four', rule: 'H3.2',
    words: 'In a single game, whoever takes the four before the last also takes the last four, and the game ends. In a match of rounds, from round 3 on the last four go to the winner of the round before instead (to the capturer after a draw), and the starter alternates.',
    start: 'hoyito-iii 0,1,3,0,0,0/2,0,0,0,0,2 0-0 S -', example: 'B', expect: 'B',
    ask: 'Now you: sow B. C becomes a casa, and the last four seeds are yours.',
  },
  {
    title: 'The last four in a match', rule: 'H3.3',
    words: 'In a match, from round 3 on, the last four go to the winner of the round before — here North — whoever made the capture before them. (After a drawn round they go to the capturer, as in a single game.) Here is the position of the last lesson, as if in round 3 of a match after North won round 2.',
    start: 'hoyito-iii 0,1,3,0,0,0/2,0,0,0,0,2 0-0 S - final-four=north', tags: '[FinalFour "north"]', example: 'B', expect: 'B',
    ask: 'Now you: sow B. C becomes a casa, but the last four go to North, last round’s winner: a 4–4 draw.',
  },
];
const AYOAYO = [
  {
    title: 'Sowing and relays', rule: 'A.1, A.3',
    words: 'Each player has a store beside their row (never sown into). On your turn, pick up every seed of one of your pits and sow them one by one counter-clockwise. If the last seed falls into a pit that already held seeds, pick them all up and sow on: a relay. When the last seed falls into an empty pit, the move ends.',
    start: 'ayoayo 1,0,2,0,2,0/0,0,1,2,1,1 0-0 S -', example: 'C', expect: 'C',
    ask: 'Now you: sow C. E then holds three, so they are relayed on, and the last seed falls into the empty b.',
  },
  {
    title: 'Capture', rule: 'A.4',
    words: 'If your move ends in an empty pit of your own row and the pit across holds seeds, those seeds and your last seed go to your store. Only the end of the move captures.',
    start: 'ayoayo 0,1,0,1,2,0/2,1,1,3,0,1 0-0 S -', example: 'B', expect: 'B',
    ask: 'Now you: sow B. Its seed falls into the empty C, and the three seeds across in d are yours.',
  },
  {
    title: 'Skipping the pit you lifted', rule: 'A.2',
    words: 'A lap never drops a seed into the pit it was lifted from: with twelve seeds or more, the sowing goes round and passes it by. (Hoyito does not skip it.)',
    start: 'ayoayo 12,0,1,0,1,0/1,0,1,0,1,0 0-0 S -', example: 'A', expect: 'A',
    ask: 'Now you: sow A. Its twelfth seed passes A by and falls into B; the relays go round and end with a capture.',
  },
  {
    title: 'Feeding', rule: 'A.5',
    words: 'If your opponent’s row is empty, you must play a move that gives them seeds. Moves that do not are not allowed.',
    start: 'ayoayo 1,0,0,0,0,2/0,0,0,0,0,0 10-20 S N', example: 'F', expect: 'F',
    ask: 'Now you: North’s row is empty. A would not reach it, so only F is ringed: sow F.',
  },
  {
    title: 'Passing', rule: 'A.6, C.2',
    words: 'A player whose row is empty — or whose every move would sow for ever — passes. The other player then moves, and must feed the empty row if they can.',
    start: 'ayoayo 0,0,0,0,0,0/0,0,1,0,0,2 22-23 S N', example: 'pass', expect: 'pass',
    ask: 'Now you: South’s row is empty, so press Pass (or type p). North must then feed you: only f is ringed, since c would stay in North’s row.',
  },
  {
    title: 'The end', rule: 'A.7, C.4',
    words: 'When the player to move cannot feed an empty row, the game ends, and the seeds left on the board go to the player who made the last sowing move (with the option “to each row’s owner”, each seed to the owner of its row). A capture that clears the board also ends it. More seeds in your store wins.',
    start: 'ayoayo 0,0,0,0,0,1/0,1,0,0,0,0 10-10 S N', example: 'F', expect: 'F',
    ask: 'Now you: sow F. South’s row is then empty and North cannot feed it, so the game ends and the seeds left are yours.',
  },
  {
    title: 'The seeds left: to each row’s owner', rule: 'A.7 (leftover)',
    words: 'The new-game option “Seeds left when the mover cannot feed: to each row’s owner” changes who takes the seeds left when a player cannot feed: each seed goes to the player whose row it lies in, not to the last player who sowed. This is the same position as the last lesson, played with that option.',
    start: 'ayoayo 0,0,0,0,0,1/1,0,0,0,0,0 23-23 S N leftover=holder', tags: '[Leftover "holder"]', example: 'F', expect: 'F',
    ask: 'Now you: sow F. North cannot feed you, and the two seeds left lie in North’s row: North takes them and wins, 25–23.',
  },
];
const LEARN = [['hoyito-ii', 'Hoyito II', HOYITO_II], ['hoyito-iii', 'Hoyito III', HOYITO_III], ['ayoayo', 'Ayoayo', AYOAYO]];
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
  $('learn-title').textContent = `Learn ${title}`;
  $('lesson-list').innerHTML = LESSONS.map((l, n) => `<li><button type="button" data-lesson="${n}">${n + 1}. ${l.title}</button></li>`).join('');
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
    const record = `[Game "${L.variant}"]\n${lesson.tags ? lesson.tags + '\n' : ''}[Event "Learn: ${lesson.title}"]\n[Start "${lesson.start}"]\n\n${lesson.moves || ''} *`;
    const v = await api('POST', '/records', { record });
    L.game = v.id;
    localStorage.setItem(LESSON_GAME, String(v.id));
    if (old) await dropLessonGame(old);
    S.view = v;
    S.viewPly = null;
    S.hint = null;
    $('commentary').textContent = '';
    $('summary').hidden = true;
    $('lesson-title').textContent = `${k + 1}. ${lesson.title}`;
    $('lesson-words').textContent = lesson.words;
    $('lesson-rule').textContent = `rule ${lesson.rule}`;
    $('lesson-watch').hidden = !lesson.example;
    $('lesson-next').hidden = k + 1 >= LESSONS.length;
    for (const b of $('lesson-list').querySelectorAll('button')) {
      if (Number(b.dataset.lesson) === k) b.setAttribute('aria-current', 'step'); else b.removeAttribute('aria-current');
    }
    if (lesson.example) {
      lessonSay('Press “Watch the example” to see the rule played, then try it yourself.');
    } else {
      L.trying = true;
      lessonSay(lesson.ask);
    }
    document.body.dataset.lesson = `${L.variant}:${k}`;
  });
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
    lessonSay('Watch…');
    S.skipAll = false;
    const r = await api('POST', `/games/${v.id}/moves`, { move: lesson.example, ply: v.ply });
    await showMove(r, v.state.to_move, lesson.example, false);
    lessonSay('That was the example. Press “Try it yourself” to play it from the same position.');
  });
}

function lessonTry() {
  if (!S.view || S.view.id !== L.game) return;
  run(async () => {
    await lessonRewind();
    $('commentary').textContent = '';
    L.trying = true;
    lessonSay(LESSONS[L.k].ask);
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
  const done = L.k + 1 < LESSONS.length ? 'On to the next rule?' : 'That is every rule of this game: start a game!';
  if (!lesson.expect) lessonSay(`You played ${played}. ${done}`, true);
  else if (played === lesson.expect) lessonSay(`Well done. ${done}`, true);
  else lessonSay(`You played ${played}, not ${lesson.expect}. Press “Try it yourself” to start again.`);
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
    setStatus(`Game ${m[1]} could not be opened: ${e.message}`, true);
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

async function init() {
  fillPlayers();
  try {
    await buildGameForm();
  } catch (e) {
    $('new-error').textContent = `The games could not be loaded: ${e.message}`;
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
      if (fromHash) $('new-error').textContent = `Game ${id} could not be opened: ${e.message}. Start a new game instead?`;
    });
  } else {
    openNewGame();
  }
}

document.addEventListener('DOMContentLoaded', init);
