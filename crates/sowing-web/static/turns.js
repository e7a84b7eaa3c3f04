// *Your turn* (docs/api.md, "GET /api/account/turns"): for a signed-in player, a header
// button with the count of live games waiting for their move — correspondence games above
// all — and the list of them, read again every minute and when the page comes back.
import { T, translatePage } from './i18n.js';
import { api } from './api.js';
import { gameTitle } from './rules.js';
import { seatKey } from './live.js';

const $ = (id) => document.getElementById(id);
const EVERY_MS = 60000;

function turnsBox() {
  const button = document.createElement('button');
  button.id = 'btn-turns';
  button.type = 'button';
  button.hidden = true;
  $('btn-saved').after(button);
  const dialog = document.createElement('dialog');
  dialog.id = 'turns';
  dialog.setAttribute('aria-labelledby', 'turns-title');
  dialog.innerHTML = `<h2 id="turns-title" data-i18n="turns-title"></h2><ul id="turns-list" class="turns-list"></ul>
    <form method="dialog" class="dialog-buttons"><button type="submit" data-i18n="close"></button></form>`;
  document.body.append(dialog);
  button.addEventListener('click', () => dialog.showModal());
}

async function refresh() {
  const button = $('btn-turns');
  if (!button || document.hidden) return;
  if (!document.body.dataset.account) { button.hidden = true; return; }
  let r;
  try { r = await api('GET', '/account/turns', undefined, {}, { once: true }); } catch (_) { return; }
  button.hidden = r.games.length === 0;
  button.textContent = T('turns-button', { count: r.games.length });
  document.body.dataset.turns = String(r.games.length);
  const list = $('turns-list');
  list.innerHTML = '';
  for (const g of r.games) {
    const li = document.createElement('li');
    const a = document.createElement('a');
    const token = localStorage.getItem(seatKey(g.id));
    a.href = token ? `#live=${g.id}&seat=${token}` : `#live=${g.id}`;
    a.textContent = T('turns-game', { game: gameTitle(g.game), opponent: g.opponent || '', named: g.opponent ? 'yes' : 'no' });
    a.addEventListener('click', () => $('turns').close());
    li.append(a);
    list.append(li);
  }
}

function startTurns() {
  turnsBox();
  translatePage();
  refresh();
  setInterval(refresh, EVERY_MS);
  document.addEventListener('visibilitychange', refresh);
  new MutationObserver(refresh).observe(document.body, { attributes: true, attributeFilter: ['data-account'] });
}

export { startTurns, refresh as refreshTurns };
