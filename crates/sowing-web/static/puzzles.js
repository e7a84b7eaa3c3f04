// Puzzles (docs/puzzles.md, docs/web.md "Puzzles"): positions with exactly one move that
// keeps the proven value. A dialog opened from the header: a puzzle near the player's
// rating (with the themes chosen), the daily puzzle, or a streak that gets harder until the
// first miss. The player plays the line, the page plays the replies; a right or wrong move
// is told at once, and after a miss the right move is shown and played. The puzzle rating
// is the server's for an account, this browser's (glicko2.js) for anyone else.
import { I18N, T, translatePage } from './i18n.js';
import { api } from './api.js';
import { S } from './state.js';
import { whenAccountChanges } from './account.js';
import { drawSmallBoard } from './smallboard.js';
import { NEW_PLAYER, rate } from './glicko2.js';

const $ = (id) => document.getElementById(id);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// The themes (docs/puzzles.md) and the games, with the messages that name them.
const THEMES = [
  { code: 'relay-chain', msg: 'theme-relay-chain' },
  { code: 'casa-chain', msg: 'theme-casa-chain' },
  { code: 'extra-turn', msg: 'theme-extra-turn' },
  { code: 'feeding', msg: 'theme-feeding' },
  { code: 'last-four', msg: 'theme-last-four' },
  { code: 'forced-pass', msg: 'theme-forced-pass' },
  { code: 'sweep', msg: 'theme-sweep' },
];
const GAMES = [
  { code: 'hoyito-ii', msg: 'puzzles-game-hoyito-ii' },
  { code: 'hoyito-iii', msg: 'puzzles-game-hoyito-iii' },
  { code: 'ayoayo', msg: 'puzzles-game-ayoayo' },
];
const themeWords = (code) => T(THEMES.find((t) => t.code === code).msg);
// A reply, and the right move after a miss, are played after this pause.
const REPLY_MS = 450;
// A streak's puzzles: the first near this rating, each next one this much harder.
const STREAK_FROM = 1000;
const STREAK_STEP = 150;
// Puzzles this browser has met, left out of the next ones (the server takes 200 at most).
const SEEN_KEPT = 150;

// The puzzle shown and where the player is in its line.
const P = {
  puzzle: null, mode: 'rated', at: 0, missed: false, done: false, busy: false,
  streak: 0, account: null, status: null,
};

const store = {
  get: (key, fallback) => { try { return JSON.parse(localStorage.getItem(key)) ?? fallback; } catch (_) { return fallback; } },
  set: (key, value) => localStorage.setItem(key, JSON.stringify(value)),
};
const localRating = (game) => store.get(`sowing.puzzles.rating.${game}`, NEW_PLAYER);
const game = () => $('puzzle-game').value;

function build() {
  const dialog = document.createElement('dialog');
  dialog.id = 'puzzles';
  dialog.className = 'puzzles';
  dialog.setAttribute('aria-labelledby', 'puzzles-title');
  const boxes = THEMES.map((t) => `<label class="check"><input type="checkbox" value="${t.code}"> <span class="theme-name"></span></label>`).join('');
  dialog.innerHTML = `<div class="puzzles-head">
      <h2 id="puzzles-title" data-i18n="puzzles-title"></h2>
      <button type="button" id="puzzles-close" data-i18n="puzzles-close"></button>
    </div>
    <p class="puzzles-choose"><label><span data-i18n="puzzles-game"></span>
      <select id="puzzle-game">${GAMES.map((g) => `<option value="${g.code}"></option>`).join('')}</select></label>
      <button type="button" id="puzzle-rated" class="primary" data-i18n="puzzles-rated"></button>
      <button type="button" id="puzzle-daily" data-i18n="puzzles-daily"></button>
      <button type="button" id="puzzle-streak" data-i18n="puzzles-streak"></button></p>
    <details class="puzzle-themes"><summary data-i18n="puzzles-themes"></summary><p>${boxes}</p></details>
    <p id="puzzle-info" class="puzzle-info"></p>
    <div id="puzzle-board" class="puzzle-board"></div>
    <p id="puzzle-status" class="puzzle-status" role="status" aria-live="polite"></p>
    <p id="puzzle-rating" class="puzzle-rating"></p>
    <p><button type="button" id="puzzle-next" class="primary" hidden data-i18n="puzzles-next"></button></p>`;
  document.body.append(dialog);
  $('puzzles-close').addEventListener('click', () => dialog.close());
  $('puzzle-rated').addEventListener('click', () => start('rated'));
  $('puzzle-daily').addEventListener('click', () => start('daily'));
  $('puzzle-streak').addEventListener('click', () => { P.streak = 0; start('streak'); });
  $('puzzle-next').addEventListener('click', () => {
    if (P.mode === 'streak' && P.missed) P.streak = 0; // a new streak
    start(P.mode === 'daily' ? 'rated' : P.mode);
  });
  const chosen = store.get('sowing.puzzles.themes', []);
  for (const box of dialog.querySelectorAll('.puzzle-themes input')) {
    box.checked = chosen.includes(box.value);
    box.addEventListener('change', () => store.set('sowing.puzzles.themes',
      [...dialog.querySelectorAll('.puzzle-themes input:checked')].map((b) => b.value)));
  }
  $('puzzle-game').addEventListener('change', () => start(P.mode === 'daily' ? 'daily' : 'rated'));
  relabel();
}

