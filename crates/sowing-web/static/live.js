// Play a friend (docs/web.md, "Play a friend"): a game between two seats on two devices,
// watched by anyone with the link. Drawn with game.js's view and board.js's animation; this
// file adds the live panel (names, clocks, offers, links, spectators) and the socket, which
// reconnects by itself and fetches what it missed. A move is applied once, by its ply:
// never lost, never doubled. The way in (the new-game dialog's friend box, the lobby) is
// lobby.js's.
import { I18N, T } from './i18n.js';
import { api } from './api.js';
import { moveName, sideName, liveEnd, touchScreen } from './words.js';
import { animate, sameBoard, animateAgain, counters as boardCounters } from './board.js';
import { render, setStatus, run, tellTurn } from './game.js';
import { claim, ratingText } from './account.js';
import { phraseBox, relabelPhrases, showSaid } from './phrases.js';
import { S, parts } from './state.js';

const LV = {
  id: null,          // the live game shown, or null
  token: null,       // this device's seat token for it, if any
  seat: null,        // the seat the server says the token holds ('south', 'north', null)
  live: null,        // the server's live status (seats, clock, offers, result)
  clockAt: 0,        // performance.now() when `live.clock` was received
  socket: null,
  stamp: 0,          // bumped for each socket: late events of an old one are ignored
  retry: 0,
  connected: false,
  queue: Promise.resolve(), // moves, states and statuses, applied one at a time
};
// Counters the browser tests read.
const counters = { states: 0, moves: 0, animated: 0, skipped: 0, reconnects: 0, refetched: 0, rounds: 0 };

const $ = (id) => document.getElementById(id);
const other = (side) => (side === 'south' ? 'north' : 'south');
const seatKey = (id) => `sowing.seat.${id}`;
const inviteKey = (id) => `sowing.invite.${id}`;

// A seat as people know it: its player's name, with the side ("Ana (South)"), or the side.
function seatName(live, side) {
  const name = live && live.seats[side] && live.seats[side].name;
  return name ? T('seat-name', { name, side: sideName(side) }) : sideName(side);
}

// How a live game ended, winner first: "Ana (South) wins, 28–20: the last four went to
// South" (why it ended: words.js's liveEnd, from the server's codes).
function resultWords(live, v) {
  const r = live.result;
  const seeds = v ? v.state.captured : null;
  const [first, second] = !seeds ? [0, 0] : r.outcome === 'north' ? [seeds[1], seeds[0]] : seeds;
  return T('live-result', {
    outcome: r.outcome, who: ['south', 'north'].includes(r.outcome) ? seatName(live, r.outcome) : '',
    score: seeds ? 'yes' : 'no', first, second, why: liveEnd(r, v),
  });
}

// ------------------------------------------------------------ the API, with the seat's token

// The page's api() (api.js: retries what is safe to send again), with this seat's token.
function liveApi(method, path, body) {
  return api(method, path, body, LV.token ? { 'X-Seat-Token': LV.token } : {});
}

// ------------------------------------------------------------ entering and leaving a live game

function active() { return LV.id !== null; }

// Whether this page may move now: its seat's turn, both seats taken, no result.
function mayMove(v) {
  return active() && !!LV.seat && !!LV.live && !LV.live.result && v.state.to_move === LV.seat
    && LV.live.seats.south.taken && LV.live.seats.north.taken && !v.provisional;
}

// The address names a live game: #live=ID, with &seat=TOKEN in a player's link (the
// fragment never reaches the server). A token seen once is kept for that game.
function fromAddress() {
  const m = /#live=(\d+)(?:&seat=([0-9a-f]{32}))?/.exec(location.hash);
  if (!m) {
    if (active()) leave();
    return false;
  }
  const id = Number(m[1]);
  if (m[2]) localStorage.setItem(seatKey(id), m[2]);
  const token = m[2] || localStorage.getItem(seatKey(id));
  if (LV.id === id && LV.token === token) return true;
  enter(id, token).catch((e) => setStatus(T('live-not-opened', { id: String(id), error: e.message }), true));
  return true;
}

async function enter(id, token) {
  leave();
  if (parts.lesson) parts.lesson.leave();
  LV.id = id;
  LV.token = token || null;
  const r = await liveApi('GET', `/live/${id}`);
  if (LV.id !== id) return;
  $('summary').hidden = true;
  $('commentary').textContent = '';
  applyFull(r);
  connect();
  claim(id, LV.token, r.live);
}

