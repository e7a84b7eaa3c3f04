// Accounts and ratings (docs/web.md, "Accounts and ratings"): signing up and in, signing
// out (here or everywhere), a new password, recovery codes (shown once; a forgotten
// password replaced with one), profiles with a rating graph, leaderboards, the
// rated box of Play a friend, ratings beside the names of a live game, and the lobby's
// rating range. The session is an HttpOnly cookie: this file never sees its token. live.js
// asks this file for the ratings and the rated box, and is told when the account changes.
import { I18N, T } from './i18n.js';
import { PLAYER_KEY, api } from './api.js';
import { gameTitle } from './rules.js';
import { setStatus } from './game.js';

// Every text of this file, from the catalogues (static/i18n/*.ftl, "account-…").
const W = {
  signIn: () => T('account-sign-in'),
  account: (name) => T('account-button', { name }),
  accountTitle: () => T('account-title'),
  leaders: () => T('account-leaders'),
  signUpTitle: () => T('account-sign-up-title'),
  name: () => T('account-name'),
  password: () => T('account-password'),
  newPassword: () => T('account-new-password'),
  create: () => T('account-create'),
  why: () => T('account-why'),
  nameRule: () => T('account-name-rule'),
  passwordRule: () => T('account-password-rule'),
  signedInAs: (name) => T('account-signed-in-as', { name }),
  profile: () => T('account-profile'),
  signOut: () => T('account-sign-out'),
  signOutAll: () => T('account-sign-out-all'),
  signOutAllTitle: () => T('account-sign-out-all-title'),
  changePassword: () => T('account-change-password'),
  passwordChanged: (count) => T('account-password-changed', { count }),
  signedOutAll: (count) => T('account-signed-out-all', { count }),
  moved: (count) => (count ? ` ${T('account-moved', { count })}` : ''),
  welcome: (name) => T('account-welcome', { name }),
  close: () => T('account-close'),
  ratings: () => T('account-ratings'),
  results: () => T('account-results'),
  games: () => T('account-games'),
  graph: () => T('account-graph'),
  noGames: () => T('account-no-games'),
  about: () => T('account-about'),
  save: () => T('account-save'),
  saved: () => T('account-saved'),
  cols: {
    game: () => T('account-col-game'), speed: () => T('account-col-speed'), rating: () => T('account-col-rating'),
    rd: () => T('account-col-rd'), played: () => T('account-col-played'), wins: () => T('account-col-wins'),
    losses: () => T('account-col-losses'), draws: () => T('account-col-draws'), rank: () => T('account-col-rank'),
    player: () => T('account-col-player'), opponent: () => T('account-col-opponent'), result: () => T('account-col-result'),
    change: () => T('account-col-change'),
  },
  result: (result) => T('account-result', { result }),
  reviewGame: () => T('account-review-game'),
  speed: (speed) => T('account-speed', { speed }),
  emptyBoard: () => T('account-empty-board'),
  rated: () => T('account-rated'),
  ratedNote: () => T('account-rated-note'),
  range: () => T('account-range'),
  from: () => T('account-from'),
  to: () => T('account-to'),
  claimed: () => T('account-claimed'),
  claimFailed: (detail) => T('account-claim-failed', { detail }),
  codesTitle: () => T('account-codes-title'),
  codesNote: () => T('account-codes-note'),
  codesDone: () => T('account-codes-done'),
  codesRenewed: () => T('account-codes-renewed'),
  forgot: () => T('account-forgot'),
  forgotNote: () => T('account-forgot-note'),
  code: () => T('account-code'),
  recover: () => T('account-recover'),
  recovered: (name) => T('account-recovered', { name }),
  renewCodes: () => T('account-renew-codes'),
  renewNote: () => T('account-renew-note'),
};
const SPEEDS = ['bullet', 'blitz', 'rapid', 'classical', 'unlimited'];

const $ = (id) => document.getElementById(id);
const ME = { account: null };
// Recovery codes just made, shown until the player says they wrote them down or closes
// the dialog: the server shows them once, and so does this page.
const FRESH = { codes: null };

const ratingNumber = (r) => `${Math.round(r.rating)}${r.provisional ? '?' : ''}`;

