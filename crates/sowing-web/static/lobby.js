// Play a friend's way in (docs/web.md, "Play a friend"): the new-game dialog's choice of a
// friend on another device (a seat, a clock, a name, the lobby), and the lobby of open
// challenges to accept. The game itself is live.js's.
import { I18N, T, translatePage } from './i18n.js';
import { sideName } from './words.js';
import { gameTitle } from './rules.js';
import { setStatus } from './game.js';
import { chosenGame } from './newgame.js';
import { friendOptions, lobbyQuery, challengeNote, whenAccountChanges } from './account.js';
import { liveApi, seatKey, inviteKey, button } from './live.js';

const $ = (id) => document.getElementById(id);

// The new-game dialog's choice of opponent: the computer (or someone at this screen), or a
// friend on another device. Each shows only its own fields and its one primary button.
function friendForm() {
  const choice = document.createElement('fieldset');
  choice.id = 'opponent';
  choice.className = 'opponent';
  choice.innerHTML = `<legend data-i18n="live-against"></legend>
    <label class="check"><input type="radio" name="opponent" id="f-opponent-here" value="here" checked> <span data-i18n="live-against-here"></span></label>
    <label class="check"><input type="radio" name="opponent" id="f-opponent-friend" value="friend"> <span data-i18n="live-against-friend"></span></label>`;
  $('seat-south').closest('label').before(choice);
  const box = document.createElement('fieldset');
  box.id = 'friend-box';
  box.className = 'friend-box';
  box.hidden = true;
  box.innerHTML = `<legend data-i18n="live-friend"></legend>
    <label><span data-i18n="live-seat-choice"></span> <select id="f-seat"><option value="south" data-i18n="live-seat-south"></option><option value="north" data-i18n="live-seat-north"></option></select></label>
    <label><span data-i18n="live-clock"></span> <select id="f-clock">
      <option value="" data-i18n="live-clock-none"></option><option value="60000+0"></option><option value="180000+2000"></option>
      <option value="300000+3000" selected></option><option value="600000+5000"></option><option value="1800000+0"></option>
      <option value="days:1"></option><option value="days:2"></option><option value="days:3"></option><option value="days:5"></option><option value="days:7"></option><option value="days:14"></option></select></label>
    <label><span data-i18n="live-name"></span> <input id="f-name" maxlength="32" autocomplete="nickname"></label>
    <label class="check"><input id="f-lobby" type="checkbox"> <span data-i18n="live-lobby-post"></span></label>`;
  $('new-error').before(box);
  const friendButton = document.createElement('button');
  friendButton.id = 'btn-friend';
  friendButton.type = 'button';
  friendButton.className = 'primary';
  friendButton.hidden = true;
  friendButton.dataset.i18n = 'live-invite';
  $('btn-start').after(friendButton);
  friendButton.addEventListener('click', createFriendGame);
  const show = () => {
    const friend = $('f-opponent-friend').checked;
    box.hidden = !friend;
    friendButton.hidden = !friend;
    $('btn-start').hidden = friend;
    for (const el of document.querySelectorAll('#new-form .for-here')) el.hidden = friend;
  };
  for (const radio of choice.querySelectorAll('input')) radio.addEventListener('change', show);
}

async function createFriendGame() {
  const { game, pits, match } = chosenGame();
  const body = { game, seat: $('f-seat').value, lobby: $('f-lobby').checked };
  if (match) body.rounds = Number($('f-rounds').value);
  if (pits) body.pits = pits;
  for (const label of document.querySelectorAll('#new-form [data-option]')) {
    if (!label.hidden) body[label.dataset.option] = label.querySelector('select').value;
  }
  const clock = $('f-clock').value;
  if (clock.startsWith('days:')) {
    body.days_per_move = Number(clock.slice(5));
  } else if (clock) {
    const [base, inc] = clock.split('+').map(Number);
    body.clock = { base_ms: base, increment_ms: inc };
  }
  const name = $('f-name').value.trim();
  if (name) { body.name = name; localStorage.setItem('sowing.name', name); }
  Object.assign(body, friendOptions());
  try {
    const r = await liveApi('POST', '/live', body);
    localStorage.setItem(seatKey(r.live.id), r.token);
    if (r.invite) localStorage.setItem(inviteKey(r.live.id), r.invite);
    $('new-game').close();
    location.hash = `#live=${r.live.id}&seat=${r.token}`;
  } catch (e) {
    $('new-error').textContent = e.message;
  }
}