function leave() {
  LV.stamp += 1;
  if (LV.socket) LV.socket.close();
  LV.socket = null;
  LV.id = null;
  LV.token = null;
  LV.seat = null;
  LV.live = null;
  LV.connected = false;
  const panel = $('live-panel');
  if (panel) panel.hidden = true;
  document.body.dataset.live = '';
  document.body.dataset.liveConnected = '0';
}

// ------------------------------------------------------------ the socket

function connect() {
  const id = LV.id;
  const stamp = ++LV.stamp;
  const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/live/${id}/socket`);
  LV.socket = ws;
  ws.onopen = () => ws.send(JSON.stringify({ type: 'hello', token: LV.token }));
  ws.onmessage = (e) => {
    if (stamp !== LV.stamp) return;
    let m;
    try { m = JSON.parse(e.data); } catch (_) { return; }
    onMessage(m);
  };
  ws.onclose = () => {
    if (stamp !== LV.stamp) return;
    LV.connected = false;
    document.body.dataset.liveConnected = '0';
    renderLive();
    // Back by itself: soon, then less often, never more than 5 s apart.
    const wait = Math.min(5000, 250 * 2 ** Math.min(LV.retry++, 5));
    setTimeout(() => {
      if (stamp !== LV.stamp) return;
      counters.reconnects += 1;
      connect();
    }, wait);
  };
}

function enqueue(step) {
  LV.queue = LV.queue.then(step).catch((e) => {
    console.warn('live:', e);
    setStatus(e.message, true);
  });
  return LV.queue;
}

function onMessage(m) {
  switch (m.type) {
    case 'state':
      LV.retry = 0;
      LV.connected = true;
      document.body.dataset.liveConnected = '1';
      LV.seat = m.seat;
      counters.states += 1;
      enqueue(() => catchUp(m));
      break;
    case 'move':
      counters.moves += 1;
      enqueue(() => applyMove(m.move));
      break;
    case 'status':
      enqueue(() => applyStatus(m.live));
      break;
    case 'next-round':
      enqueue(() => followNextRound(m.game));
      break;
    case 'error':
      setStatus(T('live-socket-error', { detail: m.error }), true);
      break;
    default:
      break;
  }
}

// ------------------------------------------------------------ applying what arrives

function applyFull(r) {
  LV.live = r.live;
  LV.clockAt = performance.now();
  S.view = r.game;
  S.viewPly = null;
  S.hint = null;
  if (LV.seat) S.flipped = LV.seat === 'north';
  render();
}

async function refetch() {
  counters.refetched += 1;
  const id = LV.id;
  const r = await liveApi('GET', `/live/${id}`);
  if (LV.id === id) applyFull(r);
}

const sameStart = (a, b) => a.history.every((h, i) => b.history[i] && b.history[i].move === h.move);

// The whole game, on (re)connecting: the moves this page is missing are animated (each
// read again with its trace), unless history was rewritten meanwhile.
async function catchUp(m) {
  const v = S.view;
  const fresh = m.game;
  const extends_ = v && v.id === fresh.id && fresh.ply > v.ply && LV.live
    && LV.live.takebacks === m.live.takebacks && sameStart(v, fresh);
  if (extends_ && fresh.ply - v.ply <= 4 && S.viewPly === null) {
    for (let ply = v.ply + 1; ply <= fresh.ply; ply++) {
      const r = await liveApi('GET', `/games/${fresh.id}/moves/${ply}`);
      await showArrival(r);
    }
  }
  applyFull({ live: m.live, game: fresh });
}

// Animates a move that arrived (from the socket, or read again), and shows it provisionally
// until the full view comes (with the legal moves).
async function showArrival(mv) {
  const v = S.view;
  if (!v || mv.ply <= v.ply) { counters.skipped += 1; return; }
  if (mv.ply > v.ply + 1) { await refetch(); return; }
  if (S.viewPly === null) {
    render();
    $('btn-skip').disabled = false;
    const reached = await animate(v.state, mv.trace, sideName(mv.side), false);
    if (!sameBoard(reached, mv.after)) boardCounters.mismatches += 1;
    counters.animated += 1;
  }
  $('commentary').textContent = tellTurn(mv.side, mv.move, mv.trace, v.rules.game, mv.ply);
  const next = JSON.parse(JSON.stringify(v));
  next.ply = mv.ply;
  next.history.push({ ply: mv.ply, move: mv.move, side: mv.side, after: mv.after });
  next.state = Object.assign({}, v.state, { pits: mv.after.pits, captured: mv.after.captured, to_move: mv.after.to_move, legal: [] });
  next.redo = [];
  next.provisional = true;
  S.view = next;
  render();
}

// How long the end of a round stays on screen before the page moves to the next.
const NEXT_ROUND_AFTER_MS = 2500;

// A match's round ended by the rules and the server started the next: once the last move
// and the result have been seen, the page follows there with the same seat token.
function followNextRound(game) {
  const from = LV.id;
  counters.rounds += 1;
  setStatus(T('live-round-over', { result: LV.live && LV.live.result ? resultWords(LV.live, S.view) : '' }));
  setTimeout(() => {
    if (LV.id !== from) return;
    location.hash = LV.seat && LV.token ? `#live=${game}&seat=${LV.token}` : `#live=${game}`;
  }, NEXT_ROUND_AFTER_MS);
}

