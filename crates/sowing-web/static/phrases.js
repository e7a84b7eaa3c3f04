// Quick phrases in a live game (docs/api.md, "Acts"): a seat says one of a few set phrases
// — no free text, nothing to moderate — and every page of the game shows it once, in its
// own reader's language. Each reader may mute the other seat's phrases (kept in this
// browser). live.js gives the box its way to send and the statuses it receives.
import { T } from './i18n.js';

const $ = (id) => document.getElementById(id);

// The phrases, in the order of their buttons, and their words.
const PHRASES = {
  hello: () => T('phrase-hello'),
  'good-luck': () => T('phrase-good-luck'),
  'good-game': () => T('phrase-good-game'),
  thanks: () => T('phrase-thanks'),
  'well-played': () => T('phrase-well-played'),
  sorry: () => T('phrase-sorry'),
};
const MUTED = 'sowing.phrasesMuted';

// The counts of phrases already shown, per side, for the game shown.
const SEEN = { game: null, south: 0, north: 0 };
let hideTimer = null;

// The box of phrase buttons and the mute switch; `send(phrase)` says one.
function phraseBox(send) {
  const box = document.createElement('div');
  box.id = 'live-phrases';
  box.className = 'live-phrases';
  for (const phrase of Object.keys(PHRASES)) {
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.phrase = phrase;
    b.addEventListener('click', () => send(phrase));
    box.append(b);
  }
  const mute = document.createElement('label');
  mute.className = 'check';
  mute.innerHTML = '<input id="phrases-mute" type="checkbox"> <span data-i18n="phrases-mute"></span>';
  box.append(mute);
  const said = document.createElement('p');
  said.id = 'live-said';
  said.className = 'live-said';
  said.setAttribute('aria-live', 'polite');
  const wrap = document.createElement('div');
  wrap.append(box, said);
  mute.querySelector('input').checked = localStorage.getItem(MUTED) === '1';
  mute.querySelector('input').addEventListener('change', (e) => localStorage.setItem(MUTED, e.target.checked ? '1' : '0'));
  relabelPhrases(box);
  return wrap;
}

function relabelPhrases(box = $('live-phrases')) {
  if (!box) return;
  for (const b of box.querySelectorAll('button[data-phrase]')) b.textContent = PHRASES[b.dataset.phrase]();
}

// A new status of game `game`: each phrase not shown yet is shown once (the other seat's
// unless muted), "name: phrase". Opening a game shows none of its earlier phrases.
function showSaid(game, live, seat, nameOf) {
  const box = $('live-phrases');
  if (box) box.hidden = !seat || !live.seats.south.taken || !live.seats.north.taken;
  const said = live.said || {};
  const fresh = SEEN.game !== game;
  SEEN.game = game;
  for (const side of ['south', 'north']) {
    const s = said[side];
    const n = s ? s.n : 0;
    const isNew = n > SEEN[side];
    SEEN[side] = n;
    if (fresh || !isNew) continue;
    if (side !== seat && localStorage.getItem(MUTED) === '1') continue;
    const line = $('live-said');
    const words = PHRASES[s.phrase];
    if (!words) continue;
    line.textContent = T('phrase-said', { who: nameOf(side), phrase: words() });
    line.dataset.side = side;
    clearTimeout(hideTimer);
    hideTimer = setTimeout(() => { line.textContent = ''; }, 8000);
  }
}

export { phraseBox, relabelPhrases, showSaid };
