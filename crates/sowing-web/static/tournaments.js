// Tournaments (docs/web.md, "Tournaments"; docs/api.md, "Tournaments: arenas and Swiss
// events"): the header's *Tournaments*, and the view that takes the board's place while the
// address is #tournaments — the list (upcoming with a countdown to the start, under way,
// finished) and the form that makes one — or #tournament=ID, one tournament (tournament.js).
// Any other address gives the board back; so do the header's Learn, New game, Saved games
// and Upload, which put back the address the board had.
import { I18N, T, translatePage } from './i18n.js';
import { api } from './api.js';
import { gameTitle } from './rules.js';
import { CLOCKS, clockWords } from './pairing.js';
import { el, summaryWords, whenWords, serverNow, setSkew, showTournament, hideTournament, startTournament } from './tournament.js';

const $ = (id) => document.getElementById(id);
const GAMES = ['hoyito-ii', 'hoyito-iii', 'ayoayo'];
const STATES = ['upcoming', 'running', 'finished'];
const LIST_EVERY_MS = 10000;
const isOurs = (hash) => /^#tournament(s$|=\d+)/.test(hash || '');

// The view: shown or not, the list as last read, the address the board had before.
const V = { shown: false, list: null, before: '' };

function view() {
  const s = el('section', { id: 'tournaments', className: 'tournaments', hidden: true });
  s.dataset.i18n = 'tournaments-section';
  s.innerHTML = `<div id="tournaments-index">
    <div class="tournaments-head"><h2 data-i18n="tournaments-title"></h2>
      <button id="tournaments-make" type="button" class="primary signed-in-only" data-i18n="tournaments-make"></button></div>
    <p class="tournaments-how" data-i18n="tournaments-how"></p>
    <p class="signed-out-only"><span data-i18n="tournaments-sign-in"></span>
      <button id="tournaments-sign-in" type="button" data-i18n="tournament-sign-in"></button></p>
    ${form()}
    <p id="tournaments-said" class="error" role="alert"></p>
    <h3 data-i18n="tournaments-upcoming"></h3><ul id="tournaments-upcoming" class="tournament-list"></ul>
    <h3 data-i18n="tournaments-running"></h3><ul id="tournaments-running" class="tournament-list"></ul>
    <h3 data-i18n="tournaments-finished"></h3><ul id="tournaments-finished" class="tournament-list"></ul>
  </div>
  <div id="tournament-page" class="tournament-page" hidden></div>`;
  document.querySelector('main').prepend(s);
  $('tournaments-make').addEventListener('click', () => {
    $('tournament-form').hidden = !$('tournament-form').hidden;
    if (!$('tournament-form').hidden) { labelForm(); $('tf-name').focus(); }
  });
  $('tournaments-sign-in').addEventListener('click', () => $('btn-account').click());
}

// ------------------------------------------------------------ the form

function form() {
  return `<form id="tournament-form" class="tournament-form" hidden>
    <h3 data-i18n="tournament-form-title"></h3>
    <label><span data-i18n="tournament-form-name"></span> <input id="tf-name" required maxlength="60" autocomplete="off"></label>
    <label><span data-i18n="tournament-form-game"></span> <select id="tf-game"></select></label>
    <label><span data-i18n="tournament-form-clock"></span> <select id="tf-clock"></select></label>
    <fieldset><legend data-i18n="tournament-form-kind"></legend>
      <label class="check"><input type="radio" name="tf-kind" id="tf-arena" value="arena" checked> <span data-i18n="tournament-kind-arena"></span></label>
      <label class="check"><input type="radio" name="tf-kind" id="tf-swiss" value="swiss"> <span data-i18n="tournament-kind-swiss"></span></label>
      <label id="tf-minutes-box"><span data-i18n="tournament-form-minutes"></span> <input id="tf-minutes" type="number" min="1" max="720" value="60"></label>
      <label id="tf-rounds-box" hidden><span data-i18n="tournament-form-rounds"></span> <input id="tf-rounds" type="number" min="1" max="30" value="5"></label></fieldset>
    <fieldset><legend data-i18n="tournament-form-starts"></legend>
      <label class="check"><input type="radio" name="tf-start" id="tf-start-in" value="in" checked> <span data-i18n="tournament-form-in"></span>
        <input id="tf-in" type="number" min="1" max="1440" value="5"> <span data-i18n="tournament-form-minutes-later"></span></label>
      <label class="check"><input type="radio" name="tf-start" id="tf-start-at" value="at"> <span data-i18n="tournament-form-at"></span>
        <input id="tf-at" type="datetime-local" step="1"></label></fieldset>
    <label class="check"><input id="tf-rated" type="checkbox"> <span data-i18n="tournament-form-rated"></span></label>
    <label><span data-i18n="tournament-form-min-rating"></span> <input id="tf-min-rating" type="number" min="0" max="4000" step="50" data-i18n="tournament-form-none"></label>
    <p id="tf-error" class="error" role="alert"></p>
    <div class="dialog-buttons"><button id="tf-make" type="submit" class="primary" data-i18n="tournament-form-make"></button>
      <button id="tf-cancel" type="button" data-i18n="btn-cancel"></button></div>
  </form>`;
}