async function applyMove(mv) {
  await showArrival(mv);
}

async function applyStatus(status) {
  const rewound = LV.live && status.takebacks !== LV.live.takebacks;
  LV.live = status;
  LV.clockAt = performance.now();
  const v = S.view;
  if (!v || rewound || status.ply !== v.ply || v.provisional || (status.result && !v.state.over && status.result.reason === 'rules')) {
    await refetch();
  } else {
    render();
  }
}

// The answer to this page's own move: animated unless the socket brought it first.
async function applyOwn(r, side, name) {
  const v = S.view;
  if (r.game.ply === v.ply + 1 && S.viewPly === null) {
    render();
    $('btn-skip').disabled = false;
    const reached = await animate(v.state, r.trace, sideName(side), false);
    if (!sameBoard(reached, { pits: r.game.state.pits, captured: r.game.state.captured })) boardCounters.mismatches += 1;
    counters.animated += 1;
    $('commentary').textContent = tellTurn(side, name, r.trace, v.rules.game, r.game.ply);
  } else {
    counters.skipped += 1;
  }
  if (r.game.ply >= S.view.ply) applyFull({ live: r.live, game: r.game });
}

// ------------------------------------------------------------ acts

function play(name) {
  run(async () => {
    const v = S.view;
    const side = v.state.to_move;
    animateAgain();
    setStatus(T('status-plays', { who: sideName(side), move: moveName(name) }));
    const r = await liveApi('POST', `/live/${LV.id}/moves`, { move: name, ply: v.ply });
    await enqueue(() => applyOwn(r, side, name));
  });
}

function act(what) {
  run(async () => {
    const r = await liveApi('POST', `/live/${LV.id}/${what}`);
    await enqueue(async () => {
      if (r.live.takebacks !== (LV.live && LV.live.takebacks) || r.game.ply !== S.view.ply) applyFull(r);
      else { LV.live = r.live; LV.clockAt = performance.now(); render(); }
    });
  });
}

function resign() {
  if (!confirm(T('live-confirm-resign', { match: S.view && S.view.match ? 'yes' : 'no' }))) return;
  act('resign');
}

// ------------------------------------------------------------ drawing the live parts

