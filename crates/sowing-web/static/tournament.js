// One tournament (docs/api.md, "Tournaments: arenas and Swiss events"): its page at
// #tournament=ID — what it is and the countdown, the reader's place (Join, Pause or
// Withdraw, Come back), their game one tap away with Berserk, the standings with their
// tie-breaks, each player's games, and the pairings of each round (a Swiss) or the games (an
// arena) with their results — kept live by the tournament's socket. Over the board, a bar
// while the reader plays one of its games: back to the tournament, Berserk before their
// first move. The reader's next game opens by itself while they look at the tournament or
// at one of its games (a first move is due within 30 s). The list and the form are
// tournaments.js's.
import { I18N, T } from './i18n.js';
import { api } from './api.js';
import { gameTitle } from './rules.js';
import { sideName } from './words.js';
import { clockWords } from './pairing.js';
import { S } from './state.js';

const $ = (id) => document.getElementById(id);
const PING_MS = 25000;                 // a socket silent twice this long is dead
const ROUND_GAP_MS = 10000;            // a Swiss's wait after a round's last result (the server's)
const FOLLOW_KEY = 'sowing.tournament'; // the tournament this browser plays in, followed on any view

// The tournament followed: its socket, what it last brought, and what this page did.
const TV = {
  id: null,
  view: null,        // the tournament as the server last gave it
  shown: false,      // its page is on screen
  socket: null,
  stamp: 0,          // bumped for each socket: late events of an old one are ignored
  retry: 0,
  timer: null,
  heard: 0,
  connected: false,
  skew: 0,           // the server's clock minus this browser's, ms
  picked: null,      // the player whose games are listed
  keys: {},          // what each part of the page was drawn from
  opened: new Set(), // the reader's games this page opened (each opens by itself once)
  berserked: new Set(),
  said: '',
};
// Counters the browser tests read.
const counters = { sockets: 0, views: 0, fallbacks: 0, opened: 0 };

const serverNow = () => Date.now() + TV.skew;
const setSkew = (nowMs) => { TV.skew = nowMs - Date.now(); };
const me = () => document.body.dataset.account || '';

function el(tag, props = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === 'dataset') Object.assign(e.dataset, v);
    else if (k in e) e[k] = v;
    else e.setAttribute(k, v);
  }
  e.append(...children.filter((c) => c !== null && c !== undefined));
  return e;
}

// ------------------------------------------------------------ words shared with the list

// A time to come: "4:07", "2 h 05 min", "3 d 4 h".
function timeWords(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const [d, h, m] = [Math.floor(s / 86400), Math.floor((s % 86400) / 3600), Math.floor((s % 3600) / 60)];
  if (d) return T('tournament-days', { days: d, hours: h });
  if (h) return T('tournament-hours', { hours: h, minutes: String(m).padStart(2, '0') });
  return `${m}:${String(s % 60).padStart(2, '0')}`;
}

// What a tournament is, in a line: the game, the clock, the kind, rated, players, by whom.
function summaryWords(t) {
  const parts = [gameTitle(t.game), clockWords(t.base_ms, t.increment_ms),
    T('tournament-kind', { kind: t.kind, minutes: t.minutes || 0, rounds: t.rounds || 0 }),
    T('tournament-rated', { rated: t.rated ? 'yes' : 'no' }), T('tournament-players', { count: t.players })];
  if (t.min_rating !== null && t.min_rating !== undefined) parts.push(T('tournament-min-rating', { rating: t.min_rating }));
  parts.push(t.creator ? T('tournament-by', { name: t.creator }) : T('tournament-by-site'));
  return parts.join(' · ');
}