function wireForm() {
  for (const clock of CLOCKS) $('tf-clock').append(new Option('', clock, false, clock === '180000+2000'));
  const kind = () => {
    const swiss = $('tf-swiss').checked;
    $('tf-minutes-box').hidden = swiss;
    $('tf-rounds-box').hidden = !swiss;
  };
  for (const id of ['tf-arena', 'tf-swiss']) $(id).addEventListener('change', kind);
  $('tf-in').addEventListener('input', () => { $('tf-start-in').checked = true; });
  $('tf-at').addEventListener('input', () => { $('tf-start-at').checked = true; });
  $('tf-cancel').addEventListener('click', () => { $('tournament-form').hidden = true; });
  $('tournament-form').addEventListener('submit', make);
}

// The words of the form's choices that are not the catalogue's alone: the games' titles
// (the server's) and the clocks in the reader's numbers; and a start an hour ahead.
function labelForm() {
  const game = $('tf-game');
  const chosen = game.value || GAMES[0];
  game.replaceChildren(...GAMES.map((g) => new Option(gameTitle(g), g, false, g === chosen)));
  for (const option of $('tf-clock').options) {
    const [base, inc] = option.value.split('+').map(Number);
    option.textContent = clockWords(base, inc);
  }
  if (!$('tf-at').value) {
    const at = new Date(Math.ceil((Date.now() + 3600000) / 900000) * 900000);
    $('tf-at').value = new Date(at.getTime() - at.getTimezoneOffset() * 60000).toISOString().slice(0, 16);
  }
}

async function make(e) {
  e.preventDefault();
  const error = $('tf-error');
  error.textContent = '';
  const [base, inc] = $('tf-clock').value.split('+').map(Number);
  const kind = $('tf-swiss').checked ? 'swiss' : 'arena';
  const body = { name: $('tf-name').value.trim(), kind, game: $('tf-game').value, clock: { base_ms: base, increment_ms: inc },
    rated: $('tf-rated').checked };
  const whole = (id, low, high) => {
    const n = Number($(id).value);
    return Number.isInteger(n) && n >= low && n <= high ? n : null;
  };
  if (kind === 'arena') body.minutes = whole('tf-minutes', 1, 720);
  else body.rounds = whole('tf-rounds', 1, 30);
  if (body.minutes === null || body.rounds === null) { error.textContent = T('tournament-form-bad-length'); return; }
  if ($('tf-start-in').checked) {
    const minutes = whole('tf-in', 1, 1440);
    body.starts_ms = minutes === null ? NaN : serverNow() + minutes * 60000;
  } else {
    body.starts_ms = new Date($('tf-at').value).getTime();
  }
  if (!Number.isFinite(body.starts_ms) || body.starts_ms < Date.now() - 60000) { error.textContent = T('tournament-form-bad-start'); return; }
  if ($('tf-min-rating').value.trim()) {
    body.min_rating = whole('tf-min-rating', 0, 4000);
    if (body.min_rating === null) { error.textContent = T('tournament-form-bad-rating'); return; }
  }
  $('tf-make').disabled = true;
  try {
    const made = await api('POST', '/tournaments', body, {}, { once: true });
    $('tournament-form').hidden = true;
    $('tf-name').value = '';
    location.hash = `#tournament=${made.id}`;
  } catch (err) {
    error.textContent = err.message;
  } finally {
    $('tf-make').disabled = false;
  }
}