function el(tag, props = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === 'dataset') Object.assign(e.dataset, v);
    else if (k in e) e[k] = v;
    else e.setAttribute(k, v);
  }
  e.append(...children);
  return e;
}

function table(head, rows) {
  return el('table', {}, el('thead', {}, el('tr', {}, ...head.map((h) => el('th', {}, h)))),
    el('tbody', {}, ...rows.map((r) => el('tr', {}, ...r.map((c) => el('td', {}, c))))));
}

// ------------------------------------------------------------ the session

// The first look at the session, which the hooks below wait for (a live game's page may
// ask to claim its seat before it is known).
let ready = null;
const known = () => ready || (ready = refreshMe());

async function refreshMe() {
  try {
    const r = await api('GET', '/account');
    ME.account = r.account;
  } catch (_) { /* keep what we had */ }
  showMe();
}

function showMe() {
  const b = $('btn-account');
  if (b) b.textContent = ME.account ? W.account(ME.account.name) : W.signIn();
  document.body.dataset.account = ME.account ? ME.account.name : '';
  const rated = $('f-rated-box');
  if (rated) rated.hidden = !ME.account;
  renderDialog();
}

function dialog(id, title) {
  const d = el('dialog', { id, className: 'account-dialog' });
  d.setAttribute('aria-labelledby', `${id}-title`);
  d.append(el('h2', { id: `${id}-title` }, title), el('div', { id: `${id}-body` }),
    el('form', { method: 'dialog', className: 'dialog-buttons' }, el('button', { type: 'submit', id: `${id}-close` }, W.close())));
  document.body.append(d);
  return d;
}

function field(label, input) {
  return el('label', {}, `${label} `, input);
}

// The codes just made, with what to do with them; `where` names the dialog (its ids).
function codesBox(where) {
  const box = el('div', { id: `${where}-codes`, className: 'recovery-codes', role: 'region' });
  box.setAttribute('aria-labelledby', `${where}-codes-title`);
  box.append(el('h3', { id: `${where}-codes-title` }, W.codesTitle()), el('p', {}, W.codesNote()),
    el('ol', {}, ...FRESH.codes.map((c) => el('li', {}, el('code', {}, c)))),
    el('button', { type: 'button', id: `${where}-codes-done`, onclick: () => { FRESH.codes = null; box.remove(); } }, W.codesDone()));
  return box;
}

function forgetCodes() {
  FRESH.codes = null;
  for (const id of ['account-codes', 'profile-codes']) if ($(id)) $(id).remove();
}

// Forgot the password: a name, one recovery code and a new password sign in.
function recoverForm(error) {
  const name = el('input', { id: 'recover-name', autocomplete: 'username', required: true, maxLength: 24 });
  const code = el('input', { id: 'recover-code', autocomplete: 'one-time-code', required: true, maxLength: 20, spellcheck: false,
    placeholder: 'xxxx-xxxx-xxxx' });
  const fresh = el('input', { id: 'recover-password', type: 'password', autocomplete: 'new-password', required: true, minLength: 8,
    maxLength: 128, placeholder: W.passwordRule() });
  const f = el('form', { id: 'recover', className: 'account-form' }, el('p', { className: 'account-why' }, W.forgotNote()),
    field(W.name(), name), field(W.code(), code), field(W.newPassword(), fresh),
    el('button', { type: 'submit', id: 'recover-go' }, W.recover()));
  f.addEventListener('submit', async (e) => {
    e.preventDefault();
    error.textContent = '';
    try {
      const r = await api('POST', '/account/recover', { name: name.value.trim(), code: code.value, new_password: fresh.value }, {}, { once: true });
      ME.account = r.account;
      showMe();
      $('account-said').textContent = W.recovered(r.account.name) + W.moved(r.moved || 0);
      afterChange();
    } catch (err) { $('account-error').textContent = err.message; }
  });
  return el('details', { id: 'recover-box', className: 'recover-box' }, el('summary', {}, W.forgot()), f);
}