// Where it stands, with a countdown: to the start, to an arena's end, to a Swiss's next round.
function whenWords(t, boards) {
  const now = serverNow();
  if (t.state === 'upcoming') return T('tournament-starts-in', { time: timeWords(t.starts_ms - now) });
  if (t.state === 'finished') {
    const at = new Date(t.finished_ms || now);
    return T('tournament-finished-at', { time: new Intl.DateTimeFormat(I18N.locale, { dateStyle: 'medium', timeStyle: 'short' }).format(at) });
  }
  if (t.kind === 'arena') {
    return t.ends_ms > now ? T('tournament-ends-in', { time: timeWords(t.ends_ms - now) }) : T('tournament-ending');
  }
  const round = T('tournament-round-of', { round: t.round, rounds: t.rounds });
  const current = (boards || []).filter((b) => b.round === t.round);
  if (!boards || !current.length || current.some((b) => !b.result) || t.round >= t.rounds) return round;
  const last = Math.max(...current.map((b) => b.ended_ms || 0));
  return `${round} ${T('tournament-next-round', { time: timeWords(last + ROUND_GAP_MS - now) })}`;
}

// ------------------------------------------------------------ the socket

function receive(view) {
  const old = TV.view;
  if (view.id !== TV.id) return;
  if (old && old.id === view.id && view.version < old.version) return;
  counters.views += 1;
  setSkew(view.now_ms);
  TV.view = view;
  document.body.dataset.tournament = String(view.id);
  document.body.dataset.tournamentVersion = String(view.version);
  document.body.dataset.tournamentState = view.state;
  follow();
  openNextGame();
  render();
}

// The tournament by a plain request (the socket cannot open, or not yet).
async function fetchView() {
  counters.fallbacks += 1;
  const id = TV.id;
  try {
    receive(await api('GET', `/tournaments/${id}`, undefined, {}, { once: true }));
  } catch (e) {
    if (TV.id !== id) return;
    say(e.message);
    if (e.code === 'unknown-tournament') stop();
  }
}

function connect() {
  clearTimeout(TV.timer);
  if (TV.id === null) return;
  const stamp = ++TV.stamp;
  let heard = false;
  const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/tournaments/${TV.id}/socket`);
  TV.socket = ws;
  counters.sockets += 1;
  ws.onopen = () => { TV.heard = Date.now(); };
  ws.onmessage = (e) => {
    if (stamp !== TV.stamp) return;
    TV.heard = Date.now();
    let m;
    try { m = JSON.parse(e.data); } catch (_) { return; }
    if (m.type === 'tournament') {
      heard = true;
      TV.retry = 0;
      connected(true);
      receive(m);
    }
  };
  ws.onclose = () => {
    if (stamp !== TV.stamp) return;
    TV.socket = null;
    connected(false);
    if (!heard) fetchView();
    // Back by itself: soon, then less often, at most 30 s apart.
    const wait = Math.min(30000, 500 * 2 ** Math.min(TV.retry++, 6)) * (0.8 + 0.4 * Math.random());
    TV.timer = setTimeout(connect, wait);
  };
}

function connected(on) {
  TV.connected = on;
  document.body.dataset.tournamentConnected = on ? '1' : '0';
  const line = $('tournament-live');
  if (line) line.textContent = T('tournament-connected', { connected: on ? 'yes' : 'no' });
}

function stop() {
  TV.stamp += 1;
  clearTimeout(TV.timer);
  if (TV.socket) TV.socket.close();
  TV.socket = null;
  connected(false);
}

function keepAlive() {
  const ws = TV.socket;
  if (!ws || ws.readyState !== WebSocket.OPEN) return;
  if (Date.now() - TV.heard > 2 * PING_MS) { stop(); connect(); return; }
  ws.send(JSON.stringify({ type: 'ping' }));
}

// Whether to keep following: while its page is shown, or while the reader plays in it (so
// that their next game opens and the bar over the board knows it). Kept across reloads.
function follow() {
  const v = TV.view;
  const m = v && v.me;
  const playing = !!m && (!!m.game_id || (m.status === 'active' && v.state !== 'finished'));
  if (playing) localStorage.setItem(FOLLOW_KEY, String(v.id));
  else if (localStorage.getItem(FOLLOW_KEY) === String(TV.id)) localStorage.removeItem(FOLLOW_KEY);
  if (!playing && !TV.shown) stop();
}

// The page of tournament `id` is on screen (tournaments.js shows the view).
function showTournament(id) {
  TV.shown = true;
  if (TV.id !== id) {
    stop();
    Object.assign(TV, { id, view: null, picked: null, keys: {}, said: '', retry: 0 });
    render();
    connect();
  } else {
    TV.keys = {};
    if (!TV.socket) { TV.retry = 0; connect(); }
    render();
  }
}

function hideTournament() {
  if (!TV.shown) return;
  TV.shown = false;
  document.body.dataset.tournamentShown = '';
  if (TV.view) follow();
  renderBar();
}

// ------------------------------------------------------------ the reader's games

const boardOf = (gameId) => (TV.view && gameId ? TV.view.boards.find((b) => b.game_id === gameId) : null);
const shownGame = () => Number(document.body.dataset.live) || null;

function openGame(gameId) {
  TV.opened.add(gameId);
  location.hash = `#live=${gameId}`;
}

