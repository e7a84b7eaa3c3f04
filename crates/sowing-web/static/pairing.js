// Quick pairing (docs/api.md, "Quick pairing"): a grid of the usual clocks for each game;
// pressing one seeks a game with the first player who wants the same. The seek's socket
// holds it while the page waits (leaving the page takes it out) and brings the game, which
// live.js then plays with the seek's token as the seat's.
import { I18N, T, translatePage } from './i18n.js';
import { api } from './api.js';
import { gameTitle } from './rules.js';
import { seatKey } from './live.js';

const $ = (id) => document.getElementById(id);

// The grid's clocks, base+increment in ms (lichess's and PlayStrategy's usual ones); a
// challenge by name offers the same (challenges.js).
const CLOCKS = ['60000+0', '180000+2000', '300000+3000', '600000+5000', '900000+10000', '1800000+0'];
const GAMES = ['hoyito-ii', 'hoyito-iii', 'ayoayo'];
const RANGES = [0, 100, 200, 300, 500];

// The seek under way: its id, token, what it asked for, and its socket.
const SEEK = { id: null, token: null, body: null, socket: null };

const clockWords = (base, inc) => T('live-clock-choice', { minutes: base / 60000, seconds: inc / 1000 });

function pairingBox() {
  const box = document.createElement('section');
  box.id = 'pairing';
  box.className = 'pairing';
  box.setAttribute('aria-labelledby', 'pairing-title');
  box.innerHTML = `<h2 id="pairing-title" data-i18n="pair-title"></h2>
    <p class="pair-how" data-i18n="pair-how"></p>
    <label><span data-i18n="pair-game"></span> <select id="pair-game"></select></label>
    <div id="pair-grid" class="pair-grid"></div>
    <p id="pair-custom-box" class="pair-custom" hidden>
      <label><span data-i18n="pair-custom-minutes"></span> <input id="pair-minutes" type="number" min="1" max="180" value="20"></label>
      <label><span data-i18n="pair-custom-increment"></span> <input id="pair-increment" type="number" min="0" max="60" value="10"></label>
      <button id="pair-custom-go" type="button" data-i18n="pair-custom-go"></button></p>
    <p class="pair-signed-in"><label class="check"><input id="pair-rated" type="checkbox"> <span data-i18n="pair-rated"></span></label>
      <label><span data-i18n="pair-range"></span> <select id="pair-range"></select></label></p>
    <p id="pair-status" class="pair-status" aria-live="polite"></p>
    <p><button id="pair-cancel" type="button" hidden data-i18n="pair-cancel"></button></p>`;
  const lobby = $('lobby');
  if (lobby) lobby.before(box); else document.querySelector('aside').append(box);
  const grid = $('pair-grid');
  for (const clock of CLOCKS) {
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.clock = clock;
    b.addEventListener('click', () => seekClock(clock));
    grid.append(b);
  }
  const custom = document.createElement('button');
  custom.type = 'button';
  custom.id = 'pair-custom';
  custom.dataset.i18n = 'pair-custom';
  custom.addEventListener('click', () => { $('pair-custom-box').hidden = !$('pair-custom-box').hidden; });
  grid.append(custom);
  $('pair-custom-go').addEventListener('click', () => {
    const minutes = Number($('pair-minutes').value);
    const seconds = Number($('pair-increment').value);
    if (!(minutes >= 1 && minutes <= 180 && seconds >= 0 && seconds <= 60)) {
      $('pair-status').textContent = T('pair-custom-bad');
      return;
    }
    seekClock(`${Math.round(minutes * 60000)}+${Math.round(seconds * 1000)}`);
  });
  $('pair-cancel').addEventListener('click', cancel);
}

