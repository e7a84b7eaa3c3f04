// The opening explorer (docs/web.md, "The school"): from a start and along any line, each
// legal move with its value for the mover — proven (the tables, the solve's certificates or
// a solve run here), bounded, or the engine's estimate at its depth — and how often the
// site's finished games played it, with their results. A move pressed goes one deeper; a
// position past what is known can be solved in the background.
import { T } from './i18n.js';
import { api } from './api.js';
import { drawSmallBoard, explorerPosition } from './smallboard.js';
import { signed } from './words.js';

const $ = (id) => document.getElementById(id);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// What the explorer shows: {start, line} or {game, line}; the last answer.
const X = { start: null, game: 'hoyito-ii', line: [], shown: null, seq: 0 };

function query() {
  const p = new URLSearchParams();
  if (X.start) p.set('start', X.start); else p.set('game', X.game);
  if (X.line.length) p.set('moves', X.line.join(' '));
  return p.toString();
}

// Where a proof comes from, in words.
const SOURCES = {
  end: () => T('explorer-source-end'),
  tables: () => T('explorer-source-tables'),
  certificate: () => T('explorer-source-certificate'),
  solve: () => T('explorer-source-solve'),
};

// The value cell of a move: its status in words and its figures.
function valueText(m) {
  if (m.status === 'proven') return T('explorer-proven', { value: signed(m.value), source: SOURCES[m.source]() });
  if (m.status === 'bounded') {
    const lo = m.lower === null ? '…' : signed(m.lower);
    const hi = m.upper === null ? '…' : signed(m.upper);
    return T('explorer-bounded', { lower: lo, upper: hi });
  }
  return T('explorer-estimated', { value: signed(Math.round(m.estimate * 10) / 10), depth: m.depth });
}

function playedText(p) {
  if (!p.games) return T('explorer-not-played');
  return T('explorer-played', { games: p.games, south: p.south, north: p.north, draws: p.draws });
}

function draw() {
  const e = X.shown;
  const box = $('explorer');
  if (!e || !box) return;
  box.querySelector('.explorer-line').textContent = e.line.length ? T('explorer-line', { line: e.line.join(' ') }) : T('explorer-at-start');
  box.querySelector('.explorer-back').disabled = !e.line.length;
  box.querySelector('.explorer-value').textContent = e.value === null ? '' : T('explorer-value', { value: signed(e.value) });
  drawSmallBoard(box.querySelector('.explorer-board'), explorerPosition(e), { onMove: (name) => go([...X.line, name]) });
  const rows = e.moves.map((m) => {
    const tr = document.createElement('tr');
    tr.dataset.move = m.move;
    tr.dataset.status = m.status;
    if (m.value !== null) tr.dataset.value = String(m.value);
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = m.move;
    b.addEventListener('click', () => go([...X.line, m.move]));
    const cells = [b, valueText(m), playedText(m.played)].map((c) => {
      const td = document.createElement('td');
      td.append(c);
      return td;
    });
    tr.append(...cells);
    tr.children[1].className = `explorer-${m.status}`;
    return tr;
  });
  box.querySelector('tbody').replaceChildren(...rows);
  const solve = box.querySelector('.explorer-solve');
  solve.hidden = !e.solvable || e.moves.every((m) => m.status === 'proven');
  solve.disabled = !!e.solve;
  box.querySelector('.explorer-progress').textContent = e.solve
    ? T('explorer-solving', { status: e.solve.status, nodes: e.solve.nodes, budget: e.solve.budget_s }) : '';
  box.dataset.ready = '1';
}

// Shows the line `line` (from the start set); the last request wins.
async function go(line) {
  const seq = ++X.seq;
  X.line = line;
  $('explorer').dataset.ready = '0';
  try {
    const e = await api('GET', `/explorer?${query()}`);
    if (seq !== X.seq) return;
    X.shown = e;
    X.start = e.start;
    $('explorer-error').textContent = '';
    draw();
    if (e.solve) watch(seq);
  } catch (err) {
    if (seq === X.seq) $('explorer-error').textContent = err.message;
  }
}

// Asks again while a solve of the position shown runs.
async function watch(seq) {
  await sleep(1000);
  if (seq === X.seq && X.shown && X.shown.solve && $('school').open) go(X.line);
}

async function solve() {
  try {
    const body = X.start ? { start: X.start, moves: X.line.join(' ') } : { game: X.game, moves: X.line.join(' ') };
    X.shown = await api('POST', '/explorer/solve', body);
    draw();
    watch(X.seq);
  } catch (err) {
    $('explorer-error').textContent = err.message;
  }
}

// The explorer's part of the school dialog, built once.
export function buildExplorer(box) {
  box.innerHTML = `<div class="explorer-head">
      <label><span data-i18n="explorer-game"></span>
        <select class="explorer-game">
          <option value="hoyito-ii">Hoyito II</option>
          <option value="hoyito-iii">Hoyito III</option>
          <option value="ayoayo">Ayoayo</option>
        </select></label>
      <button type="button" class="explorer-back" data-i18n="explorer-back"></button>
      <button type="button" class="explorer-restart" data-i18n="explorer-restart"></button>
    </div>
    <p class="explorer-line"></p>
    <div class="explorer-board school-board"></div>
    <p class="explorer-value"></p>
    <div class="explorer-table"><table>
      <thead><tr><th data-i18n="explorer-move"></th><th data-i18n="explorer-value-head"></th><th data-i18n="explorer-played-head"></th></tr></thead>
      <tbody></tbody></table></div>
    <p><button type="button" class="explorer-solve" data-i18n="explorer-solve" hidden></button>
      <span class="explorer-progress" aria-live="polite"></span></p>
    <p id="explorer-error" class="error" role="alert"></p>`;
  box.querySelector('.explorer-game').addEventListener('change', (e) => {
    X.game = e.target.value;
    X.start = null;
    go([]);
  });
  box.querySelector('.explorer-back').addEventListener('click', () => go(X.line.slice(0, -1)));
  box.querySelector('.explorer-restart').addEventListener('click', () => go([]));
  box.querySelector('.explorer-solve').addEventListener('click', solve);
}

// Opens the explorer at the start of `game`, or at a game of the site (`from`, its first
// `ply` moves).
export async function openExplorer({ game, from, ply } = {}) {
  if (from !== undefined) {
    const seq = ++X.seq;
    const p = new URLSearchParams({ from: String(from) });
    if (ply !== undefined && ply !== null) p.set('ply', String(ply));
    try {
      const e = await api('GET', `/explorer?${p}`);
      if (seq !== X.seq) return;
      X.shown = e;
      X.start = e.start;
      X.line = e.line;
      draw();
    } catch (err) {
      $('explorer-error').textContent = err.message;
    }
    return;
  }
  X.game = game || X.game;
  X.start = null;
  $('explorer').querySelector('.explorer-game').value = X.game;
  await go([]);
}

// The language changed: the words again.
export function relabelExplorer() {
  draw();
}