function clockText(ms) {
  ms = Math.max(0, ms);
  if (ms < 10000) return `${Math.floor(ms / 1000)}.${Math.floor((ms % 1000) / 100)}`;
  const s = Math.ceil(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = `${String(s % 60).padStart(2, '0')}`;
  // Correspondence: days, then hours and minutes.
  if (h >= 24) return T('live-clock-days', { days: Math.floor(h / 24), hours: h % 24, minutes: m });
  return h ? `${h}:${String(m).padStart(2, '0')}:${rest}` : `${m}:${rest}`;
}

function timeLeft(side) {
  const c = LV.live && LV.live.clock;
  if (!c) return null;
  let ms = c[`${side}_ms`];
  if (c.running === side && !LV.live.result) ms -= performance.now() - LV.clockAt;
  return Math.max(0, ms);
}

function tickClocks() {
  for (const el of document.querySelectorAll('.live-clock')) {
    const ms = timeLeft(el.dataset.side);
    el.textContent = ms === null ? '' : clockText(ms);
    el.classList.toggle('running', !!(LV.live && LV.live.clock && LV.live.clock.running === el.dataset.side && !LV.live.result));
    el.classList.toggle('low', ms !== null && ms < 10000);
  }
}

// Called by game.js at the end of render(): the names and clocks beside the board, the
// live panel, and the one-screen buttons that do not apply.
function decorate(v) {
  if (!active() || !LV.live) return;
  const live = LV.live;
  document.body.dataset.live = String(LV.id);
  document.body.dataset.liveSeat = LV.seat || 'watcher';
  document.body.dataset.ply = String(v.ply);
  for (const [box, side] of [['player-top', S.flipped ? 'south' : 'north'], ['player-bottom', S.flipped ? 'north' : 'south']]) {
    const el = $(box);
    const seat = live.seats[side];
    const name = document.createElement('span');
    name.className = 'live-name';
    name.textContent = ` ${T('live-seat', { name: seat.name || '', named: seat.name ? 'yes' : 'no', taken: seat.taken ? 'yes' : 'no', you: LV.seat === side ? 'yes' : 'no' })}`;
    name.title = name.textContent.trim();
    el.append(name);
    // The account's rating in this game at this speed (account.js says it).
    if (seat.rating) {
      const rating = document.createElement('span');
      rating.className = 'live-rating';
      rating.dataset.side = side;
      rating.textContent = ratingText(seat);
      el.append(rating);
    }
    if (live.clock) {
      const clock = document.createElement('span');
      clock.className = 'live-clock';
      clock.dataset.side = side;
      el.append(clock);
    }
  }
  tickClocks();
  for (const id of ['btn-undo', 'btn-redo', 'btn-hint']) $(id).disabled = true;
  if (!mayMove(v) && !S.busy && !v.state.over && !live.result) {
    const who = live.seats[v.state.to_move].name || sideName(v.state.to_move);
    setStatus(!live.seats.south.taken || !live.seats.north.taken ? T('live-waiting-seat')
      : T('live-to-move', { who, seated: LV.seat ? 'yes' : 'no' }));
  } else if (mayMove(v) && !S.busy) {
    // A first move is due in time in a game both players began together (docs/api.md).
    const due = live.first_move_by_ms && live.clock ? Math.ceil((live.first_move_by_ms - live.clock.now_ms) / 1000) : null;
    const yours = T('live-your-move', { touch: touchScreen() });
    setStatus(due === null ? yours : `${yours} ${T('live-first-move-due', { seconds: due })}`);
  }
  if (live.result && !S.busy) {
    setStatus(live.next_round ? T('live-round-over', { result: resultWords(live, v) })
      : T('status-over', { result: resultWords(live, v) }));
  }
  renderLive();
}

function button(text, onClick, title) {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = text;
  if (title) b.title = title;
  b.addEventListener('click', onClick);
  return b;
}

function link(label, url, name) {
  const p = document.createElement('p');
  p.className = 'live-link';
  const l = document.createElement('label');
  l.textContent = label + ' ';
  const input = document.createElement('input');
  input.readOnly = true;
  input.value = url;
  input.name = name;
  input.addEventListener('focus', () => input.select());
  l.append(input);
  p.append(l, ' ', button(T('copy'), async () => {
    try { await navigator.clipboard.writeText(url); setStatus(T('live-link-copied', { label })); } catch (_) { input.select(); }
  }));
  return p;
}

// The offers standing, in words: to a player, their opponent's; to a spectator, each
// one made and by whom. No offer, no words.
function offerNotes(offers, mine, live) {
  const notes = [];
  for (const kind of ['draw', 'takeback', 'rematch']) {
    const by = offers[kind];
    if (!by || by === mine) continue;
    notes.push(T('live-offer', { kind, mine: mine ? 'yes' : 'no', who: seatName(live, by) }));
  }
  return notes;
}

function renderLive() {
  const panel = $('live-panel');
  if (!panel || !active() || !LV.live) return;
  const live = LV.live;
  panel.hidden = false;
  const mine = LV.seat, theirs = mine && other(mine);
  const buttons = $('live-buttons');
  buttons.innerHTML = '';
  const offers = live.offers;
  if (mine && !live.result) {
    // Each offer's button: to make it, as made, or to accept the opponent's.
    const state = (kind) => (offers[kind] === theirs ? 'theirs' : offers[kind] === mine ? 'mine' : 'none');
    buttons.append(button(T('live-resign'), resign));
    buttons.append(button(T('live-draw', { state: state('draw') }), () => {
      if (offers.draw !== theirs || window.confirm(T('live-confirm-draw'))) act('draw');
    }));
    if (offers.draw === mine) buttons.lastChild.disabled = true;
    buttons.append(button(T('live-takeback', { state: state('takeback') }), () => {
      if (offers.takeback !== theirs || window.confirm(T('live-confirm-takeback'))) act('takeback');
    }, T.attr('live-takeback', 'title')));
    if (offers.takeback === mine || S.view.ply === 0) buttons.lastChild.disabled = true;
  }
  if (mine && live.result && !live.rematch && !live.next_round) {
    const rematch = offers.rematch === theirs ? 'theirs' : offers.rematch === mine ? 'mine' : 'none';
    buttons.append(button(T('live-rematch', { state: rematch }), () => act('rematch')));
    if (offers.rematch === mine) buttons.lastChild.disabled = true;
  }
  if (mine && (offers.draw === theirs || offers.takeback === theirs || offers.rematch === theirs)) buttons.append(button(T('live-decline'), () => act('decline')));
  if (live.rematch) {
    buttons.append(button(T('live-go-rematch', { seated: mine ? 'yes' : 'no' }), () => {
      location.hash = mine && LV.token ? `#live=${live.rematch}&seat=${LV.token}` : `#live=${live.rematch}`;
    }));
  }
  $('live-note').textContent = offerNotes(offers, mine, live).join(' ');
  showSaid(LV.id, live, mine, playerLabel);
  // The server was away (a restart): the clocks did not run meanwhile (docs/api.md).
  const credited = live.clock ? live.clock.credited_ms : 0;
  $('live-credit').hidden = !credited;
  if (credited) $('live-credit').textContent = T('live-credited', { seconds: (credited / 1000).toFixed(1) });
  const m = S.view && S.view.match;
  $('live-match').hidden = !m;
  if (m) {
    $('live-match').textContent = T('live-match', {
      round: S.view.round, rounds: m.rounds, south: m.wins[0], north: m.wins[1], southSeeds: m.seeds[0], northSeeds: m.seeds[1],
      winner: m.winner || 'none', who: m.winner && m.winner !== 'draw' ? sideName(m.winner) : '',
    });
  }
  $('live-watchers').textContent = T('live-watchers', { count: live.spectators, connected: LV.connected ? 'yes' : 'no' });
  document.body.dataset.spectators = String(live.spectators);
  const links = $('live-links');
  links.innerHTML = '';
  const base = `${location.origin}${location.pathname}`;
  const invite = localStorage.getItem(inviteKey(LV.id));
  if (invite && mine && !live.result) links.append(link(T('live-link-invite'), `${base}#live=${LV.id}&seat=${invite}`, 'invite'));
  // A seat held by the session alone (no token on this device) has no link of its own.
  if (mine && LV.token) links.append(link(T('live-link-mine'), `${base}#live=${LV.id}&seat=${LV.token}`, 'mine'));
  links.append(link(T('live-link-watch'), `${base}#live=${LV.id}`, 'watch'));
}

function panel() {
  const p = document.createElement('section');
  p.id = 'live-panel';
  p.className = 'live-panel';
  p.hidden = true;
  p.dataset.i18n = 'live-panel';
  p.innerHTML = '<p id="live-match" class="live-match" hidden></p><p id="live-note" class="live-note" aria-live="polite"></p><p id="live-credit" class="live-note" hidden></p><p id="live-buttons" class="live-buttons"></p><div id="live-links" class="live-links"></div><p id="live-watchers" class="live-watchers" aria-live="off"></p>';
  p.querySelector('#live-buttons').after(phraseBox((phrase) => run(async () => {
    const r = await liveApi('POST', `/live/${LV.id}/say`, { phrase });
    LV.live = r.live;
    render();
  })));
  document.querySelector('#play .controls').before(p);
}

// Who plays `side` in the live game shown, for game.js's summary: a name, "you" or "a friend".
function playerLabel(side) {
  const seat = LV.live && LV.live.seats[side];
  return (seat && seat.name) || T('live-player', { you: LV.seat === side ? 'yes' : 'no' });
}

parts.live = { active, mayMove, decorate, play, leave, playerLabel };

// After the catalogues: the live panel under the board, the clocks ticking.
function startLive() {
  panel();
  I18N.changed.push(() => { relabelPhrases(); if (active()) render(); });
  setInterval(() => { if (active()) tickClocks(); }, 200);
}

export { counters, liveApi, seatKey, inviteKey, button, fromAddress, startLive };