function labelBox() {
  const game = $('pair-game');
  const chosen = game.value || GAMES[0];
  game.innerHTML = '';
  for (const g of GAMES) game.append(new Option(gameTitle(g), g, false, g === chosen));
  for (const b of $('pair-grid').querySelectorAll('button[data-clock]')) {
    const [base, inc] = b.dataset.clock.split('+').map(Number);
    b.textContent = clockWords(base, inc);
  }
  const range = $('pair-range');
  const within = range.value;
  range.innerHTML = '';
  for (const points of RANGES) {
    range.append(new Option(points ? T('pair-range-within', { points }) : T('pair-range-any'), String(points), false, String(points) === within));
  }
}

function showSeeking(on) {
  $('pair-cancel').hidden = !on;
  for (const b of document.querySelectorAll('#pairing .pair-grid button, #pair-custom-go')) b.disabled = on;
}

function seekClock(clock) {
  const [base, inc] = clock.split('+').map(Number);
  const body = { game: $('pair-game').value, clock: { base_ms: base, increment_ms: inc } };
  const name = localStorage.getItem('sowing.name');
  if (name) body.name = name;
  if (document.body.dataset.account) {
    body.rated = $('pair-rated').checked;
    const points = Number($('pair-range').value);
    if (points) body.range = { below: points, above: points };
  }
  seek(body);
}

async function seek(body) {
  SEEK.body = body;
  showSeeking(true);
  const { base_ms: base, increment_ms: inc } = body.clock;
  $('pair-status').textContent = T('pair-seeking', { game: gameTitle(body.game), clock: clockWords(base, inc) });
  let placed;
  try {
    placed = await api('POST', '/seeks', body);
  } catch (e) {
    showSeeking(false);
    $('pair-status').textContent = T('pair-failed', { error: e.message });
    return;
  }
  SEEK.id = placed.seek;
  SEEK.token = placed.token;
  if (placed.game) { play(placed.game); return; }
  hold();
}

// Holds the seek on its socket until it is paired; a socket the server closed (a restart)
// seeks again.
function hold() {
  const id = SEEK.id;
  const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/seeks/${id}/socket`);
  SEEK.socket = ws;
  ws.addEventListener('open', () => ws.send(JSON.stringify({ type: 'hello', token: SEEK.token })));
  ws.addEventListener('message', (event) => {
    let m;
    try { m = JSON.parse(event.data); } catch (_) { return; }
    if (m.type === 'paired' && SEEK.id === id) play(m.game);
    if (m.type === 'error' && SEEK.id === id) {
      done();
      $('pair-status').textContent = T('pair-failed', { error: m.error });
    }
  });
  ws.addEventListener('close', () => {
    if (SEEK.socket !== ws || SEEK.id !== id) return;
    SEEK.socket = null;
    // Not paired and not cancelled here: the server went away; seek again shortly.
    const body = SEEK.body;
    SEEK.id = null;
    setTimeout(() => { if (!SEEK.id && SEEK.body === body) seek(body); }, 1000);
  });
}

function done() {
  const ws = SEEK.socket;
  Object.assign(SEEK, { id: null, token: null, body: null, socket: null });
  if (ws) ws.close();
  showSeeking(false);
}

function play(game) {
  const token = SEEK.token;
  done();
  $('pair-status').textContent = '';
  localStorage.setItem(seatKey(game), token);
  location.hash = `#live=${game}&seat=${token}`;
}

async function cancel() {
  const { id, token } = SEEK;
  done();
  $('pair-status').textContent = T('pair-cancelled');
  if (id === null) return;
  try {
    const r = await api('DELETE', `/seeks/${id}`, undefined, { 'X-Seat-Token': token });
    // Paired before the cancel arrived: the game is there, and the opponent waits.
    if (r.game) { SEEK.token = token; play(r.game); }
  } catch (_) { /* gone already: nothing to cancel */ }
}

// After the lobby's start: the box above it.
function startPairing() {
  pairingBox();
  translatePage();
  labelBox();
  I18N.changed.push(labelBox);
}

export { CLOCKS, clockWords, startPairing };