function renderDialog() {
  const body = $('account-body');
  if (!body) return;
  body.innerHTML = '';
  const said = el('p', { id: 'account-said', className: 'account-said', role: 'status' });
  const error = el('p', { id: 'account-error', className: 'error', role: 'alert' });
  if (!ME.account) {
    const form = (id, title, button, path) => {
      const name = el('input', { id: `${id}-name`, autocomplete: 'username', required: true, maxLength: 24, placeholder: W.nameRule() });
      const password = el('input', { id: `${id}-password`, type: 'password', required: true, maxLength: 128, placeholder: W.passwordRule(),
        autocomplete: id === 'signup' ? 'new-password' : 'current-password' });
      if (id === 'signup') {
        // The server's rules, checked before sending: the browser says what is wrong.
        Object.assign(name, { minLength: 2, pattern: '[A-Za-z0-9][A-Za-z0-9_\\-]*', title: W.nameRule() });
        Object.assign(password, { minLength: 8, title: W.passwordRule() });
      }
      const f = el('form', { id, className: 'account-form' }, el('h3', {}, title), field(W.name(), name), field(W.password(), password),
        el('button', { type: 'submit', className: 'primary', id: `${id}-go` }, button));
      f.addEventListener('submit', async (e) => {
        e.preventDefault();
        error.textContent = '';
        try {
          const r = await api('POST', path, { name: name.value.trim(), password: password.value }, {}, { once: true });
          ME.account = r.account;
          if (r.recovery_codes) FRESH.codes = r.recovery_codes;
          showMe();
          $('account-said').textContent = W.welcome(r.account.name) + W.moved(r.moved || 0);
          afterChange();
        } catch (err) {
          $('account-error').textContent = err.message;
        }
      });
      return f;
    };
    body.append(el('p', { className: 'account-why' }, W.why()),
      el('div', { className: 'account-forms' }, form('signup', W.signUpTitle(), W.create(), '/account/signup'),
        form('signin', W.signIn(), W.signIn(), '/account/signin')), recoverForm(error), error, said);
    return;
  }
  const out = (path, all) => async () => {
    error.textContent = '';
    try {
      const r = await api('POST', path, {}, {}, { once: true });
      ME.account = null;
      // A fresh player key: the next person at this browser cannot act on the account's games.
      localStorage.removeItem(PLAYER_KEY);
      showMe();
      if (all) $('account-said').textContent = W.signedOutAll(r.ended || 0);
      afterChange();
    } catch (err) { $('account-error').textContent = err.message; }
  };
  const old = el('input', { id: 'password-old', type: 'password', autocomplete: 'current-password', required: true });
  const fresh = el('input', { id: 'password-new', type: 'password', autocomplete: 'new-password', required: true, placeholder: W.passwordRule() });
  const change = el('form', { id: 'password-form', className: 'account-form' }, el('h3', {}, W.changePassword()),
    field(W.password(), old), field(W.newPassword(), fresh), el('button', { type: 'submit', id: 'password-go' }, W.changePassword()));
  change.addEventListener('submit', async (e) => {
    e.preventDefault();
    error.textContent = '';
    try {
      const r = await api('POST', '/account/password', { password: old.value, new_password: fresh.value }, {}, { once: true });
      old.value = fresh.value = '';
      $('account-said').textContent = W.passwordChanged(r.ended || 0);
    } catch (err) { $('account-error').textContent = err.message; }
  });
  body.append(el('p', { id: 'account-who' }, W.signedInAs(ME.account.name)),
    el('p', { className: 'account-buttons' },
      el('button', { type: 'button', id: 'account-profile', onclick: () => { $('account').close(); openProfile(ME.account.name); } }, W.profile()),
      el('button', { type: 'button', id: 'account-signout', onclick: out('/account/signout', false) }, W.signOut()),
      el('button', { type: 'button', id: 'account-signout-all', title: W.signOutAllTitle(), onclick: out('/account/signout-everywhere', true) }, W.signOutAll())),
    change, error, said);
  if (FRESH.codes) body.prepend(codesBox('account'));
}

// Signing in or out changes whose games and challenges these are (live.js lists the lobby
// again), and so does the lobby's rating range.
const changed = [];
function whenAccountChanges(f) {
  changed.push(f);
}
function afterChange() {
  for (const f of changed) f();
}

