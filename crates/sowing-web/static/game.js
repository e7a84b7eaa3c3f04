// The game view: the board, the players and whose turn it is, the status line, the moves
// list, the summary at the end and a match's score table, drawn from the server's view of
// the game (S.view); and the actions on it, one at a time (a move, the computer's reply,
// undo, redo, a hint, stepping through the moves, opening a game). Learn, Play a friend and
// the review add to it through state.js's `parts`.
import { T, I18N } from './i18n.js';
import { api } from './api.js';
import {
  moveName, sideName, escapeHtml, isComputer, playerName, letter, nameToPit, resultText, movesAndTurns, describeMove,
  hintWords, touchScreen,
} from './words.js';
import {
  NARROW, board, forgetBoard, buildBoard, paint, counters, animate, animateAgain, sameBoard,
} from './board.js';
import { refreshEval, refreshTableValues } from './helps.js';
import { inBrowser } from './pocket.js';
import { gameTitle, optionsOf, optionLabel, valueLabel } from './rules.js';
import { S, parts } from './state.js';

const $ = (id) => document.getElementById(id);
// The live game being shown (live.js, "Play a friend"), or null for a one-screen game.
const LIVE = () => (parts.live && parts.live.active() ? parts.live : null);

function positionAt(view, ply) {
  if (ply === 0) return view.start;
  return view.history[ply - 1].after;
}

function render() {
  const v = S.view;
  if (!v) { renderEmpty(); return; }
  const G = board();
  if (!G || G.n !== v.rules.pits || G.game !== v.rules.game || G.flipped !== S.flipped || G.upright !== NARROW.matches) {
    buildBoard(v.rules, S.flipped, clickPit);
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
  $('title').textContent = (parts.lesson && parts.lesson.title(v)) || title;
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
    else setStatus(T('status-to-move', { who, touch: touchScreen() }));
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
  if (parts.review) parts.review.decorate(v, ply);
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
  forgetBoard();
  $('evalbar').hidden = true;
  $('summary').hidden = true;
  $('match').hidden = true;
  $('viewing').hidden = true;
  setStatus('');
  delete document.body.dataset.game;
  if (parts.review) parts.review.decorate(null, null);
}

// Undo goes back to a person's turn, taking back the computer's replies: with no move of a
// person to take back (the computer moved first), it would only replay the computer's.
function canUndo(v) {
  if (v.ply === 0) return false;
  const people = ['south', 'north'].filter((side) => !isComputer(v.players[side]));
  return people.length === 0 || v.history.some((h) => people.includes(h.side));
}


function setStatus(text, error) {
  const s = $('status');
  s.textContent = text;
  s.classList.toggle('error', !!error);
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
    ${parts.review ? parts.review.summaryButton() : ''}
    <button type="button" id="btn-review">${escapeHtml(T('summary-review'))}</button>
    <a class="button" href="/api/games/${v.id}/record" download>${escapeHtml(T('download'))}</a></p>`;
  // A new game, as the header's button opens it (newgame.js).
  $('btn-again').addEventListener('click', () => $('btn-new').click());
  $('btn-review').addEventListener('click', () => lookAt(0));
  if ($('btn-analysis')) $('btn-analysis').addEventListener('click', () => parts.review.open());
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
      counters.mismatches += 1;
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
  if (parts.lesson) parts.lesson.check();
  if (S.viewPly === null && !v.state.over && isComputer(v.players[v.state.to_move])) {
    computerMove();
  } else {
    animateAgain(); // a person is to move: the next animation plays again
  }
}

function computerMove() {
  run(async () => {
    const v = S.view;
    const side = v.state.to_move;
    setStatus(T('status-thinking', { who: sideName(side), player: playerName(v.players[side]) }));
    // The engine in the browser chooses and the move is posted as any other; the server's
    // engine plays where the browser cannot.
    const mine = await inBrowser(v, { timeMs: S.thinkMs });
    const r = mine
      ? { ...(await api('POST', `/games/${v.id}/moves`, { move: mine.engine.move, ply: v.ply })), ...mine }
      : await api('POST', `/games/${v.id}/engine`, { play: true, time_ms: S.thinkMs, ply: v.ply });
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
    animateAgain();
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
    const r = (await inBrowser(v, { timeMs: S.thinkMs }))
      || await api('POST', `/games/${v.id}/engine`, { play: false, time_ms: S.thinkMs, ply: v.ply });
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
    animateAgain();
    render();
    const reached = await animate(r.before, r.trace, sideName(r.side), false);
    $('commentary').textContent = describeMove(r.side, r.move, r.trace, v.rules.game);
    if (!sameBoard(reached, r.after)) counters.mismatches += 1;
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
  // Under review, the evaluation bar follows the position shown.
  else if (parts.review && parts.review.valueAt(S.viewPly)) refreshEval();
}

async function load(id) {
  const v = await api('GET', `/games/${id}`);
  if (parts.live) parts.live.leave();
  if (parts.lesson) parts.lesson.leave();
  S.view = v;
  S.viewPly = null;
  S.hint = null;
  S.note = null;
  $('commentary').textContent = '';
  // A new entry in the browser's history, so that Back returns to the game before.
  // (The review's address, #game=ID&analysis, stays as it is.)
  const shown = /^#game=(-?\d+)/.exec(location.hash);
  if (!shown || Number(shown[1]) !== v.id) history.pushState(null, '', `#game=${v.id}`);
  localStorage.setItem('sowing.game', String(id));
  $('summary').hidden = true;
  afterChange();
  if (parts.review) parts.review.fromAddress();
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

function playPass() {
  const v = S.view;
  if (!v || S.busy || isComputer(v.players[v.state.to_move])) return;
  playMove('pass');
}

function flip() {
  if (!S.view) return;
  S.flipped = !S.flipped;
  localStorage.setItem('sowing.flipped', S.flipped ? '1' : '0');
  render();
  refreshEval();
}

export {
  render, renderEmpty, setStatus, run, showMove, tellTurn, afterChange, playMove, playPass, clickPit, undo, redo, hint,
  stepForward, lookAt, load, flip,
};
