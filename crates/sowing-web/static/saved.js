// Saved games: this browser's games and the live games it holds a seat in, to open, review
// or delete; the player key carried to another device; and a record uploaded to continue.
import { T, I18N } from './i18n.js';
import { PLAYER_KEY, playerKey, api } from './api.js';
import { escapeHtml, playerName, liveEnd } from './words.js';
import { gameTitle } from './rules.js';
import { render, renderEmpty, setStatus, lookAt, load } from './game.js';
import { S, parts } from './state.js';
import { localSummaries } from './local.js';

const $ = (id) => document.getElementById(id);

// This browser's games: those its key owns (GET /api/games sends the key), and the live games
// it holds a seat in (their tokens are kept here). A live game opens as a live game, and has no
// Delete: it belongs to both seats.
async function openSaved() {
  const d = $('saved');
  const tbody = $('saved-body');
  tbody.innerHTML = `<tr><td colspan="8">${escapeHtml(T('loading'))}</td></tr>`;
  $('key-mine').value = playerKey();
  $('key-said').textContent = '';
  if (!d.open) d.showModal();
  // The games played here with no server (local.js) are listed even when it is away.
  const kept = localSummaries();
  try {
    const { games } = await api('GET', '/games?limit=200', undefined, {}, { once: true });
    const seats = liveSeatsHere();
    const listed = new Set(games.map((g) => g.id));
    const elsewhere = await Promise.all([...seats.keys()].filter((id) => !listed.has(id)).slice(0, 50)
      .map((id) => api('GET', `/live/${id}`, undefined, {}, { once: true }).then(liveSummary, () => null)));
    const all = [...kept, ...games, ...elsewhere.filter(Boolean)].sort((a, b) => (a.updated < b.updated ? 1 : -1));
    tbody.innerHTML = all.length ? '' : `<tr><td colspan="8">${escapeHtml(T('no-games'))}</td></tr>`;
    for (const g of all) tbody.appendChild(savedRow(g, seats.get(g.id), d));
  } catch (e) {
    tbody.innerHTML = `<tr><td colspan="8" class="error">${escapeHtml(e.message)}</td></tr>`;
    for (const g of kept) tbody.appendChild(savedRow(g, null, d));
  }
}

// The live games this browser holds a seat in: id → seat token.
function liveSeatsHere() {
  const seats = new Map();
  for (let i = 0; i < localStorage.length; i++) {
    const m = /^sowing\.seat\.(\d+)$/.exec(localStorage.key(i));
    if (m) seats.set(Number(m[1]), localStorage.getItem(m[0]));
  }
  return seats;
}

// A live game's view (GET /api/live/{id}) as a line of the list.
function liveSummary({ live, game }) {
  const result = live.result;
  return {
    id: live.id, game: game.rules.game, pits: game.rules.pits, live: true, plies: game.ply,
    south: live.seats.south.name || 'human', north: live.seats.north.name || 'human',
    result: result && result.outcome !== 'none' ? result.outcome : null, termination: result ? result.text : null, closedWords: result ? liveEnd(result, game) : null,
    updated: new Date().toISOString().replace('T', ' ').slice(0, 19), match: null,
  };
}