// What other modules add to the profiles and leaderboards (challenges.js: a Challenge
// button, one's refusals), without this file importing them: each a function giving a node
// or null — profile(name, own) under the profile's text, leaderRow(name) as a row's last
// cell, leaders() once above the leaderboard's table.
const EXTRAS = { profile: [], leaderRow: [], leaders: [] };
function extendAccountViews(parts) {
  for (const [where, f] of Object.entries(parts)) EXTRAS[where].push(f);
}
const extras = (where, ...args) => EXTRAS[where].map((f) => f(...args)).filter(Boolean);

// ------------------------------------------------------------ profiles

// The rating graph: one line per game and speed, the rating after each rated game (and
// before the first), oldest on the left. SVG, drawn from the profile's `games`.
function graph(games) {
  const NS = 'http://www.w3.org/2000/svg';
  const WIDTH = 560, HEIGHT = 200, PAD = 34;
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', `0 0 ${WIDTH} ${HEIGHT}`);
  svg.setAttribute('id', 'rating-graph');
  svg.setAttribute('class', 'rating-graph');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', W.graph());
  const oldest = [...games].reverse();
  const series = new Map();
  for (const g of oldest) {
    const key = `${g.game} ${g.speed}`;
    if (!series.has(key)) series.set(key, [g.before]);
    series.get(key).push(g.after);
  }
  const all = [...series.values()].flat();
  const low = Math.min(...all) - 20, high = Math.max(...all) + 20;
  const longest = Math.max(...[...series.values()].map((s) => s.length));
  const x = (i) => PAD + (longest < 2 ? 0 : (i * (WIDTH - 2 * PAD)) / (longest - 1));
  const y = (r) => HEIGHT - PAD / 2 - ((r - low) * (HEIGHT - PAD)) / (high - low);
  const add = (tag, attrs, text) => {
    const e = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    svg.append(e);
    return e;
  };
  for (const r of [high - 20, low + 20]) {
    add('line', { x1: PAD, x2: WIDTH - PAD, y1: y(r), y2: y(r), class: 'graph-rule' });
    add('text', { x: 2, y: y(r) + 4, class: 'graph-label' }, String(Math.round(r)));
  }
  let n = 0;
  for (const [key, points] of series) {
    n += 1;
    add('polyline', { points: points.map((r, i) => `${x(i)},${y(r)}`).join(' '), class: `graph-line graph-line-${n % 4}`, 'data-series': key });
    points.forEach((r, i) => add('circle', { cx: x(i), cy: y(r), r: 3, class: `graph-dot graph-line-${n % 4}` }, undefined)
      .append(Object.assign(document.createElementNS(NS, 'title'), { textContent: `${key}: ${Math.round(r)}` })));
    const last = points[points.length - 1];
    add('text', { x: x(points.length - 1) - 4, y: y(last) - 8, class: 'graph-label', 'text-anchor': 'end' }, `${gameTitle(key.split(' ')[0])} ${W.speed(key.split(' ')[1])}`);
  }
  return svg;
}

// The own profile's *Make new codes*: the password again, then the codes, shown once.
function renewCodesForm() {
  const password = el('input', { id: 'renew-password', type: 'password', autocomplete: 'current-password', required: true });
  const said = el('p', { id: 'renew-said', className: 'account-said', role: 'status' });
  const f = el('form', { id: 'renew-codes', className: 'account-form' }, el('h3', {}, W.codesTitle()),
    field(W.renewNote(), password), el('button', { type: 'submit', id: 'renew-go' }, W.renewCodes()), said);
  f.addEventListener('submit', async (e) => {
    e.preventDefault();
    said.textContent = '';
    try {
      const r = await api('POST', '/account/recovery-codes', { password: password.value }, {}, { once: true });
      password.value = '';
      FRESH.codes = r.recovery_codes;
      if ($('profile-codes')) $('profile-codes').remove();
      f.after(codesBox('profile'));
      said.textContent = W.codesRenewed();
    } catch (err) { said.textContent = err.message; }
  });
  return f;
}

