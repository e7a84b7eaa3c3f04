// Endgame practice (docs/web.md, "The school"): a position inside the endgame tables that
// the player to move wins — picked by difficulty, or the first such position of the game on
// the board — played on against the tables' best defence until the game ends. Each of the
// player's moves is told with the tables' values before and after it and the seeds it gave
// up; converting is winning the game.
import { T } from './i18n.js';
import { api } from './api.js';
import { S } from './state.js';
import { drawSmallBoard, explorerPosition } from './smallboard.js';
import { sideName, signed } from './words.js';

const $ = (id) => document.getElementById(id);

// The practice: its start, the player's side, the line, the moves told, the last answer.
const P = { start: null, side: null, line: [], told: [], shown: null, seq: 0, asked: 0 };

async function explore() {
  const p = new URLSearchParams({ start: P.start });
  if (P.line.length) p.set('moves', P.line.join(' '));
  return api('GET', `/explorer?${p}`);
}

function draw() {
  const box = $('practice');
  const e = P.shown;
  if (!box || !e) return;
  const mine = !e.over && e.board.to_move === P.side;
  drawSmallBoard(box.querySelector('.practice-board'), explorerPosition(e), { onMove: mine ? play : null, flipped: P.side === 'north' });
  const rows = P.told.map((t) => {
    const li = document.createElement('li');
    li.dataset.lost = String(t.lost);
    li.textContent = T('practice-told', { move: t.move, before: signed(t.before), after: signed(t.after), lost: t.lost });
    return li;
  });
  box.querySelector('.practice-moves').replaceChildren(...rows);
  const lost = P.told.reduce((sum, t) => sum + t.lost, 0);
  let words;
  if (e.over) {
    const c = e.board.captured;
    const mine = P.side === 'south' ? c[0] - c[1] : c[1] - c[0];
    words = mine > 0 ? T('practice-converted', { margin: mine, lost }) : T('practice-missed', { margin: mine, lost });
    box.dataset.result = mine > 0 ? 'converted' : 'missed';
  } else {
    words = mine ? T('practice-your-move', { lost }) : T('practice-defending');
    box.dataset.result = '';
  }
  box.querySelector('.practice-status').textContent = words;
  // The line played, for a reader of the page (and its tests) to follow.
  box.dataset.start = P.start;
  box.dataset.line = P.line.join(' ');
  box.dataset.ready = mine || e.over ? '1' : '0';
}

// The defence's moves, each the tables' best, until the player moves again or the game ends.
async function defend(seq) {
  while (seq === P.seq && !P.shown.over && P.shown.board.to_move !== P.side) {
    P.line.push(P.shown.best || P.shown.moves[0].move);
    P.shown = await explore();
  }
  draw();
}

async function play(name) {
  const seq = P.seq;
  const e = P.shown;
  const move = e.moves.find((m) => m.move === name);
  const before = e.value;
  P.told.push({ move: name, before, after: move.value, lost: before - move.value });
  P.line.push(name);
  $('practice').dataset.ready = '0';
  try {
    P.shown = await explore();
    if (seq !== P.seq) return;
    await defend(seq);
  } catch (err) {
    $('practice-error').textContent = err.message;
  }
}

// Starts the practice of `found` (GET /api/practice's answer).
async function begin(found) {
  const seq = ++P.seq;
  P.start = found.position;
  P.line = [];
  P.told = [];
  P.shown = await explore();
  if (seq !== P.seq) return;
  P.side = P.shown.board.to_move;
  $('practice').dataset.difficulty = found.difficulty;
  const c = P.shown.board.captured;
  const ahead = P.side === 'south' ? c[0] - c[1] : c[1] - c[0];
  $('practice').querySelector('.practice-about').textContent = T('practice-about', {
    final: ahead + found.value, value: signed(found.value), seeds: found.seeds, wrong: found.wrong_moves, side: sideName(P.side),
  });
  $('practice-error').textContent = '';
  draw();
}

// Asks for a position to practise; the last asked wins.
async function fetchPractice(params) {
  const asked = ++P.asked;
  $('practice').dataset.ready = '0';
  try {
    const found = await api('GET', `/practice?${new URLSearchParams(params)}`);
    if (asked === P.asked) await begin(found);
  } catch (err) {
    $('practice-error').textContent = err.message;
  }
}

export function buildPractice(box) {
  box.innerHTML = `<div class="practice-head">
      <label><span data-i18n="explorer-game"></span>
        <select class="practice-game">
          <option value="hoyito-ii">Hoyito II</option>
          <option value="hoyito-iii">Hoyito III</option>
          <option value="ayoayo">Ayoayo</option>
        </select></label>
      <label><span data-i18n="practice-difficulty"></span>
        <select class="practice-difficulty">
          <option value="easy" data-i18n="practice-easy"></option>
          <option value="medium" data-i18n="practice-medium" selected></option>
          <option value="hard" data-i18n="practice-hard"></option>
        </select></label>
      <button type="button" class="practice-new" data-i18n="practice-new"></button>
      <button type="button" class="practice-from-game" data-i18n="practice-from-game"></button>
    </div>
    <p class="practice-about"></p>
    <div class="practice-board school-board"></div>
    <p class="practice-status" aria-live="polite"></p>
    <ol class="practice-moves"></ol>
    <p id="practice-error" class="error" role="alert"></p>`;
  box.querySelector('.practice-new').addEventListener('click', () => fetchPractice({
    game: box.querySelector('.practice-game').value,
    difficulty: box.querySelector('.practice-difficulty').value,
  }));
  box.querySelector('.practice-from-game').addEventListener('click', () => {
    if (S.view) fetchPractice({ from: String(S.view.id) });
  });
}

// Opens the practice: from game `from` when given, else a new position of the chosen game.
export async function openPractice({ from, game } = {}) {
  const box = $('practice');
  box.querySelector('.practice-from-game').hidden = !S.view;
  if (game) box.querySelector('.practice-game').value = game;
  if (from !== undefined) await fetchPractice({ from: String(from) });
  else if (!P.shown) await fetchPractice({ game: box.querySelector('.practice-game').value, difficulty: box.querySelector('.practice-difficulty').value });
}

export function relabelPractice() {
  draw();
}