function lobbyBox() {
  const box = document.createElement('section');
  box.id = 'lobby';
  box.className = 'lobby';
  box.setAttribute('aria-labelledby', 'lobby-title');
  box.innerHTML = '<h2 id="lobby-title" data-i18n="lobby-title"></h2><p class="lobby-how" data-i18n="lobby-how"></p><ul id="lobby-list" class="lobby-list"></ul>';
  document.querySelector('aside').append(box);
}

async function refreshLobby() {
  const list = $('lobby-list');
  if (!list || document.hidden) return;
  let r;
  const query = lobbyQuery();
  try { r = await liveApi('GET', `/lobby${query}`); } catch (_) { return; }
  list.innerHTML = '';
  if (!r.challenges.length) {
    const li = document.createElement('li');
    li.className = 'lobby-empty';
    li.textContent = T('lobby-empty');
    list.append(li);
  }
  for (const c of r.challenges) {
    const li = document.createElement('li');
    li.dataset.challenge = String(c.id);
    const text = document.createElement('span');
    const note = challengeNote(c);
    const days = c.clock && c.clock.days_per_move;
    text.textContent = `${T('lobby-challenge', {
      game: gameTitle(c.game), pits: c.pits, clock: days ? 'days' : c.clock ? 'yes' : 'no', days: days || 0,
      minutes: c.clock ? Math.round(c.clock.base_ms / 60000) : 0, seconds: c.clock ? Math.round(c.clock.increment_ms / 1000) : 0,
      named: c.name ? 'yes' : 'no', name: c.name || '', open: sideName(c.open),
    })}${note ? ` (${note})` : ''} `;
    li.append(text);
    const mine = localStorage.getItem(seatKey(c.id));
    li.append(mine ? button(T('lobby-open'), () => { location.hash = `#live=${c.id}&seat=${mine}`; })
      : button(T('lobby-accept'), () => accept(c.id)));
    list.append(li);
  }
}

async function accept(id) {
  try {
    const name = localStorage.getItem('sowing.name');
    const r = await liveApi('POST', `/live/${id}/accept`, name ? { name } : {});
    localStorage.setItem(seatKey(id), r.token);
    location.hash = `#live=${id}&seat=${r.token}`;
  } catch (e) {
    setStatus(T('lobby-not-accepted', { error: e.message }), true);
    refreshLobby();
  }
}


// The clock choices' names ("5 + 3", "1 min"), in the reader's numbers.
function labelClocks() {
  for (const option of $('f-clock').options) {
    if (!option.value) continue;
    if (option.value.startsWith('days:')) {
      option.textContent = T('live-clock-per-move', { days: Number(option.value.slice(5)) });
      continue;
    }
    const [base, inc] = option.value.split('+').map(Number);
    option.textContent = T('live-clock-choice', { minutes: base / 60000, seconds: inc / 1000 });
  }
}

// After the catalogues: the live panel, the friend form and the lobby (account.js adds to

// After live.js's start: the friend box and the lobby (account.js adds to both).
function startLobby() {
  friendForm();
  lobbyBox();
  translatePage();
  labelClocks();
  I18N.changed.push(() => { labelClocks(); refreshLobby(); });
  refreshLobby();
  setInterval(refreshLobby, 10000);
  const saved = localStorage.getItem('sowing.name');
  if (saved) $('f-name').value = saved;
  whenAccountChanges(refreshLobby);
}

export { startLobby };
