// Challenges by name (docs/api.md, "Challenges: a game with a named player"): the form that
// challenges a player — from their profile, their leaderboard row, or by name above the
// leaderboard —, the panel above every view with the challenges open to and from this
// account, and one's refusals in one's own profile. A signed-in page keeps one notices
// socket, which brings the list whenever it changes. The challenger's seat token waits in
// this browser's storage, keyed by the challenge, until the challenge is answered: accepted,
// it opens the game through the fragment live.js reads (#live=ID&seat=TOKEN), as a seek's does.
import { I18N, T, translatePage } from './i18n.js';
import { api } from './api.js';
import { gameTitle } from './rules.js';
import { sideName } from './words.js';
import { button, seatKey } from './live.js';
import { CLOCKS, clockWords } from './pairing.js';
import { extendAccountViews } from './account.js';

const $ = (id) => document.getElementById(id);
const GAMES = ['hoyito-ii', 'hoyito-iii', 'ayoayo'];
const DAYS = [1, 2, 3, 5, 7, 14];                  // correspondence, as the friend box offers
const NAME_PATTERN = '[A-Za-z0-9][A-Za-z0-9_\\-]*'; // an account's name (docs/api.md, "Accounts")
const SAID_MS = 15000;                              // how long a line about an answer stays
const PING_MS = 25000;                              // a socket silent twice this long is dead
const challengeKey = (id) => `sowing.challenge.${id}`;
const cancelling = new Set(); // the challenges this page cancels
const other = (side) => (side === 'south' ? 'north' : 'south');
const me = () => document.body.dataset.account || '';
const same = (a, b) => a.toLowerCase() === b.toLowerCase();

// The notices socket and what it last brought.
const N = {
  socket: null,
  stamp: 0,       // bumped for each socket: late events of an old one are ignored
  retry: 0,
  timer: null,    // the next attempt to connect
  heard: 0,       // Date.now() of the socket's last message
  list: [],       // the account's challenges, as the server last gave them
  skew: 0,        // the server's clock minus this browser's, ms (for the countdowns)
  said: [],       // short lines, each {words: () => text, until}
  shown: '',      // what the panel's lists were drawn from
};
// Counters the browser tests read.
const counters = { sockets: 0, lists: 0, fallbacks: 0 };

const serverNow = () => Date.now() + N.skew;

// ------------------------------------------------------------ the seat tokens of challenges made here

// Kept with the time it was made: a token whose challenge the server no longer lists is
// forgotten once it is surely not just made.
function keepToken(id, token) {
  localStorage.setItem(challengeKey(id), JSON.stringify({ token, made: Date.now() }));
}

function tokenOf(id) {
  try { return JSON.parse(localStorage.getItem(challengeKey(id)) || 'null'); } catch (_) { return null; }
}

function forgetOldTokens(listed) {
  for (let i = localStorage.length - 1; i >= 0; i--) {
    const m = /^sowing\.challenge\.(\d+)$/.exec(localStorage.key(i) || '');
    if (!m || listed.has(Number(m[1]))) continue;
    const kept = tokenOf(Number(m[1]));
    if (!kept || Date.now() - kept.made > 60000) localStorage.removeItem(m[0]);
  }
}

function closeDialogs() {
  for (const d of document.querySelectorAll('dialog[open]')) d.close();
}

function openGame(id, token) {
  localStorage.setItem(seatKey(id), token);
  closeDialogs();
  location.hash = `#live=${id}&seat=${token}`;
}

// A challenge made here has been answered: accepted, its game opens at the token's seat;
// otherwise a short line says how it ended. Either way the token's job is done.
function settle(c) {
  if (c.state === 'open') return;
  const kept = tokenOf(c.id);
  if (!kept) return;
  localStorage.removeItem(challengeKey(c.id));
  if (c.state === 'accepted' && c.game_id) { openGame(c.game_id, kept.token); return; }
  if (c.state === 'cancelled' && cancelling.has(c.id)) return; // one's own doing: nothing to say
  say(() => T('challenge-ended', { state: c.state, name: c.to }));
}

function say(words) {
  N.said.push({ words, until: Date.now() + SAID_MS });
  renderPanel();
}

