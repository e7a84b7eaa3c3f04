// The board: drawn in SVG (pits, stores, seeds, the hand that carries them) and the sowing
// animated seed by seed from the server's trace of a move. It knows nothing of games or
// requests: game.js says what to draw and what a pit's click does.
import { T } from './i18n.js';
import { letter, sideName } from './words.js';

const SVG = 'http://www.w3.org/2000/svg';
const $ = (id) => document.getElementById(id);
// Milliseconds per sowing step at speeds 1 … 10; the computer's moves go twice as fast.
const STEP_MS = [700, 450, 300, 200, 140, 95, 60, 35, 15, 4];
const COMPUTER_PACE = 0.5;

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
  if (g.flipped) { column = n - 1 - column; top = !top; }
  if (g.upright) return { x: SIDE + (top ? ROW_H * 1.5 : ROW_H / 2), y: g.y0 + column * PW + PW / 2, top };
  return { x: g.x0 + column * PW + PW / 2, y: TOP + (top ? ROW_H / 2 : ROW_H * 1.5), top };
}

// South's store is on South's right (upright: below); turned round, on the left (above).
function storeBox(g, side) {
  const right = (side === 'south') !== g.flipped;
  if (g.upright) return { x: 6, y: right ? g.height - STORE_H - 6 : 6, w: g.width - 12, h: STORE_H };
  return { x: right ? g.width - STORE_W - 6 : 6, y: TOP + 6, w: STORE_W, h: ROW_H * 2 - 12 };
}

function el(name, attrs, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
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

// The board drawn now ({n, game, flipped, upright, pits, stores, …}), or null.
const board = () => G;
// The board is to be drawn anew at the next render (the language or the screen changed).
function forgetBoard() {
  G = null;
}

// Draws an empty board for `rules`, turned round if `flipped`; `onPit(i)` is a pit's click.
function buildBoard(rules, flipped, onPit) {
  const n = rules.pits;
  const g = geometry(n, NARROW.matches);
  g.game = rules.game;
  g.flipped = flipped;
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
    group.addEventListener('click', () => onPit(i));
    group.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); e.stopPropagation(); onPit(i); }
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

// Counters the browser tests read: animations played, steps told, steps drawn, animations
// whose replay of the trace did not reach the server's position (game.js and live.js count
// those), and the pace of the last one.
const counters = { animations: 0, steps: 0, painted: 0, mismatches: 0, lastStepMs: null };

// Skip: `all` finishes the running animation and every one queued behind it; `wake` ends
// the animation's current pause at once.
const skip = { all: false, wake: null };

// A pause of the animation, which Skip ends at once.
function pause(ms) {
  return new Promise((resolve) => {
    const done = () => { clearTimeout(timer); skip.wake = null; resolve(); };
    const timer = setTimeout(done, ms);
    skip.wake = done;
  });
}

// Skip: the running animation and every one queued behind it (the computer's replies)
// end at once, until a person is to move again.
function skipAnimation() {
  skip.all = true;
  if (skip.wake) skip.wake();
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
  counters.lastStepMs = { ms, computer: !!computer };
  for (const ev of trace) {
    let wait = ms;
    switch (ev.kind) {
      case 'lift':
        laps += 1;
        hand = ev.seeds;
        pits[ev.pit] = 0;
        say(ev.relay ? T('say-relay', { lap: laps, seeds: ev.seeds, pit: ev.name }) : T('say-lift', { who: mover, seeds: ev.seeds, pit: ev.name }));
        if (!skip.all) { flash(ev.pit, ev.relay ? 'relay' : 'lift'); moveHand(ev.pit, hand); }
        wait = ms * 2;
        break;
      case 'drop':
        pits[ev.pit] += 1;
        hand -= 1;
        if (!skip.all) { flash(ev.pit, 'drop'); moveHand(ev.pit, hand); }
        break;
      case 'skip':
        say(T('say-skip', { lap: laps, pit: ev.name }));
        if (!skip.all) flash(ev.pit, 'skip');
        break;
      case 'take': {
        pits[ev.pit] -= ev.seeds;
        captured[ev.by === 'south' ? 0 : 1] += ev.seeds;
        say(T('say-take', { who: sideName(ev.by), why: ev.why, seeds: ev.seeds, pit: ev.name }));
        if (!skip.all) { flash(ev.pit, 'take'); flash(ev.by, 'take'); }
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
    counters.steps += 1;
    if (!skip.all) {
      paint(pits, captured, {});
      counters.painted += 1;
      await pause(wait);
    }
  }
  G.hand.setAttribute('visibility', 'hidden');
  counters.animations += 1;
  document.body.dataset.animating = '0';
  return { pits, captured };
}

// The next animation plays again (a person is to move, or asked for a move to be shown).
function animateAgain() {
  skip.all = false;
}

function sameBoard(a, b) {
  return a.pits.join() === b.pits.join() && a.captured.join() === b.captured.join();
}

export {
  NARROW, R, el, board, forgetBoard, buildBoard, paint, counters, animate, skipAnimation, animateAgain, sameBoard,
};