// ------------------------------------------------------------ the list

async function refreshList() {
  if (!V.shown || !$('tournaments-index') || $('tournaments-index').hidden || document.hidden) return;
  try {
    const list = await api('GET', '/tournaments', undefined, {}, { once: true });
    setSkew(list.now_ms);
    V.list = list;
    $('tournaments-said').textContent = '';
  } catch (e) {
    $('tournaments-said').textContent = e.message;
    return;
  }
  drawList();
}

function item(t) {
  return el('li', { dataset: { tournament: t.id, state: t.state } },
    el('a', { href: `#tournament=${t.id}`, className: 'tournament-link' },
      el('span', { className: 'tournament-link-name' }, t.name),
      el('span', { className: 'tournament-link-meta' }, summaryWords(t)),
      el('span', { className: 'tournament-link-when' }, whenWords(t))));
}

function drawList() {
  if (!V.list) return;
  for (const state of STATES) {
    const items = V.list[state].map(item);
    if (!items.length) items.push(el('li', { className: 'tournament-none' }, T('tournaments-none')));
    $(`tournaments-${state}`).replaceChildren(...items);
  }
}

// The countdowns move every second.
function tickList() {
  if (!V.shown || !V.list || $('tournaments-index').hidden) return;
  for (const li of document.querySelectorAll('#tournaments-index li[data-tournament]')) {
    const t = STATES.flatMap((s) => V.list[s]).find((x) => x.id === Number(li.dataset.tournament));
    if (t) li.querySelector('.tournament-link-when').textContent = whenWords(t);
  }
}

// ------------------------------------------------------------ the view and the address

function show() {
  if (!V.shown) {
    V.shown = true;
    $('tournaments').hidden = false;
    document.body.dataset.view = 'tournaments';
    window.scrollTo(0, 0);
  }
}

function hide() {
  if (!V.shown) return;
  V.shown = false;
  $('tournaments').hidden = true;
  document.body.dataset.view = '';
  hideTournament();
}

// Called by main.js for every address: whether it is this view's (#tournaments,
// #tournament=ID), which is then shown; any other hides it.
function fromAddress() {
  const m = /^#tournament(?:s$|=(\d+))/.exec(location.hash);
  if (!m) { hide(); return false; }
  show();
  const one = m[1] ? Number(m[1]) : null;
  $('tournaments-index').hidden = one !== null;
  $('tournament-page').hidden = one === null;
  if (one !== null) showTournament(one);
  else { hideTournament(); labelForm(); refreshList(); }
  return true;
}

// The header's other ways to the board leave the view, with the board's address back.
function leaveByNav() {
  if (!V.shown) return;
  hide();
  history.pushState(null, '', V.before || `${location.pathname}${location.search}`);
}

function relabel() {
  labelForm();
  drawList();
}

// After challenges.js's start: the header's button, the view (in main, before the board),
// the one tournament's parts (tournament.js), the list's ticking.
function startTournaments() {
  const nav = $('btn-saved');
  const b = el('button', { id: 'btn-tournaments', type: 'button' });
  b.dataset.i18n = 'nav-tournaments';
  b.addEventListener('click', () => { location.hash = '#tournaments'; });
  nav.after(b);
  view();
  translatePage($('tournaments'));
  b.textContent = T('nav-tournaments');
  wireForm();
  startTournament($('tournament-page'));
  I18N.changed.push(relabel);
  for (const id of ['btn-learn', 'btn-new', 'btn-saved']) $(id).addEventListener('click', leaveByNav);
  $('upload').closest('label').addEventListener('click', leaveByNav);
  window.addEventListener('hashchange', (e) => {
    const old = new URL(e.oldURL).hash;
    if (!isOurs(old)) V.before = old || '';
  });
  setInterval(tickList, 1000);
  setInterval(refreshList, LIST_EVERY_MS);
}

export { fromAddress, startTournaments };