// The reader's game just paired opens by itself while they look at this tournament or at
// one of its games.
function openNextGame() {
  const m = TV.view && TV.view.me;
  const gameId = m && m.game_id;
  if (!gameId || TV.opened.has(gameId) || shownGame() === gameId) { if (gameId) TV.opened.add(gameId); return; }
  if (TV.shown || boardOf(shownGame())) {
    counters.opened += 1;
    openGame(gameId);
  }
}

// Whether the reader may berserk their game `gameId` now: an arena's, not yet berserked and,
// as far as this page knows, before their first move.
function mayBerserk(gameId) {
  const v = TV.view;
  const m = v && v.me;
  const board = boardOf(gameId);
  if (!v || v.kind !== 'arena' || !m || !m.seat || m.game_id !== gameId || !board || board.result) return false;
  if (board[`berserk_${m.seat}`] || TV.berserked.has(gameId)) return false;
  const game = S.view && S.view.id === gameId ? S.view : null;
  return !game || (!game.state.over && !game.history.some((h) => h.side === m.seat));
}

function say(text) {
  TV.said = text;
  for (const id of ['tournament-said', 'tournament-bar-said']) if ($(id)) $(id).textContent = text;
}

async function berserk(gameId, b) {
  b.disabled = true;
  try {
    await api('POST', `/live/${gameId}/berserk`, {}, {}, { once: true });
    TV.berserked.add(gameId);
    say(T('tournament-berserked'));
  } catch (e) {
    say(T('tournament-not-done', { error: e.message }));
  }
  TV.keys = {};
  render();
}

async function act(what) {
  const id = TV.id;
  if (what === 'leave' && TV.view.kind === 'swiss' && !confirm(T('tournament-confirm-withdraw'))) return;
  say('');
  for (const b of document.querySelectorAll('#tournament-me button')) b.disabled = true;
  try {
    const view = await api('POST', `/tournaments/${id}/${what}`, {}, {}, { once: true });
    if (!TV.socket && TV.id === id) { TV.retry = 0; connect(); }
    receive(view);
  } catch (e) {
    say(T('tournament-not-done', { error: e.message }));
  }
  TV.keys.me = '';
  render();
}

function button(text, onClick, props = {}) {
  const b = el('button', { type: 'button', ...props }, text);
  b.addEventListener('click', onClick);
  return b;
}

// ------------------------------------------------------------ drawing the page

// Draws part `name` again only when what it shows changed, so that a button is not
// replaced under a finger for nothing.
function part(name, key, make) {
  const box = $(`tournament-${name}`);
  const k = JSON.stringify([I18N.lang, key]);
  if (!box || TV.keys[name] === k) return;
  TV.keys[name] = k;
  box.replaceChildren(...make().filter(Boolean));
}

function render() {
  renderBar();
  if (!TV.shown || !$('tournament-page')) return;
  const v = TV.view;
  document.body.dataset.tournamentShown = String(TV.id);
  if (!v) {
    part('head', ['loading', TV.id], () => [el('p', { className: 'tournament-back' }, el('a', { href: '#tournaments' }, T('tournament-back'))),
      el('p', {}, T('tournament-loading'))]);
    for (const name of ['me', 'standings', 'player', 'boards']) part(name, [null], () => []);
    return;
  }
  part('head', [v.name, v.kind, v.game, v.base_ms, v.increment_ms, v.rated, v.players, v.min_rating, v.creator, v.state], () => head(v));
  part('me', [v.me, v.state, v.kind, me(), v.boards.find((b) => v.me && b.game_id === v.me.game_id), mayBerserk(v.me && v.me.game_id)], () => mine(v));
  part('standings', [v.standings, v.entrants, TV.picked, me()], () => standings(v));
  part('player', [TV.picked, v.boards], () => playerGames(v));
  part('boards', [v.boards, v.round], () => boards(v));
  tick();
}