async function openProfile(name) {
  let d = $('profile');
  if (!d) {
    d = dialog('profile', '');
    d.addEventListener('close', forgetCodes);
  }
  const body = $('profile-body');
  body.innerHTML = '';
  let p;
  try { p = await api('GET', `/accounts/${encodeURIComponent(name)}`); } catch (e) {
    body.append(el('p', { className: 'error' }, e.message));
    if (!d.open) d.showModal();
    return;
  }
  $('profile-title').textContent = p.name;
  d.dataset.name = p.name;
  const own = ME.account && ME.account.name === p.name;
  const about = own
    ? (() => {
      const text = el('textarea', { id: 'profile-about', maxLength: 400, rows: 3 });
      text.value = p.about;
      const said = el('span', { className: 'account-said', role: 'status' });
      return el('p', {}, field(W.about(), text), el('button', {
        type: 'button', id: 'profile-save', onclick: async () => {
          try { await api('PUT', `/accounts/${encodeURIComponent(p.name)}`, { about: text.value }, {}, { once: true }); said.textContent = W.saved(); } catch (e) { said.textContent = e.message; }
        },
      }, W.save()), ' ', said);
    })()
    : el('p', { id: 'profile-about', className: 'profile-about' }, p.about);
  body.append(about, ...extras('profile', p.name, own));
  if (own) body.append(renewCodesForm(p.name));
  body.append(el('h3', {}, W.ratings()));
  if (!p.ratings.length) body.append(el('p', {}, W.noGames()));
  else {
    body.append(table([W.cols.game(), W.cols.speed(), W.cols.rating(), W.cols.rd(), W.cols.played()],
      p.ratings.map((r) => [gameTitle(r.game), W.speed(r.speed), ratingNumber(r), String(Math.round(r.deviation)), String(r.games)])));
    body.lastChild.id = 'profile-ratings';
    body.append(el('h3', {}, W.graph()), graph(p.games));
    body.append(el('h3', {}, W.results()), table([W.cols.game(), W.cols.wins(), W.cols.losses(), W.cols.draws()],
      p.results.map((r) => [gameTitle(r.game), String(r.wins), String(r.losses), String(r.draws)])));
    body.append(el('h3', {}, W.games()));
    const rows = p.games.map((g) => {
      const change = Math.round(g.after) - Math.round(g.before);
      // The game opens with its review (analysis.js reads `&analysis` from the address).
      const review = el('a', {
        href: `#game=${Number(g.id)}&analysis`, className: 'profile-review', title: W.reviewGame(),
        onclick: () => d.close(),
      }, gameTitle(g.game));
      return [review, W.speed(g.speed), g.opponent, W.result(g.result),
        `${Math.round(g.after)} (${change >= 0 ? '+' : '−'}${Math.abs(change)})`];
    });
    body.append(table([W.cols.game(), W.cols.speed(), W.cols.opponent(), W.cols.result(), W.cols.change()], rows));
    body.lastChild.id = 'profile-games';
  }
  if (!d.open) d.showModal();
}

// ------------------------------------------------------------ leaderboards

async function openLeaders() {
  let d = $('leaders');
  if (!d) {
    d = dialog('leaders', W.leaders());
    const game = el('select', { id: 'leaders-game' });
    for (const g of ['hoyito-ii', 'hoyito-iii', 'ayoayo']) game.append(el('option', { value: g }, gameTitle(g)));
    const speed = el('select', { id: 'leaders-speed' });
    for (const k of SPEEDS) speed.append(el('option', { value: k, selected: k === 'blitz' }, W.speed(k)));
    for (const s of [game, speed]) s.addEventListener('change', showLeaders);
    $('leaders-body').append(...extras('leaders'), el('p', {}, field(W.cols.game(), game), ' ', field(W.cols.speed(), speed)),
      el('div', { id: 'leaders-table' }));
  }
  await showLeaders();
  if (!d.open) d.showModal();
}

