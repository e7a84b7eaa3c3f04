// The engine's help beside the board: the evaluation bar (one engine's estimate of the
// position, or the proven value) and, inside the endgame tables, each playable pit's exact
// value drawn on it. Neither in a lesson nor in a game between two people.
import { T } from './i18n.js';
import { api } from './api.js';
import { upperFirst, sideName, scoreWords, barNumber, nameToPit } from './words.js';
import { R, el, board } from './board.js';
import { S, parts } from './state.js';
import { inBrowser, tableValuesInBrowser } from './pocket.js';

const $ = (id) => document.getElementById(id);
// A live game is shown (live.js), or a lesson's game (learn.js).
const live = () => !!parts.live && parts.live.active();
const inLesson = () => !!parts.lesson && parts.lesson.showing(S.view);

// The one engine behind the evaluation bar, whoever plays: the bar must not jump because
// another engine answered.
const EVAL_ENGINE = 'level:6';
// An estimate means something only from this depth on: on 2×12 the start swings between +22
// and −25 up to depth 6, then settles near −55 (depth 7–14); 2×6 reaches depth 18 in 300 ms.
const EVAL_MIN_DEPTH = 8;

// ---------------------------------------------------------------- evaluation bar

async function refreshEval() {
  const v = S.view;
  const bar = $('evalbar');
  // No help in a game between two people, and none in a lesson: it teaches the rule.
  if (live() || inLesson()) { bar.hidden = true; $('eval-words').hidden = true; return; }
  bar.hidden = !$('eval-on').checked;
  $('eval-words').hidden = bar.hidden;
  if (!v || bar.hidden) return;
  const seq = ++S.evalSeq;
  let south = null, title = '', words = '', proven = false, unclear = false;
  // An earlier position of a game under review: the review's value of it.
  const reviewed = S.viewPly !== null && parts.review ? parts.review.valueAt(S.viewPly) : null;
  if (reviewed) {
    south = reviewed.south;
    proven = reviewed.proven;
    const score = { kind: proven ? 'proven' : 'estimate', south };
    words = T('eval-words', { score: upperFirst(scoreWords(score)) });
    title = T('eval-score-title', { engine: reviewed.engine, score: scoreWords(score), depth: reviewed.depth || 0 });
  } else if (v.state.over) {
    south = v.state.captured[0] - v.state.captured[1];
    title = T('eval-final-title');
    words = T('eval-final', { margin: Math.abs(south), who: sideName(south > 0 ? 'south' : 'north') });
  } else {
    try {
      const r = (await inBrowser(v, { engine: EVAL_ENGINE, timeMs: 300 }))
        || await api('POST', `/games/${v.id}/engine`, { time_ms: 300, ply: v.ply, engine: EVAL_ENGINE });
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
  const G = board();
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
  if (!v || !board() || !tableValuesOn() || inLesson() || S.viewPly !== null || S.busy || v.state.over) { clearTableValues(); return; }
  const key = `${v.id}:${v.ply}:${v.state.to_move}:${v.state.pits.join(',')}`;
  if (TV.key === key && TV.answer && !TV.answer.building) { showTableValues(v, TV.answer); return; }
  const seq = ++TV.seq;
  let answer;
  try {
    answer = (await tableValuesInBrowser(v)) || await api('GET', `/games/${v.id}/tables`);
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

// The switches under the board, as this browser last left them.
function startHelps() {
  $('eval-on').addEventListener('change', () => {
    localStorage.setItem('sowing.eval', $('eval-on').checked ? '1' : '0');
    refreshEval();
  });
  $('eval-on').checked = localStorage.getItem('sowing.eval') !== '0';
  initTableValues();
}

export { refreshEval, refreshTableValues, startHelps };