function savedRow(g, seatToken, dialog) {
  const tr = document.createElement('tr');
  // A live game closed with no result has no winner but says why (termination).
  const over = !!(g.result || g.termination);
  const result = g.result ? T('saved-outcome', { winner: g.result })
    : g.termination ? g.closedWords || T('saved-closed') : T('saved-in-play');
  const name = T('saved-name', {
    game: gameTitle(g.game), pits: g.pits, live: g.live ? 'yes' : 'no', inMatch: g.match ? 'yes' : 'no',
    match: String(g.match || ''), round: g.round || 0,
  });
  const who = (player) => escapeHtml(g.live ? (player === 'human' ? T('a-person') : player) : playerName(player));
  tr.dataset.game = String(g.id);
  if (g.live) tr.dataset.live = '1';
  tr.innerHTML = `<td data-label="#">${g.id}</td><td data-label="${T.escaped('saved-game')}">${escapeHtml(name)}</td><td data-label="${T.escaped('saved-south')}">${who(g.south)}</td><td data-label="${T.escaped('saved-north')}">${who(g.north)}</td><td data-label="${T.escaped('saved-moves')}">${g.plies}</td><td data-label="${T.escaped('saved-result')}">${escapeHtml(result)}</td><td class="when" data-label="${T.escaped('saved-when')}">${escapeHtml(localTime(g.updated))}</td>
    <td class="row-buttons"><button type="button" class="open">${escapeHtml(T('saved-open', { over: over ? 'yes' : 'no' }))}</button>${
  parts.review && g.plies > 0 && (over || !g.live) ? `<button type="button" class="analyse">${escapeHtml(parts.review.savedLabel())}</button>` : ''}${
  g.match || g.live ? '' : `<button type="button" class="delete" title="${escapeHtml(T.attr('saved-delete', 'title'))}">${escapeHtml(T('saved-delete'))}</button>`}</td>`;
  tr.querySelector('.open').addEventListener('click', async () => {
    dialog.close();
    if (g.live) {
      location.hash = seatToken ? `#live=${g.id}&seat=${seatToken}` : `#live=${g.id}`;
      return;
    }
    await load(g.id);
    if (over) lookAt(0);
  });
  const analyse = tr.querySelector('.analyse');
  if (analyse) {
    analyse.addEventListener('click', async () => {
      dialog.close();
      if (g.live) {
        location.hash = `#game=${g.id}&analysis`;
        return;
      }
      await load(g.id);
      parts.review.open();
    });
  }
  const del = tr.querySelector('.delete');
  if (del) del.addEventListener('click', () => deleteGame(g.id, tr));
  return tr;
}

// Carrying the player key to another device: copy it here, paste it there.
function initKeyCarry() {
  $('key-copy').addEventListener('click', async () => {
    try { await navigator.clipboard.writeText(playerKey()); $('key-said').textContent = T('copied'); } catch (_) { $('key-mine').select(); }
  });
  $('key-use').addEventListener('click', () => {
    const key = $('key-other').value.trim().toLowerCase();
    if (!/^[0-9a-f]{32}$/.test(key)) {
      $('key-said').textContent = T('key-bad');
      return;
    }
    localStorage.setItem(PLAYER_KEY, key);
    $('key-other').value = '';
    openSaved();
    $('key-said').textContent = T('key-used');
  });
}

// The server's times are UTC ("2026-11-29 21:31:30"): shown in the reader's time, with its zone.
function localTime(utc) {
  const date = new Date(`${utc.replace(' ', 'T')}Z`);
  if (Number.isNaN(date.getTime())) return utc;
  return date.toLocaleString(I18N.locale, {
    year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'short',
  });
}

async function deleteGame(id, row) {
  if (!window.confirm(T('confirm-delete', { id: String(id) }))) return;
  try {
    await api('DELETE', `/games/${id}`);
    row.remove();
    if (S.view && S.view.id === id) {
      S.view = null;
      localStorage.removeItem('sowing.game');
      history.replaceState(null, '', location.pathname);
      renderEmpty();
    }
  } catch (e) {
    row.querySelector('.when').textContent = T('not-deleted', { error: e.message });
  }
}

async function upload(event) {
  const file = event.target.files[0];
  if (!file) return;
  const text = await file.text();
  event.target.value = '';
  try {
    const v = await api('POST', '/records', { record: text });
    await load(v.id);
    S.note = { text: T('record-loaded', { id: String(v.id) }) };
    render();
  } catch (e) {
    setStatus(T('record-unread', { error: e.message }), true);
  }
}

function startSaved() {
  $('btn-saved').addEventListener('click', openSaved);
  initKeyCarry();
  $('upload').addEventListener('change', upload);
}

export { startSaved };