function head(v) {
  return [el('p', { className: 'tournament-back' }, el('a', { href: '#tournaments', id: 'tournament-back' }, T('tournament-back'))),
    el('h2', { id: 'tournament-name' }, v.name),
    el('p', { className: 'tournament-summary' }, summaryWords(v)),
    el('p', { id: 'tournament-when', className: 'tournament-when', role: 'timer' }, whenWords(v, v.boards)),
    el('p', { id: 'tournament-live', className: 'tournament-live' }, T('tournament-connected', { connected: TV.connected ? 'yes' : 'no' }))];
}

// The reader's place: their status, Join / Pause / Withdraw / Come back, their game.
function mine(v) {
  const out = [];
  if (!me()) {
    return [el('p', {}, T('tournaments-sign-in'), ' ',
      button(T('tournament-sign-in'), () => $('btn-account') && $('btn-account').click(), { id: 'tournament-sign-in' }))];
  }
  const m = v.me || {};
  const status = m.status || 'none';
  out.push(el('p', { id: 'tournament-you', dataset: { status } }, T('tournament-you', { status, over: v.state === 'finished' ? 'yes' : 'no' })));
  const buttons = el('p', { className: 'tournament-buttons' });
  // A Swiss whose last round is paired takes nobody more (the server says 409).
  const open = v.state !== 'finished' && (v.kind === 'arena' || v.round < v.rounds);
  if (v.state !== 'finished' && status === 'active') {
    buttons.append(button(T('tournament-leave', { kind: v.kind }), () => act('leave'), { id: 'tournament-leave' }));
  } else if (open && status !== 'active') {
    buttons.append(button(T('tournament-join', { back: status === 'none' ? 'no' : 'yes' }), () => act('join'),
      { id: 'tournament-join', className: 'primary' }));
  }
  const board = boardOf(m.game_id);
  if (board) {
    const other = m.seat === 'south' ? board.north : board.south;
    out.push(el('p', { id: 'tournament-game', className: 'tournament-game' },
      T('tournament-your-game', { opponent: other || '', side: sideName(m.seat) })));
    buttons.prepend(button(T('tournament-open-game'), () => openGame(m.game_id), { id: 'tournament-open-game', className: 'primary' }));
    if (mayBerserk(m.game_id)) buttons.append(berserkButton(m.game_id, 'tournament-berserk'));
  }
  out.push(buttons, el('p', { id: 'tournament-said', className: 'tournament-said', role: 'status' }, TV.said));
  return out;
}

function berserkButton(gameId, id) {
  const b = button(T('tournament-berserk'), () => berserk(gameId, b), { id, className: 'tournament-berserk' });
  b.title = T.attr('tournament-berserk', 'title');
  return b;
}

const points = (n) => T.number(n, { maximumFractionDigits: 2 });