function relabel() {
  const dialog = $('puzzles');
  translatePage(dialog);
  for (const option of $('puzzle-game').options) option.textContent = T(GAMES.find((g) => g.code === option.value).msg);
  for (const box of dialog.querySelectorAll('.puzzle-themes input')) box.nextElementSibling.textContent = themeWords(box.value);
  draw();
}

// The status line: `words` gives it in the reader's language (again after a change).
function say(words) {
  P.status = words;
  $('puzzle-status').textContent = words ? words() : '';
}

function ratingWords() {
  if (!P.puzzle) return '';
  const mine = P.account || localRating(P.puzzle.game);
  const words = T('puzzles-your-rating', { rating: Math.round(mine.rating), deviation: Math.round(mine.deviation) });
  return P.mode === 'streak' ? `${words} · ${T('puzzles-streak-count', { count: P.streak })}` : words;
}

function draw() {
  const p = P.puzzle;
  const dialog = $('puzzles');
  if (!dialog || !p) return;
  const state = p.states[P.at];
  const mine = !P.done && !P.busy && state.to_move === p.mover && P.at < p.moves.length;
  drawSmallBoard($('puzzle-board'), state, { onMove: mine ? play : null, marked: P.missed ? P.right : null });
  const themes = P.done ? p.themes.map(themeWords).join(', ') : '';
  $('puzzle-info').textContent = [
    p.daily ? T('puzzles-daily-of', { day: p.daily }) : '',
    p.mover === 'south' ? T('puzzles-find-south') : T('puzzles-find-north'),
    P.done ? T('puzzles-puzzle-rating', { rating: Math.round(p.rating.rating) }) : '',
    themes,
  ].filter(Boolean).join(' · ');
  $('puzzle-rating').textContent = ratingWords();
  if (P.status) $('puzzle-status').textContent = P.status();
  $('puzzle-next').hidden = !P.done;
  Object.assign(dialog.dataset, {
    puzzle: String(p.id), at: String(P.at), mode: P.mode, streak: String(P.streak),
    result: P.done ? (P.missed ? 'missed' : 'solved') : '', ready: P.busy ? '0' : '1',
  });
}

