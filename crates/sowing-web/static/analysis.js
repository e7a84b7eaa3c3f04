// Analysis after the game (docs/web.md, "Analysis"): the server analyses a game's moves in
// the background (POST /api/games/{id}/analysis) and keeps the analysis with the game; this
// file asks for it, shows the progress, then draws the evaluation graph (one point a turn,
// South above the line, North below), marks each move with its class in the moves list,
// shows any point's position on the board, the better move drawn on it, and each
// player's accuracy. The address #game=ID&analysis opens the review: a game's link with it
// shares the review. Its words are in the catalogues (static/i18n/*.ftl). On a phone a bar
// fixed at the foot of the screen steps the review (a turn back or on, the next mistake, a
// slider) while the board stays in view above it; the evaluation bar shows the reviewed
// position's value.
import { I18N, T } from './i18n.js';
import { api } from './api.js';
import { escapeHtml, sideName, nameToPit, playerName } from './words.js';
import { NARROW, board } from './board.js';
import { render, lookAt } from './game.js';
import { refreshEval } from './helps.js';
import { S, parts } from './state.js';

// The review's words are the catalogues' (static/i18n/*.ftl, "The review after the
// game"); the marks after a move are not words.
const MARKS = { best: '', inaccuracy: '?!', mistake: '?', blunder: '??' };
const seedsOf = (x) => Math.round(Math.abs(x) * 10) / 10;
// A player as the review names them: the name they gave in a game between two seats, else
// the side and who played it ("South (computer, level 4)").
function reviewName(side) {
  const given = S.view && S.view.names && S.view.names[side];
  if (given) return given;
  const spec = S.view ? S.view.players[side] : 'human';
  return T('analysis-side-player', { side: sideName(side), player: playerName(spec) });
}
// A value of the graph from South's side, in words.
function valueWords(south, proven) {
  const seeds = seedsOf(south);
  const who = seeds === 0 ? 'level' : south > 0 ? 'south' : 'north';
  const name = who === 'level' ? '' : reviewName(who);
  return proven ? T('analysis-value-proven', { who, seeds, name }) : T('analysis-value-estimate', { who, seeds, name });
}
// What a move gave up, in words.
function lostWords(m) {
  const loss = seedsOf(m.loss);
  return m.proven ? T('analysis-lost-proven', { loss }) : T('analysis-lost-estimate', { loss, depth: m.depth || 0 });
}
const classWords = (c) => T('analysis-class', { class: c });
// The server's limits (`nodes 100000`) in words; another form as the server wrote it.
function limitsWords(limits) {
  const m = /^nodes (\d+)$/.exec(limits);
  return m ? T('analysis-nodes', { nodes: Number(m[1]) }) : limits;
}
const POLL_MS = 600;
// The classes "next mistake" stops at: inaccuracies are too many to step through.
const STOPS = new Set(['mistake', 'blunder']);

const A = {
  open: false,
  id: null,          // the game reviewed
  view: null,        // the server's last answer (GET /api/games/{id}/analysis)
  selected: null,    // the point selected (0 = the start, t = after turn t)
  better: null,      // {ply, best, played}: the better move drawn on the board at `ply`
  timer: null,
  seq: 0,
};

const box = () => document.getElementById('review');

// The address of the review: the game's link with `&analysis`.
function inAddress() {
  return /^#game=\d+.*[&]analysis\b/.test(location.hash);
}
function setAddress(on) {
  if (!S.view) return;
  const want = on ? `#game=${S.view.id}&analysis` : `#game=${S.view.id}`;
  if (location.hash !== want) history.replaceState(null, '', want);
}

// Opens the review of the game shown: asks for the analysis if none is kept.
async function open() {
  if (!S.view) return;
  A.open = true;
  A.id = S.view.id;
  A.view = null;
  A.selected = null;
  A.better = null;
  setAddress(true);
  box().hidden = false;
  say(T('analysis-asking'));
  await fetchView(true);
  if (!NARROW.matches) box().scrollIntoView({ block: 'nearest' });
}

function close() {
  A.open = false;
  A.better = null;
  clearTimeout(A.timer);
  box().hidden = true;
  document.body.dataset.reviewing = '0';
  setAddress(false);
  decorateMoves();
  if (S.view) { render(); refreshEval(); }
}