function standings(v) {
  const out = [el('h3', {}, T('tournament-standings'))];
  if (!v.standings.length) return [...out, el('p', {}, T('tournament-no-players'))];
  const swiss = v.kind === 'swiss';
  const status = new Map(v.entrants.map((e) => [e.name, e.status]));
  const heads = swiss ? ['rank', 'player', 'points', 'buchholz', 'sb', 'games'] : ['rank', 'player', 'points', 'sheet', 'performance', 'games'];
  const th = (h) => {
    const cell = el('th', { scope: 'col', className: `col-${h}` }, T('tournament-col', { col: h }));
    if (['buchholz', 'sb', 'performance'].includes(h)) cell.title = T('tournament-col-about', { col: h });
    return cell;
  };
  const rows = v.standings.map((s) => {
    const who = button(s.name, () => { TV.picked = s.name; render(); $('tournament-player').scrollIntoView({ block: 'nearest' }); },
      { className: 'tournament-player-button', dataset: { name: s.name } });
    const mark = status.get(s.name) && status.get(s.name) !== 'active' ? T('tournament-entrant', { status: status.get(s.name) }) : '';
    const name = el('td', { className: 'col-player' }, who, mark ? el('small', {}, ` ${mark}`) : null);
    const pts = el('td', { className: 'num' }, points(s.points));
    if (s.on_fire) pts.append(el('span', { className: 'on-fire', title: T('tournament-on-fire') }, ' 🔥'));
    const cells = swiss
      ? [pts, el('td', { className: 'num' }, points(s.buchholz)), el('td', { className: 'num' }, points(s.sonneborn_berger))]
      : [pts, el('td', { className: 'sheet' }, (s.sheet || []).join(' ')), el('td', { className: 'num' }, s.performance === null || s.performance === undefined ? '–' : String(s.performance))];
    const tr = el('tr', { dataset: { name: s.name } }, el('td', { className: 'num' }, String(s.rank)), name, ...cells,
      el('td', { className: 'num' }, String(s.games)));
    if (s.name === me()) tr.classList.add('me');
    return tr;
  });
  return [...out, el('table', { id: 'tournament-table', className: 'tournament-table' },
    el('thead', {}, el('tr', {}, ...heads.map(th))), el('tbody', {}, ...rows))];
}

// A board's result as a score ("1–0", "½–½"), "bye", or "playing".
const resultWords = (b) => T('tournament-result', { result: b.result || 'none' });

function gameLink(b) {
  if (!b.game_id) return null;
  const a = el('a', { href: `#live=${b.game_id}`, className: 'tournament-game-link' }, T('tournament-game-link', { over: b.result ? 'yes' : 'no' }));
  a.addEventListener('click', () => TV.opened.add(b.game_id));
  return a;
}

function boardItem(b) {
  if (!b.north) {
    return el('li', { className: 'tournament-board', dataset: { round: b.round, board: b.board } },
      el('span', { className: 'tournament-board-names' }, T('tournament-bye', { name: b.south })));
  }
  const berserk = (side) => (b[`berserk_${side}`] ? el('span', { className: 'berserk-mark', title: T('tournament-berserk') }, ' ⚔') : null);
  const names = el('span', { className: 'tournament-board-names' }, el('span', {}, b.south), berserk('south'), ' – ',
    el('span', {}, b.north), berserk('north'));
  return el('li', { className: 'tournament-board', dataset: { round: b.round, board: b.board, game: b.game_id, result: b.result || '' } },
    names, el('span', { className: 'tournament-result' }, resultWords(b)), gameLink(b));
}

function boards(v) {
  if (v.kind === 'swiss') {
    const out = [el('h3', {}, T('tournament-pairings'))];
    if (!v.boards.length) out.push(el('p', {}, T('tournament-no-games')));
    for (let r = v.round; r >= 1; r--) {
      out.push(el('h4', {}, T('tournament-round', { round: r })),
        el('ol', { className: 'tournament-boards', dataset: { round: r } }, ...v.boards.filter((b) => b.round === r).map(boardItem)));
    }
    return out;
  }
  const games = [...v.boards].sort((a, b) => b.board - a.board);
  return [el('h3', {}, T('tournament-games')), games.length
    ? el('ol', { className: 'tournament-boards', reversed: true }, ...games.map(boardItem))
    : el('p', {}, T('tournament-no-games'))];
}

// The games of the player picked in the standings.
function playerGames(v) {
  const name = TV.picked;
  if (!name) return [];
  const theirs = v.boards.filter((b) => b.south === name || b.north === name);
  const outcome = (b, side) => (!b.result ? 'playing' : b.result === 'bye' ? 'bye' : b.result === 'draw' ? 'draw' : b.result === side ? 'win' : 'loss');
  const items = theirs.map((b) => {
    const side = b.south === name ? 'south' : 'north';
    const words = T('tournament-player-game', {
      round: v.kind === 'swiss' ? b.round : 0, opponent: (side === 'south' ? b.north : b.south) || '', side: sideName(side),
      outcome: outcome(b, side),
    });
    return el('li', { className: 'tournament-board' }, el('span', { className: 'tournament-board-names' }, words), gameLink(b));
  });
  return [el('h3', {}, T('tournament-player-games', { name })),
    items.length ? el('ul', { className: 'tournament-boards' }, ...items) : el('p', {}, T('tournament-no-games'))];
}