async function start(mode) {
  P.mode = mode;
  const dialog = $('puzzles');
  dialog.dataset.ready = '0';
  const seen = store.get('sowing.puzzles.seen', []);
  const q = new URLSearchParams({ game: game() });
  let path;
  if (mode === 'daily') {
    path = `/puzzles/daily?${q}`;
  } else {
    // A signed-in player's rating is the server's: it is not sent. This browser's own is,
    // once it has moved (until then it is a new player's, as the server assumes).
    const mine = localRating(game());
    if (mode === 'streak') q.set('rating', String(STREAK_FROM + STREAK_STEP * P.streak));
    else if (!P.account && mine.deviation !== NEW_PLAYER.deviation) q.set('rating', String(Math.round(mine.rating)));
    const themes = store.get('sowing.puzzles.themes', []);
    if (mode === 'rated' && themes.length) q.set('themes', themes.join(','));
    if (seen.length) q.set('exclude', seen.join(','));
    path = `/puzzles/next?${q}`;
  }
  let answer;
  try {
    answer = await api('GET', path);
  } catch (e) {
    P.puzzle = null;
    $('puzzle-board').replaceChildren();
    $('puzzle-info').textContent = '';
    $('puzzle-next').hidden = true;
    say(e.status === 404 ? () => T('puzzles-none') : () => e.message);
    dialog.dataset.ready = '1';
    dialog.dataset.puzzle = '';
    return;
  }
  P.puzzle = { ...answer.puzzle, daily: answer.daily };
  P.account = answer.player;
  P.at = 0;
  P.missed = false;
  P.done = false;
  P.busy = false;
  P.right = null;
  store.set('sowing.puzzles.seen', [answer.puzzle.id, ...seen.filter((id) => id !== answer.puzzle.id)].slice(0, SEEN_KEPT));
  say(() => T('puzzles-your-move'));
  draw();
}

// The replies, each after a pause, until the player is to move again or the line ends.
async function replies() {
  const p = P.puzzle;
  P.busy = true;
  draw();
  while (P.at < p.moves.length && p.states[P.at].to_move !== p.mover) {
    await sleep(REPLY_MS);
    if (P.puzzle !== p) return;
    P.at += 1;
    draw();
  }
  P.busy = false;
  if (P.at >= p.moves.length) await finish();
  draw();
}

async function play(name) {
  const p = P.puzzle;
  if (P.busy || P.done || !p) return;
  const right = p.moves[P.at];
  if (name === right) {
    P.at += 1;
    say(() => T('puzzles-right'));
    await replies();
    return;
  }
  // A miss: told at once, then the right move shown and played.
  P.missed = true;
  P.right = right;
  P.busy = true;
  say(() => T('puzzles-wrong', { move: name, right }));
  draw();
  await sleep(REPLY_MS * 2);
  if (P.puzzle !== p) return;
  P.at += 1;
  P.busy = false;
  await finish();
  draw();
}

// The result: rated (not in a streak) on the server, and here for a player without account.
async function finish() {
  const p = P.puzzle;
  P.done = true;
  if (P.mode === 'streak') {
    if (P.missed) {
      const best = Math.max(P.streak, store.get('sowing.puzzles.best-streak', 0));
      store.set('sowing.puzzles.best-streak', best);
      const count = P.streak;
      say(() => T('puzzles-streak-over', { count, best }));
    } else {
      P.streak += 1;
      const count = P.streak;
      say(() => T('puzzles-streak-solved', { count }));
    }
    return;
  }
  const right = P.right;
  say(P.missed ? () => T('puzzles-missed', { right }) : () => T('puzzles-solved'));
  const mine = localRating(p.game);
  const body = { solved: !P.missed };
  if (!P.account) body.rating = { rating: mine.rating, deviation: mine.deviation, volatility: mine.volatility };
  try {
    const after = await api('POST', `/puzzles/${p.id}/result`, body);
    if (after.player) {
      P.account = after.player;
    } else {
      store.set(`sowing.puzzles.rating.${p.game}`, rate(mine, p.rating, P.missed ? 0 : 1));
    }
    p.rating = after.puzzle;
  } catch (e) {
    $('puzzle-rating').textContent = e.message;
  }
}

export function openPuzzles() {
  const dialog = $('puzzles');
  const shown = S.view && S.view.rules && S.view.rules.game;
  if (!P.puzzle && GAMES.some((g) => g.code === shown)) $('puzzle-game').value = shown;
  if (!dialog.open) dialog.showModal();
  if (!P.puzzle) start('rated');
}

export function startPuzzles() {
  build();
  const button = document.createElement('button');
  button.type = 'button';
  button.id = 'btn-puzzles';
  button.dataset.i18n = 'nav-puzzles';
  button.textContent = T('nav-puzzles');
  button.addEventListener('click', openPuzzles);
  document.querySelector('header.top nav').append(button);
  I18N.changed.push(relabel);
  // Signed in or out: the next puzzle is asked for by the other rating.
  whenAccountChanges(() => { P.account = null; });
}
