// The new-game dialog: the game and its board, its rule options, the players (a person or
// the computer at a level) and the computer's thinking time; a few words about the game and
// which seat is harder before it starts. Play a friend adds its own box to it (live.js).
import { T } from './i18n.js';
import { api } from './api.js';
import { escapeHtml, playerArgs } from './words.js';
import { NARROW } from './board.js';
import { loadRules, rules, gameInfo, optionLabel, optionAbout, valueLabel } from './rules.js';
import { load } from './game.js';
import { S } from './state.js';

const $ = (id) => document.getElementById(id);
const PLAYERS = ['human', 'level:1', 'level:2', 'level:3', 'level:4', 'level:5', 'level:6', 'greedy', 'random'];
// Before a game: what it is, in a few words, and which seat is harder (README: the start
// of Hoyito II 2×6 is worth about −25 seeds to South, Hoyito III −31; docs/web.md: Ayoayo's
// about +7 to South, `sow engine` at 1–60 million nodes, since solved: +8; Hoyito II 2×12 about −55 to South,
// `go nodes 20000000`, depth 14). `easier`: the seat a newcomer is given by default.
// `solved`: the proven values of the start for South, the first mover (docs/solve.md: `sow
// solve`, each certificate checked by `sow solve verify`), on the 2×6 board, each with the
// options it was solved under. `bounded`: option sets not solved yet, with the bounds on
// that value their certificates prove.
// Other options, boards and matches show the estimate. The words are the catalogue's.
const ABOUT = {
  'hoyito-ii': {
    text: () => T('about-hoyito-ii'),
    seat: () => T('about-hoyito-ii-seat', { seeds: 25 }),
    seat12: () => T('about-hoyito-ii-seat12', { seeds: 55, positions: 20000000 }),
    solved: [{ options: { casa_rows: 'any' }, value: -28 }],
    bounded: [{ options: { casa_rows: 'opponent' }, lower: -32, upper: -4 }],
    easier: 'north',
  },
  'hoyito-iii': {
    text: () => T('about-hoyito-iii'),
    seat: () => T('about-hoyito-iii-seat', { seeds: 31 }),
    solved: [
      { options: { casa_rows: 'any', final_four: 'capturer' }, value: -36 },
      { options: { casa_rows: 'any', final_four: 'south' }, value: -32 },
      { options: { casa_rows: 'any', final_four: 'north' }, value: -40 },
    ],
    bounded: [
      { options: { casa_rows: 'opponent', final_four: 'capturer' }, lower: -40, upper: -4 },
      { options: { casa_rows: 'opponent', final_four: 'south' }, lower: -40, upper: -4 },
      { options: { casa_rows: 'opponent', final_four: 'north' }, lower: -40, upper: -4 },
    ],
    easier: 'north',
  },
  ayoayo: {
    text: () => T('about-ayoayo'),
    seat: () => T('about-ayoayo-seat', { seeds: 7 }),
    solved: [
      { options: { leftover: 'last-mover' }, value: 8 },
      { options: { leftover: 'holder' }, value: 6 },
    ],
    easier: 'south',
  },
};

// A proven value of the start for South in words: who wins, by how much, and so which seat
// is the harder one.
function solvedWords(value) {
  if (value < 0) return T('about-solved-north', { seeds: -value });
  if (value > 0) return T('about-solved-south', { seeds: value });
  return T('about-solved-draw');
}

// Proven bounds on that value, lower ≤ V ≤ upper, in words: who wins, when the bounds say.
function boundedWords({ lower, upper }) {
  if (upper < 0) return T('about-bounded-north', { least: -upper, most: -lower });
  if (lower > 0) return T('about-bounded-south', { least: lower, most: upper });
  return T('about-bounded', { north: -lower, south: upper });
}

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



// The new-game form from the server's description of the games: one entry per board (and
// per match, where a game has matches), one select per rule option.
async function buildGameForm() {
  const RULES = await loadRules();
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
  const RULES = rules();
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
    const chosen = (sets) => !match && (pits || info.pits[0]) === 6 && (sets || []).find((s) =>
      Object.entries(s.options).every(([field, value]) => $(`f-option-${field}`).value === value));
    const solved = chosen(about.solved), bounded = chosen(about.bounded);
    $('about-seat').textContent = solved ? solvedWords(solved.value)
      : bounded ? boundedWords(bounded)
        : ((pits === 12 && about.seat12) || about.seat)();
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

// The language changed: the form's words again, the choices kept.
function relabelNewGame() {
  labelPlayers();
  if (rules().games.length) labelGameForm();
  seatLabels();
  if ($('new-game').open) showFormFields();
}

// The form's players now, its games and options once the server has described them.
async function startNewGame() {
  fillPlayers();
  try {
    await buildGameForm();
  } catch (e) {
    $('new-error').textContent = T('games-not-loaded', { error: e.message });
  }
  $('f-game').addEventListener('change', showFormFields);
  $('new-form').addEventListener('submit', (e) => {
    if (e.submitter && e.submitter.value === 'cancel') return;
    startGame(e);
  });
  $('btn-new').addEventListener('click', openNewGame);
}

export { chosenGame, seatLabels, openNewGame, relabelNewGame, startNewGame };