// The countdowns move every second; nothing else is drawn again for them.
function tick() {
  const when = $('tournament-when');
  if (TV.shown && TV.view && when) when.textContent = whenWords(TV.view, TV.view.boards);
}

// ------------------------------------------------------------ the bar over the board

function renderBar() {
  const box = $('tournament-bar');
  if (!box) return;
  const v = TV.view;
  const shown = shownGame();
  const board = boardOf(shown);
  const m = (v && v.me) || {};
  const waiting = m.game_id && m.game_id !== shown;
  const visible = !!v && (!!board || !!waiting);
  box.hidden = !visible;
  document.body.dataset.tournamentBar = visible ? String(v.id) : '';
  if (!visible) { TV.keys.bar = ''; return; }
  // Another game is to come: an arena still pairing, a Swiss with a round still to pair.
  const more = v.kind === 'arena' ? serverNow() < v.ends_ms - 30000 : v.round < v.rounds;
  const next = board && board.result && m.status === 'active' && v.state !== 'finished' && more && !waiting;
  const key = JSON.stringify([I18N.lang, v.id, v.name, shown, board && board.result, m.game_id, next, mayBerserk(shown)]);
  if (TV.keys.bar === key) return;
  TV.keys.bar = key;
  const parts = [el('a', { href: `#tournament=${v.id}`, id: 'tournament-bar-back', className: 'tournament-bar-back' }, T('tournament-bar-back', { name: v.name }))];
  if (waiting) {
    parts.push(el('span', {}, T('tournament-bar-waiting')),
      button(T('tournament-open-game'), () => openGame(m.game_id), { id: 'tournament-bar-open', className: 'primary' }));
  } else if (next) {
    parts.push(el('span', { id: 'tournament-bar-next' }, T('tournament-bar-next')));
  }
  if (mayBerserk(shown)) parts.push(berserkButton(shown, 'tournament-bar-berserk'));
  parts.push(el('span', { id: 'tournament-bar-said', className: 'tournament-said', role: 'status' }, TV.said));
  box.replaceChildren(...parts);
}

// ------------------------------------------------------------ start

// After tournaments.js's view: the page's parts, the bar over the board, the ticking, and the
// tournament this browser plays in followed again.
function startTournament(page) {
  page.append(...['head', 'me', 'standings', 'player', 'boards'].map((name) => el(name === 'head' ? 'div' : 'section',
    { id: `tournament-${name}`, className: `tournament-${name}` })));
  $('title').before(el('div', { id: 'tournament-bar', className: 'tournament-bar', hidden: true }));
  I18N.changed.push(() => { TV.keys = {}; render(); connected(TV.connected); });
  // The live game shown, its moves (Berserk goes with the first) and the session.
  new MutationObserver(renderBar).observe(document.body, { attributes: true, attributeFilter: ['data-live', 'data-ply'] });
  new MutationObserver(() => { if (TV.id !== null && (TV.shown || TV.socket)) { stop(); TV.keys = {}; TV.retry = 0; connect(); } })
    .observe(document.body, { attributes: true, attributeFilter: ['data-account'] });
  setInterval(tick, 1000);
  setInterval(keepAlive, PING_MS);
  document.addEventListener('visibilitychange', () => {
    if (!document.hidden && TV.id !== null && !TV.socket && (TV.shown || localStorage.getItem(FOLLOW_KEY))) { TV.retry = 0; connect(); }
  });
  const kept = Number(localStorage.getItem(FOLLOW_KEY));
  if (kept && TV.id === null) { TV.id = kept; connect(); }
}

export { counters, el, timeWords, summaryWords, whenWords, serverNow, setSkew, showTournament, hideTournament, startTournament };