async function fetchView(ask) {
  const id = A.id;
  const seq = ++A.seq;
  clearTimeout(A.timer);
  let view;
  try {
    view = await api('GET', `/games/${id}/analysis`);
    if (ask && view.status === 'none') {
      if (view.plies === 0) { say(T('analysis-no-moves')); return; }
      view = await api('POST', `/games/${id}/analysis`);
    }
  } catch (e) {
    if (seq === A.seq && A.open && A.id === id) say(T('analysis-failed', { message: e.message }), true);
    return;
  }
  if (seq !== A.seq || !A.open || A.id !== id) return;
  A.view = view;
  if (view.status === 'queued' || view.status === 'running') {
    drawProgress(view);
    A.timer = setTimeout(() => fetchView(false), POLL_MS);
  } else if (view.status === 'none') {
    // It was under way for other moves, or lost (a restart): ask again.
    say(T('analysis-outdated'));
    A.timer = setTimeout(() => fetchView(true), POLL_MS);
  } else {
    draw();
  }
}

function say(text, error) {
  box().innerHTML = `${head()}<p class="review-say${error ? ' error' : ''}" role="status">${escapeHtml(text)}</p>`;
  wireHead();
}

function head() {
  return `<div class="review-head"><h2 id="review-title">${T.escaped('analysis-title')}</h2>
    <button type="button" class="review-close">${T.escaped('analysis-close')}</button></div>`;
}
function wireHead() {
  box().querySelector('.review-close').addEventListener('click', close);
}

function drawProgress(view) {
  const p = view.progress || { done: 0, total: view.plies + 1 };
  const text = view.status === 'queued' ? T('analysis-queued') : T('analysis-running', { done: p.done, total: p.total });
  box().innerHTML = `${head()}<div class="review-progress"><progress max="${p.total}" value="${p.done}"></progress>
    <p class="review-say" role="status">${escapeHtml(text)}</p></div>`;
  wireHead();
  document.body.dataset.analysis = view.status;
}

// The points of the graph: the start, then the value after each turn.
function points(a) {
  if (!a.turns.length) return [];
  return [{ value: a.turns[0].before, turn: null }].concat(a.turns.map((t) => ({ value: t.after, turn: t })));
}
const worst = (turn) => turn.moves.reduce((w, m) => (RANK[m.class] > RANK[w] ? m.class : w), 'best');
const RANK = { best: 0, inaccuracy: 1, mistake: 2, blunder: 3 };
const lastPly = (p) => (p.turn ? p.turn.moves[p.turn.moves.length - 1].ply : 0);