// ------------------------------------------------------------ the notices socket

function receive(r) {
  counters.lists += 1;
  N.skew = r.now_ms - Date.now();
  N.list = r.challenges;
  for (const c of r.challenges) settle(c);
  forgetOldTokens(new Set(r.challenges.map((c) => c.id)));
  renderPanel();
}

// The list by a plain request, while the socket cannot open.
async function fetchList() {
  counters.fallbacks += 1;
  try {
    receive(await api('GET', '/challenges', undefined, {}, { once: true }));
  } catch (e) {
    if (e.status === 401) stop(); // the session ended elsewhere: nothing to keep up with
  }
}

function connect() {
  clearTimeout(N.timer);
  if (!me()) return;
  const stamp = ++N.stamp;
  let listed = false; // a socket that closes before its first list may never work here
  const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/account/socket`);
  N.socket = ws;
  counters.sockets += 1;
  ws.onopen = () => {
    N.heard = Date.now();
    document.body.dataset.notices = 'open';
  };
  ws.onmessage = (e) => {
    if (stamp !== N.stamp) return;
    N.heard = Date.now();
    let m;
    try { m = JSON.parse(e.data); } catch (_) { return; }
    if (m.type === 'challenges') { listed = true; N.retry = 0; receive(m); }
    if (m.type === 'error') fetchList();
  };
  ws.onclose = () => {
    if (stamp !== N.stamp) return;
    N.socket = null;
    document.body.dataset.notices = 'closed';
    // It could not open, or closed before the list (a proxy without WebSockets …): the list
    // by a plain request meanwhile.
    if (!listed) fetchList();
    // Back by itself: soon, then less often, at most 30 s apart (spread, so that the pages
    // of a restarted server do not all come back at once).
    const wait = Math.min(30000, 500 * 2 ** Math.min(N.retry++, 6)) * (0.8 + 0.4 * Math.random());
    N.timer = setTimeout(connect, wait);
  };
}

function stop() {
  N.stamp += 1;
  clearTimeout(N.timer);
  if (N.socket) N.socket.close();
  N.socket = null;
  N.list = [];
  document.body.dataset.notices = 'closed';
  renderPanel();
}

// A ping now and then; a socket that stopped answering (a connection lost without a close)
// is replaced.
function keepAlive() {
  const ws = N.socket;
  if (!ws || ws.readyState !== WebSocket.OPEN) return;
  if (Date.now() - N.heard > 2 * PING_MS) {
    N.stamp += 1;
    ws.close();
    N.socket = null;
    connect();
    return;
  }
  ws.send(JSON.stringify({ type: 'ping' }));
}

// Signing in starts the socket, signing out ends it (account.js marks the body).
let account = null;
function accountChanged() {
  if (me() === account) return;
  account = me();
  stop();
  N.said = [];
  N.retry = 0;
  if (account) connect();
}

// ------------------------------------------------------------ the panel

const clockOf = (c) => (c.clock ? clockWords(c.clock.base_ms, c.clock.increment_ms)
  : c.days_per_move ? T('live-clock-per-move', { days: c.days_per_move }) : T('live-clock-none'));

function timeLeft(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return T('challenge-left', { time: `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}` });
}

function panelBox() {
  const panel = document.createElement('section');
  panel.id = 'challenges';
  panel.className = 'challenges';
  panel.hidden = true;
  panel.dataset.i18n = 'challenges-panel';
  panel.innerHTML = '<ul id="challenges-in" class="challenge-list" aria-live="polite"></ul><ul id="challenges-out" class="challenge-list"></ul>'
    + '<p id="challenges-said" class="challenges-said" role="status" aria-live="polite"></p>';
  document.querySelector('header.top').after(panel);
}

// What each answer asks of the server.
const ANSWERS = {
  accept: (id) => ['POST', `/challenges/${id}/accept`, {}],
  decline: (id) => ['POST', `/challenges/${id}/decline`, {}],
  cancel: (id) => ['DELETE', `/challenges/${id}`, undefined],
};

async function answer(c, how, row) {
  for (const b of row.querySelectorAll('button')) b.disabled = true;
  if (how === 'cancel') cancelling.add(c.id);
  try {
    const [method, path, body] = ANSWERS[how](c.id);
    const r = await api(method, path, body, {}, { once: true });
    if (how === 'accept') { openGame(r.live.id, r.token); return; }
    N.list = N.list.map((x) => (x.id === r.id ? r : x));
    settle(r);
    renderPanel();
  } catch (e) {
    say(() => T('challenge-not-done', { error: e.message }));
    for (const b of row.querySelectorAll('button')) b.disabled = false;
    // Answered meanwhile (accepted even, as this page cancelled it): the list says how.
    if (e.code === 'challenge-gone' || e.code === 'unknown-challenge') fetchList();
  }
}

function item(c, incoming) {
  const li = document.createElement('li');
  li.dataset.challenge = String(c.id);
  const words = document.createElement('span');
  words.className = 'challenge-words';
  const args = {
    name: incoming ? c.from : c.to, game: gameTitle(c.game), clock: clockOf(c), rated: c.rated ? 'yes' : 'no',
    side: sideName(incoming ? other(c.seat) : c.seat),
  };
  words.textContent = incoming ? T('challenge-incoming', args) : T('challenge-outgoing', args);
  const left = document.createElement('span');
  left.className = 'challenge-left';
  left.dataset.expires = String(c.expires_ms);
  left.textContent = timeLeft(c.expires_ms - serverNow());
  const buttons = document.createElement('span');
  buttons.className = 'challenge-buttons';
  const act = (how, label, primary) => {
    const b = button(label, () => answer(c, how, li));
    b.classList.add(`challenge-${how}`);
    if (primary) b.classList.add('primary');
    return b;
  };
  if (incoming) buttons.append(act('accept', T('challenge-accept'), true), act('decline', T('challenge-decline')));
  else buttons.append(act('cancel', T('challenge-cancel')));
  li.append(words, ' ', left, buttons);
  return li;
}

// Draws the lists again when what they show changed (the language too); otherwise only the
// countdowns move, so that a button is never replaced under a finger.
function renderPanel() {
  const panel = $('challenges');
  if (!panel) return;
  const now = serverNow();
  const mine = me();
  const open = mine ? N.list.filter((c) => c.state === 'open' && c.expires_ms > now) : [];
  const incoming = open.filter((c) => !same(c.from, mine));
  const outgoing = open.filter((c) => same(c.from, mine));
  N.said = N.said.filter((s) => s.until > Date.now());
  const shown = JSON.stringify([I18N.lang, incoming.map((c) => c.id), outgoing.map((c) => c.id)]);
  if (shown !== N.shown) {
    N.shown = shown;
    $('challenges-in').replaceChildren(...incoming.map((c) => item(c, true)));
    $('challenges-out').replaceChildren(...outgoing.map((c) => item(c, false)));
  }
  for (const left of panel.querySelectorAll('.challenge-left')) left.textContent = timeLeft(Number(left.dataset.expires) - now);
  const said = N.said.map((s) => s.words()).join(' ');
  if ($('challenges-said').textContent !== said) $('challenges-said').textContent = said;
  panel.hidden = !incoming.length && !outgoing.length && !said;
  document.body.dataset.challengesIn = String(incoming.length);
  document.body.dataset.challengesOut = String(outgoing.length);
}

// ------------------------------------------------------------ the form

function formDialog() {
  const d = document.createElement('dialog');
  d.id = 'challenge';
  d.className = 'challenge-dialog';
  d.setAttribute('aria-labelledby', 'challenge-title');
  d.innerHTML = `<form id="challenge-form" class="challenge-form">
    <h2 id="challenge-title" data-i18n="challenge-title"></h2>
    <label><span data-i18n="challenge-name"></span> <input id="challenge-to" required minlength="2" maxlength="24" autocomplete="off" spellcheck="false"></label>
    <label><span data-i18n="challenge-game"></span> <select id="challenge-game"></select></label>
    <label><span data-i18n="live-clock"></span> <select id="challenge-clock"></select></label>
    <label><span data-i18n="live-seat-choice"></span> <select id="challenge-seat"><option value="random" data-i18n="challenge-seat-random"></option>
      <option value="south" data-i18n="live-seat-south"></option><option value="north" data-i18n="live-seat-north"></option></select></label>
    <label class="check"><input id="challenge-rated" type="checkbox"> <span data-i18n="challenge-rated"></span></label>
    <p id="challenge-error" class="error" role="alert"></p>
    <div class="dialog-buttons"><button id="challenge-send" type="submit" class="primary" data-i18n="challenge-send"></button>
      <button id="challenge-close" type="button" data-i18n="btn-cancel"></button></div>
  </form>`;
  document.body.append(d);
  $('challenge-to').pattern = NAME_PATTERN;
  for (const clock of [...CLOCKS, ...DAYS.map((days) => `days:${days}`)]) {
    $('challenge-clock').append(new Option('', clock, false, clock === '300000+3000'));
  }
  $('challenge-form').addEventListener('submit', send);
  $('challenge-close').addEventListener('click', () => d.close());
  translatePage(d);
  labelForm();
  return d;
}

// The words of the form's choices that are not the catalogue's alone: the games' titles
// (the server's) and the clocks in the reader's numbers.
function labelForm() {
  const game = $('challenge-game');
  if (!game) return;
  const chosen = game.value || GAMES[0];
  game.replaceChildren(...GAMES.map((g) => new Option(gameTitle(g), g, false, g === chosen)));
  for (const option of $('challenge-clock').options) {
    const days = /^days:(\d+)$/.exec(option.value);
    const [base, inc] = option.value.split('+').map(Number);
    option.textContent = days ? T('live-clock-per-move', { days: Number(days[1]) }) : clockWords(base, inc);
  }
}

function openForm(name) {
  const d = $('challenge') || formDialog();
  labelForm();
  $('challenge-to').value = name || '';
  $('challenge-error').textContent = '';
  d.showModal();
  (name ? $('challenge-send') : $('challenge-to')).focus();
}

async function send(e) {
  e.preventDefault();
  const body = { to: $('challenge-to').value.trim(), game: $('challenge-game').value, seat: $('challenge-seat').value,
    rated: $('challenge-rated').checked };
  const clock = $('challenge-clock').value;
  if (clock.startsWith('days:')) body.days_per_move = Number(clock.slice(5));
  else {
    const [base, inc] = clock.split('+').map(Number);
    body.clock = { base_ms: base, increment_ms: inc };
  }
  $('challenge-error').textContent = '';
  $('challenge-send').disabled = true;
  try {
    const r = await api('POST', '/challenges', body, {}, { once: true });
    keepToken(r.challenge.id, r.token);
    // The socket may have told of it first, accepted even: settle what it said.
    const known = N.list.find((c) => c.id === r.challenge.id);
    if (!known) N.list = [r.challenge, ...N.list];
    closeDialogs();
    settle(known || r.challenge);
    renderPanel();
  } catch (err) {
    $('challenge-error').textContent = err.message;
  } finally {
    $('challenge-send').disabled = false;
  }
}

// ------------------------------------------------------------ on profiles and leaderboards

function challengeButton(name, id) {
  const b = button(T('challenge-button'), () => openForm(name));
  b.dataset.i18n = 'challenge-button';
  b.classList.add('challenge-button');
  b.dataset.name = name;
  if (id) b.id = id;
  return b;
}

// Above the leaderboard: anyone, by name (a player with no rated game is on no board).
function byNameForm() {
  const f = document.createElement('form');
  f.id = 'challenge-by-name';
  f.className = 'challenge-by-name signed-in-only';
  f.innerHTML = `<label><span data-i18n="challenge-by-name"></span> <input id="challenge-by-name-to" maxlength="24" autocomplete="off" spellcheck="false"></label>
    <button type="submit" data-i18n="challenge-button"></button>`;
  f.addEventListener('submit', (e) => { e.preventDefault(); openForm($('challenge-by-name-to').value.trim()); });
  translatePage(f);
  return f;
}

// ------------------------------------------------------------ one's refusals (own profile)

function refusalsBox() {
  const box = document.createElement('section');
  box.id = 'refusals';
  box.className = 'refusals';
  box.setAttribute('aria-labelledby', 'refusals-title');
  box.innerHTML = `<h3 id="refusals-title" data-i18n="refusals-title"></h3>
    <label class="check"><input id="refusals-everyone" type="checkbox"> <span data-i18n="refusals-everyone"></span></label>
    <p data-i18n="refusals-names"></p><ul id="refusals-list" class="refusals-list"></ul>
    <form id="refusals-form" class="refusals-form"><label><span data-i18n="refusals-name"></span> <input id="refusals-name" required minlength="2" maxlength="24" autocomplete="off" spellcheck="false"></label>
      <button id="refusals-add" type="submit" data-i18n="refusals-add"></button></form>
    <p id="refusals-said" class="account-said" role="status"></p>`;
  translatePage(box);
  const refusals = { everyone: false, names: [] };
  const said = box.querySelector('#refusals-said');
  const everyone = box.querySelector('#refusals-everyone');
  const draw = () => {
    everyone.checked = refusals.everyone;
    const list = box.querySelector('#refusals-list');
    if (!refusals.names.length) {
      const li = document.createElement('li');
      li.className = 'refusals-none';
      li.textContent = T('refusals-none');
      li.dataset.i18n = 'refusals-none';
      list.replaceChildren(li);
      return;
    }
    list.replaceChildren(...refusals.names.map((name) => {
      const li = document.createElement('li');
      li.dataset.name = name;
      const text = document.createElement('span');
      text.textContent = name;
      const remove = button(T('refusals-remove'), () => save((r) => ({ ...r, names: r.names.filter((n) => n !== name) })));
      remove.dataset.i18n = 'refusals-remove';
      remove.setAttribute('aria-label', T('refusals-remove-for', { name }));
      li.append(text, ' ', remove);
      return li;
    }));
  };
  // The whole is sent each time (PUT replaces it), one change after another, each made to
  // what the one before left; the answer is what the server keeps.
  let saving = api('GET', '/account/refusals', undefined, {}, { once: true })
    .then((r) => { Object.assign(refusals, r); draw(); })
    .catch((e) => { said.textContent = e.message; });
  const save = (change) => {
    saving = saving.then(async () => {
      said.textContent = '';
      try {
        const r = await api('PUT', '/account/refusals', change(refusals), {}, { once: true });
        if (r && Array.isArray(r.names)) Object.assign(refusals, r);
        else Object.assign(refusals, change(refusals));
        said.textContent = T('refusals-saved');
        box.querySelector('#refusals-name').value = '';
      } catch (e) {
        said.textContent = e.message;
      }
      draw();
    });
  };
  everyone.addEventListener('change', () => {
    const on = everyone.checked;
    save((r) => ({ ...r, everyone: on }));
  });
  box.querySelector('#refusals-name').pattern = NAME_PATTERN;
  box.querySelector('#refusals-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const name = box.querySelector('#refusals-name').value.trim();
    save((r) => ({ ...r, names: r.names.some((n) => same(n, name)) ? r.names : [...r.names, name] }));
  });
  draw();
  return box;
}

// ------------------------------------------------------------ start

// After account.js's start: the panel under the header, the hooks into profiles and
// leaderboards, and the socket once the session is known.
function startChallenges() {
  panelBox();
  translatePage($('challenges'));
  extendAccountViews({
    profile: (name, own) => (!me() ? null : own ? refusalsBox() : challengeButton(name, 'profile-challenge')),
    leaderRow: (name) => (me() && !same(name, me()) ? challengeButton(name) : null),
    leaders: byNameForm,
  });
  I18N.changed.push(() => { N.shown = ''; labelForm(); renderPanel(); });
  new MutationObserver(accountChanged).observe(document.body, { attributes: true, attributeFilter: ['data-account'] });
  accountChanged();
  setInterval(() => { if (!$('challenges').hidden) renderPanel(); }, 1000);
  setInterval(keepAlive, PING_MS);
  // A page coming back (a phone woken up) reconnects now rather than at the next try.
  document.addEventListener('visibilitychange', () => {
    if (!document.hidden && me() && !N.socket) { N.retry = 0; connect(); }
  });
}

export { counters, startChallenges };
