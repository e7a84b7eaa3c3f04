// Words for people, from the catalogues (i18n.js): moves, sides, players, results, what a
// move did, the engine's scores and hints. No drawing here: the other modules put these words
// on the page.
import { I18N, T } from './i18n.js';

// A player spec as the catalogue's messages select on it: {kind, level}.
const playerArgs = (spec) => {
  const m = /^level:(\d)$/.exec(spec || '');
  if (m) return { kind: 'level', level: Number(m[1]), spec };
  return { kind: ['human', 'greedy', 'random'].includes(spec || 'human') ? spec || 'human' : 'other', level: 0, spec: spec || '' };
};

// A sentence's first letter made a capital, as the language writes it.
const upperFirst = (s) => s.charAt(0).toLocaleUpperCase(I18N.locale) + s.slice(1);
// A move as people name it: a pit's letter, or pass.
const moveName = (move) => (move === 'pass' ? T('move-pass') : move);
// A side as people name it: South, North.
const sideName = (side) => T('side', { side });
// Text made safe to put into innerHTML (players' names come from strangers).
const escapeHtml = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const isComputer = (spec) => spec && spec !== 'human';
// 'yes' on a screen played by touch (no keyboard to type a letter, no mouse to click): the
// words say "tap" there.
const touchScreen = () => (matchMedia('(pointer: coarse)').matches ? 'yes' : 'no');

function playerName(spec) {
  return T('player-name', playerArgs(spec));
}

// A pit's letter: South's row A, B, … from the left, North's a, b, ….
function letter(i, n) {
  return i < n ? String.fromCharCode(65 + i) : String.fromCharCode(97 + i - n);
}

// A pit's index from its letter (the inverse of letter).
function nameToPit(name, n) {
  const code = name.charCodeAt(0);
  return code >= 97 ? n + code - 97 : code - 65;
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
// A value for people, its sign always written: "+8", "−4", "0", "+2.5".
const signed = (v) => (v > 0 ? `+${v}` : v < 0 ? `−${-v}` : '0');
const barNumber = (s) => (Math.round(s) === 0 ? '0' : `${s > 0 ? '+' : '−'}${Math.abs(Math.round(s))}`);

export {
  playerArgs, upperFirst, moveName, sideName, escapeHtml, isComputer, touchScreen, playerName, letter, nameToPit,
  endWords, liveEnd, resultText, movesAndTurns, listed, describeMove, scoreWords, hintWords, barNumber, signed,
};