function draw() {
  const a = A.view.analysis;
  document.body.dataset.analysis = 'done';
  const pts = points(a);
  // Drawn at the width it is shown at (then scaled alike both ways): round points stay round.
  const W = Math.max(280, Math.min(900, Math.round(box().clientWidth - 32) || 640));
  const H = W < 500 ? 150 : 190, PAD = 12;
  const top = Math.max(4, ...pts.map((p) => Math.abs(p.value.south)));
  const scale = Math.ceil(top / 4) * 4;
  const x = (i) => PAD + (pts.length > 1 ? (i * (W - 2 * PAD)) / (pts.length - 1) : (W - 2 * PAD) / 2);
  const y = (v) => H / 2 - (v / scale) * (H / 2 - PAD);
  const line = pts.map((p, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)},${y(p.value.south).toFixed(1)}`).join(' ');
  const area = `${line} L${x(pts.length - 1).toFixed(1)},${H / 2} L${x(0).toFixed(1)},${H / 2} Z`;
  const step = pts.length > 1 ? (W - 2 * PAD) / (pts.length - 1) : W;
  const marks = pts.map((p, i) => {
    if (!p.turn) return '';
    const cls = worst(p.turn);
    const proven = p.value.proven ? ' proven' : '';
    return cls === 'best' ? `<circle class="pt best" cx="${x(i).toFixed(1)}" cy="${y(p.value.south).toFixed(1)}" r="2"/>`
      : `<circle class="pt ${cls}${proven}" data-class="${cls}" cx="${x(i).toFixed(1)}" cy="${y(p.value.south).toFixed(1)}" r="6"/>`;
  }).join('');
  const hits = pts.map((p, i) => {
    const value = valueWords(p.value.south, p.value.proven);
    const label = p.turn ? T('analysis-point', { turn: p.turn.turn, name: reviewName(p.turn.side), value }) : T('analysis-start-point', { value });
    return `<rect class="hit" tabindex="0" role="button" data-point="${i}" aria-label="${escapeHtml(label)}"
      x="${(x(i) - step / 2).toFixed(1)}" y="0" width="${step.toFixed(1)}" height="${H}"><title>${escapeHtml(label)}</title></rect>`;
  }).join('');
  const players = ['south', 'north'].map((side) => {
    const p = a.players[side];
    const acc = p.accuracy === null ? T('analysis-no-accuracy') : T('analysis-accuracy-value', { accuracy: p.accuracy });
    const counts = T('analysis-counts', { blunders: p.blunders, mistakes: p.mistakes, inaccuracies: p.inaccuracies });
    const average = p.average_loss === null ? '' : ` · ${T('analysis-average-loss', { loss: p.average_loss })}`;
    return `<div class="review-player ${side}" data-side="${side}"><span class="name">${escapeHtml(reviewName(side))}</span>
      <span class="accuracy" data-accuracy="${p.accuracy === null ? '' : p.accuracy}">${escapeHtml(acc)}</span><span class="what">${T.escaped('analysis-accuracy')}</span>
      <span class="counts">${escapeHtml(counts + average)}</span></div>`;
  }).join('');
  const legend = ['inaccuracy', 'mistake', 'blunder'].map((c) => `<span class="key ${c}">${escapeHtml(classWords(c))} ${MARKS[c]}</span>`).join('');
  box().innerHTML = `${head()}
    <p class="review-how">${T.escaped('analysis-graph-how')}</p>
    <svg class="review-graph" viewBox="0 0 ${W} ${H}" role="group" aria-label="${escapeHtml(T.attr('analysis-graph', 'aria-label'))}">
      <defs><clipPath id="rv-above"><rect x="0" y="0" width="${W}" height="${H / 2}"/></clipPath>
        <clipPath id="rv-below"><rect x="0" y="${H / 2}" width="${W}" height="${H / 2}"/></clipPath></defs>
      <rect class="bg" x="0" y="0" width="${W}" height="${H}"/>
      <path class="area south" clip-path="url(#rv-above)" d="${area}"/>
      <path class="area north" clip-path="url(#rv-below)" d="${area}"/>
      <line class="zero" x1="0" x2="${W}" y1="${H / 2}" y2="${H / 2}"/>
      <text class="scale" x="4" y="14">+${scale}</text><text class="scale" x="4" y="${H - 4}">−${scale}</text>
      <line class="cursor" x1="0" x2="0" y1="0" y2="${H}" visibility="hidden"/>
      <path class="value" d="${line}"/>${marks}${hits}
    </svg>
    <div class="review-nav" role="group" aria-label="${escapeHtml(T('analysis-nav'))}">
      <p class="review-where" aria-live="polite">${T.escaped('analysis-nav-how')}</p>
      <input class="review-slider" type="range" min="0" max="${pts.length - 1}" step="1" value="${A.selected ?? pts.length - 1}"
        aria-label="${escapeHtml(T('analysis-slider'))}">
      <span class="review-steps">
        <button type="button" class="review-prev">${T.escaped('analysis-prev')}</button>
        <button type="button" class="review-next">${T.escaped('analysis-next')}</button>
        <button type="button" class="review-mistake">${T.escaped('analysis-next-mistake')}</button>
      </span>
    </div>
    <p class="review-legend">${legend}</p>
    <div class="review-players">${players}</div>
    <div class="review-turn" aria-live="polite"></div>
    <p class="review-engine">${escapeHtml(T('analysis-engine', { engine: playerName(a.engine), limits: limitsWords(a.limits), tables: a.tables || 0 }))}</p>`;
  wireHead();
  const svg = box().querySelector('.review-graph');
  for (const hit of svg.querySelectorAll('.hit')) {
    const i = Number(hit.dataset.point);
    hit.addEventListener('click', () => select(i));
    hit.addEventListener('mouseenter', () => preview(i));
    hit.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); e.stopPropagation(); select(i); }
    });
  }
  svg.addEventListener('mouseleave', () => { if (A.selected !== null) showPoint(A.selected); });
  const nav = box().querySelector('.review-nav');
  const last = pts.length - 1;
  // Nothing selected yet: the board shows the end of the game.
  nav.querySelector('.review-prev').addEventListener('click', () => select(Math.max(0, (A.selected ?? last) - 1)));
  nav.querySelector('.review-next').addEventListener('click', () => select(Math.min(last, (A.selected ?? last) + 1)));
  nav.querySelector('.review-mistake').addEventListener('click', nextMistake);
  nav.querySelector('.review-slider').addEventListener('input', (e) => select(Number(e.target.value)));
  // On a phone the review is looked at on the board: the board goes to the top of the
  // screen, the stepping bar to its foot (style.css).
  if (NARROW.matches && document.body.dataset.reviewing !== '1') document.getElementById('player-top').scrollIntoView({ block: 'start' });
  document.body.dataset.reviewing = '1';
  A.geometry = { x, pts };
  decorateMoves();
  if (A.selected !== null) select(A.selected);
}

// The next turn after the one selected with a mistake or a blunder, of either player: past
// the last one it starts again from the first (from the first too with nothing selected).
function nextMistake() {
  const { pts } = A.geometry || {};
  if (!pts) return;
  const from = A.selected ?? pts.length - 1;
  for (let k = 1; k <= pts.length; k += 1) {
    const i = (from + k) % pts.length;
    if (pts[i].turn && STOPS.has(worst(pts[i].turn))) { select(i); return; }
  }
  box().querySelector('.review-where').textContent = T('analysis-no-mistakes');
}

// Hovering a point shows its position without choosing it.
function preview(i) {
  showPoint(i, true);
}

// A point chosen: its position on the board, its moves told, the better move drawn.
function select(i) {
  A.selected = i;
  for (const hit of box().querySelectorAll('.review-graph .hit')) hit.classList.toggle('selected', Number(hit.dataset.point) === i);
  const slider = box().querySelector('.review-slider');
  if (slider) slider.value = String(i);
  showPoint(i);
  document.body.dataset.reviewPoint = String(i);
}

function showPoint(i, hovering) {
  const { pts } = A.geometry || {};
  if (!pts || !pts[i] || !S.view || S.busy) return;
  const p = pts[i];
  const turnBox = box().querySelector('.review-turn');
  // A turn with a move that gave something up: the position before that move, with the
  // move played and the better one ringed; else the position after the turn.
  const flawed = p.turn && p.turn.moves.find((m) => m.class !== 'best' && m.best);
  A.better = flawed ? { ply: flawed.ply - 1, best: flawed.best, played: flawed.move } : null;
  const ply = flawed ? flawed.ply - 1 : lastPly(p);
  cursorAt(i);
  if (ply <= S.view.ply) lookAt(ply);
  if (hovering) return;
  const where = box().querySelector('.review-where');
  if (!p.turn) {
    const words = T('analysis-start-point', { value: valueWords(p.value.south, p.value.proven) });
    turnBox.innerHTML = `<p>${escapeHtml(words)}.</p>`;
    if (where) where.textContent = words;
    return;
  }
  const t = p.turn;
  if (where) {
    const played = t.moves.map((m) => `${m.move}${MARKS[m.class]}`).join(' ');
    const cls = worst(t);
    where.textContent = T('analysis-where', { turn: t.turn, turns: A.geometry.pts.length - 1, name: reviewName(t.side), moves: played })
      + (cls === 'best' ? '' : ` — ${classWords(cls)}`);
    where.dataset.class = cls;
  }
  const moves = t.moves.map((m) => {
    const mark = MARKS[m.class];
    const words = m.forced ? T('analysis-forced') : m.class === 'best' ? classWords('best') : `${classWords(m.class)}: ${lostWords(m)}`;
    const better = m.best && m.class !== 'best' ? `; ${T('analysis-better', { move: m.best })}` : '';
    // A flawed move's words say already whether its loss is proven.
    const kept = m.class === 'best' ? ` <small>(${escapeHtml(T('analysis-kept', { proven: m.proven ? 'yes' : 'no', depth: m.depth || 0 }))})</small>` : '';
    return `<li class="${m.class}" data-ply="${m.ply}" data-class="${m.class}"><b>${escapeHtml(m.move)}${mark}</b> ${escapeHtml(words)}${escapeHtml(better)}${kept}</li>`;
  }).join('');
  const before = valueWords(t.before.south, t.before.proven), after = valueWords(t.after.south, t.after.proven);
  turnBox.innerHTML = `<h3>${escapeHtml(T('analysis-turn', { turn: t.turn, name: reviewName(t.side) }))}</h3><ul>${moves}</ul>
    <p>${escapeHtml(T('analysis-before-after', { before, after }))}</p>
    ${A.better ? `<p class="review-better">${escapeHtml(T('analysis-better-on-board', { played: A.better.played, best: A.better.best }))}</p>` : ''}`;
}

function cursorAt(i) {
  const c = box().querySelector('.review-graph .cursor');
  if (!c || !A.geometry) return;
  const x = A.geometry.x(i).toFixed(1);
  c.setAttribute('x1', x);
  c.setAttribute('x2', x);
  c.setAttribute('visibility', 'visible');
}

// Marks each move of the moves list with its class (and the board with the better move):
// called by game.js after every render.
function decorate(v, ply) {
  if (A.open && (!v || v.id !== A.id || (A.view && A.view.plies !== v.ply))) {
    // Another game is shown now, or this one changed (an undo): the review was of the
    // game before.
    A.open = false;
    A.better = null;
    clearTimeout(A.timer);
    box().hidden = true;
    document.body.dataset.reviewing = '0';
    if (v && v.id === A.id) setAddress(false);
  }
  decorateMoves();
  const G = board();
  if (!G || !G.pits) return;
  for (const p of G.pits) p.group.classList.remove('better', 'worse');
  if (!A.open || !A.better || ply !== A.better.ply || !v) return;
  const n = v.rules.pits;
  if (A.better.best !== 'pass') G.pits[nameToPit(A.better.best, n)].group.classList.add('better');
  if (A.better.played !== 'pass') G.pits[nameToPit(A.better.played, n)].group.classList.add('worse');
}

function decorateMoves() {
  const a = A.open && A.view && A.view.status === 'done' ? A.view.analysis : null;
  const classes = new Map();
  if (a) for (const t of a.turns) for (const m of t.moves) classes.set(m.ply, m);
  for (const b of document.querySelectorAll('#moves button[data-ply]')) {
    const m = classes.get(Number(b.dataset.ply));
    b.classList.remove('cls-inaccuracy', 'cls-mistake', 'cls-blunder');
    delete b.dataset.class;
    const old = b.querySelector('.mark');
    if (old) old.remove();
    if (!m || m.class === 'best') continue;
    b.classList.add(`cls-${m.class}`);
    b.dataset.class = m.class;
    const mark = document.createElement('span');
    mark.className = 'mark';
    mark.textContent = MARKS[m.class];
    b.appendChild(mark);
    b.title = `${b.title} — ${classWords(m.class)}, ${lostWords(m)}${m.best ? `; ${T('analysis-better', { move: m.best })}` : ''}`;
  }
}

// The summary's button, and the saved games' (game.js and saved.js put them in).
function summaryButton() {
  return `<button type="button" id="btn-analysis">${T.escaped('analysis-open')}</button>`;
}

// After a game is loaded from an address with `&analysis`: open its review.
function fromAddress() {
  if (inAddress() && S.view && (!A.open || A.id !== S.view.id)) open();
}

// The value of the position after `ply` moves from South's side, as the review has it
// ({south, proven, depth, engine}), or null with no review open: the evaluation bar shows it
// while a position of the game under review is on the board.
function valueAt(ply) {
  const a = A.open && A.view && A.view.status === 'done' && S.view && S.view.id === A.id ? A.view.analysis : null;
  if (!a || !a.turns.length) return null;
  const at = (value) => ({ south: value.south, proven: value.proven, depth: value.depth, engine: a.engine });
  if (ply === 0) return at(a.turns[0].before);
  for (const t of a.turns) {
    const k = t.moves.findIndex((m) => m.ply === ply);
    if (k < 0) continue;
    if (k === t.moves.length - 1) return at(t.after);
    // Inside a turn (a capture gave another move): the value of the move played, for its mover.
    const m = t.moves[k];
    if (m.played_value === null || m.played_value === undefined) return null;
    const south = t.side === 'south' ? m.played_value : -m.played_value;
    return at({ south, proven: m.proven, depth: m.depth });
  }
  return null;
}

const savedLabel = () => T('analysis-open-saved');
// Another language: the review is drawn again in it.
I18N.changed.push(() => {
  if (!A.open || !A.view) return;
  if (A.view.status === 'done') draw(); else if (A.view.status !== 'none') drawProgress(A.view);
});

parts.review = { open, decorate, summaryButton, savedLabel, fromAddress, valueAt };

export { fromAddress };