async function showLeaders() {
  const box = $('leaders-table');
  box.innerHTML = '';
  let r;
  try { r = await api('GET', `/leaderboard?game=${$('leaders-game').value}&speed=${$('leaders-speed').value}`); } catch (e) {
    box.append(el('p', { className: 'error' }, e.message));
    return;
  }
  if (!r.players.length) { box.append(el('p', {}, W.emptyBoard())); return; }
  const more = EXTRAS.leaderRow.map(() => '');
  box.append(table([W.cols.rank(), W.cols.player(), W.cols.rating(), W.cols.played(), ...more], r.players.map((p) => {
    const a = el('a', { href: '#', onclick: (e) => { e.preventDefault(); openProfile(p.name); } }, p.name);
    return [String(p.rank), a, ratingNumber(p), String(p.games), ...EXTRAS.leaderRow.map((f) => f(p.name) || '')];
  })));
}

// ------------------------------------------------------------ for live.js

// A seat's rating beside its name: " 1662?" (provisional with a ?), or nothing.
const ratingText = (seat) => (seat && seat.rating ? ` ${ratingNumber(seat.rating)}` : '');

// What the friend form adds to a new live game.
const friendOptions = () => (ME.account && $('f-rated') && $('f-rated').checked ? { rated: true } : {});

// The lobby's query: the rating range, when given.
function lobbyQuery() {
  const q = [];
  const low = $('lobby-min') && $('lobby-min').value.trim();
  const high = $('lobby-max') && $('lobby-max').value.trim();
  if (low) q.push(`min_rating=${Number(low)}`);
  if (high) q.push(`max_rating=${Number(high)}`);
  return q.length ? `?${q.join('&')}` : '';
}

// A challenge's rating and whether it is rated, in a few words.
const challengeNote = (c) => [c.rating ? ratingNumber(c.rating) : '', c.rated ? W.ratedNote() : ''].filter(Boolean).join(', ');

// Entering a live game with a seat's token while signed in: the account takes the seat if
// nobody's account holds it yet and no move was played.
const claimed = new Set();
async function claim(id, token, live) {
  await known();
  if (!ME.account || !token || claimed.has(id) || !live) return;
  const mine = ['south', 'north'].find((s) => live.seats[s].account && live.seats[s].name === ME.account.name);
  if (mine || live.ply > 0 || live.result) return;
  claimed.add(id);
  try {
    await api('POST', `/live/${id}/claim`, {}, { 'X-Seat-Token': token }, { once: true });
    setStatus(W.claimed());
  } catch (e) {
    setStatus(W.claimFailed(e.message), true);
  }
}

// The words this file put on the page, again in the language now chosen.
function relabel() {
  $('btn-leaders').textContent = W.leaders();
  $('btn-account').title = W.accountTitle();
  $('account-title').textContent = W.accountTitle();
  $('account-close').textContent = W.close();
  if ($('f-rated-text')) $('f-rated-text').textContent = ` ${W.rated()}`;
  if ($('lobby-range-text')) {
    $('lobby-range-text').textContent = `${W.range()} `;
    $('lobby-min-text').textContent = `${W.from()} `;
    $('lobby-max-text').textContent = `${W.to()} `;
  }
  showMe();
}

// After live.js's start (the friend form and the lobby are its).
function startAccount() {
  const nav = document.querySelector('header.top nav');
  nav.append(el('button', { id: 'btn-leaders', type: 'button', onclick: openLeaders }),
    el('button', { id: 'btn-account', type: 'button', onclick: () => { renderDialog(); $('account').showModal(); } }));
  dialog('account', '').addEventListener('close', forgetCodes);
  const box = $('friend-box');
  if (box) {
    box.append(el('label', { id: 'f-rated-box', className: 'check', hidden: true }, el('input', { id: 'f-rated', type: 'checkbox' }),
      el('span', { id: 'f-rated-text' })));
  }
  const lobby = $('lobby-list');
  if (lobby) {
    const input = (id) => {
      const i = el('input', { id, type: 'number', min: 0, max: 4000, step: 50, className: 'lobby-range' });
      i.addEventListener('change', afterChange);
      return el('label', {}, el('span', { id: `${id}-text` }), i);
    };
    lobby.before(el('p', { className: 'lobby-filter' }, el('span', { id: 'lobby-range-text' }), input('lobby-min'), ' ', input('lobby-max')));
  }
  relabel();
  I18N.changed.push(relabel);
  known();
}

export { ratingText, friendOptions, lobbyQuery, challengeNote, claim, whenAccountChanges, extendAccountViews, startAccount };
