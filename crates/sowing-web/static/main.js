// The sowing page (docs/web.md): plain JavaScript modules over the JSON API (docs/api.md),
// the board drawn in SVG. Every change goes through the server; the page only draws and
// animates what it answers. This module starts the others and wires the page's controls
// and keys; each of the others has one job (docs/web.md, "The page's files").
import { I18N, T } from './i18n.js';
import { nameToPit } from './words.js';
import { NARROW, forgetBoard, skipAnimation } from './board.js';
import { refreshEval, startHelps } from './helps.js';
import {
  render, renderEmpty, setStatus, clickPit, playPass, undo, redo, hint, stepForward, lookAt, load, flip,
} from './game.js';
import { seatLabels, openNewGame, relabelNewGame, startNewGame } from './newgame.js';
import { startSaved } from './saved.js';
import { relabelLearn, startLearn } from './learn.js';
import { fromAddress as liveFromAddress, startLive } from './live.js';
import { startLobby } from './lobby.js';
import { startPairing } from './pairing.js';
import { startTurns } from './turns.js';
import { startAccount } from './account.js';
import { startChallenges } from './challenges.js';
import { fromAddress as tournamentsFromAddress, startTournaments } from './tournaments.js';
import { fromAddress as reviewFromAddress } from './analysis.js';
import { startPuzzles } from './puzzles.js';
import { startSchool } from './school.js';
import { startOffline } from './offline.js';
import { api } from './api.js';
import { localSummaries, sentAs, syncLocal } from './local.js';
import { S } from './state.js';

const $ = (id) => document.getElementById(id);

// ---------------------------------------------------------------- keyboard

function onKey(e) {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const tag = (e.target.tagName || '').toLowerCase();
  if (['input', 'select', 'textarea'].includes(tag) || document.querySelector('dialog[open]')) return;
  if (document.body.dataset.view === 'tournaments') return; // the board is not on screen
  const v = S.view;
  if (e.key === ' ' && document.body.dataset.animating === '1') { e.preventDefault(); skipAnimation(); return; }
  if (e.key === 'n') { e.preventDefault(); openNewGame(); return; }
  if (!v) return;
  if (e.key === 'ArrowLeft') { e.preventDefault(); lookAt((S.viewPly === null ? v.ply : S.viewPly) - 1); return; }
  if (e.key === 'ArrowRight') { e.preventDefault(); lookAt((S.viewPly === null ? v.ply : S.viewPly) + 1); return; }
  if (e.key === 'Home') { e.preventDefault(); lookAt(0); return; }
  if (e.key === 'End') { e.preventDefault(); lookAt(v.ply); return; }
  if (e.key === 'u') { undo(); return; }
  if (e.key === 'r') { redo(); return; }
  if (e.key === 't') { flip(); return; }
  if (e.key === '?') { hint(); return; }
  if (e.key === 'p' && v.state.legal.includes('pass')) { playPass(); return; }
  if (/^[a-lA-L]$/.test(e.key) && S.viewPly === null && !S.busy) {
    const name = v.state.legal.find((m) => m.toLowerCase() === e.key.toLowerCase());
    if (name) { e.preventDefault(); clickPit(nameToPit(name, v.rules.pits)); }
  }
}


// The game the address names (#game=N), when the address bar or Back/Forward changes it;
// or the tournaments (#tournaments, #tournament=N), shown in the board's place.
function followAddress() {
  if (tournamentsFromAddress()) return;
  if (liveFromAddress()) return;
  const m = /#game=(-?\d+)/.exec(location.hash);
  if (m && S.view && S.view.id === Number(m[1]) ) reviewFromAddress();
  if (!m || (S.view && S.view.id === Number(m[1]))) return;
  if (S.busy) { setTimeout(followAddress, 100); return; }
  load(Number(m[1])).catch((e) => {
    // The board and title must not go on showing the game before as if it were this one.
    S.view = null;
    renderEmpty();
    setStatus(T('game-not-opened', { id: m[1], error: e.message }), true);
  });
}

// Games played here with no server go to it when it answers (local.js), each once; the
// one on the board waits until it is over, then opens as the server's game (in every tab).
let syncing = false;
async function syncKept() {
  if (syncing || (!localSummaries().length && !(S.view && S.view.local))) return;
  syncing = true;
  try {
    const v = S.view;
    await syncLocal(api, { keepId: v && v.local && !v.state.over ? v.id : null });
    const moved = S.view && S.view.local && sentAs(S.view.id);
    if (moved) {
      while (S.busy) await new Promise((resolve) => setTimeout(resolve, 100));
      await load(moved);
    }
  } catch (_) {
    // The server is still away: the next try sends them.
  } finally {
    syncing = false;
  }
}

// ---------------------------------------------------------------- start

// The language changed (i18n.js): everything the page wrote in words is written again.
function relabel() {
  relabelNewGame();
  relabelLearn();
  forgetBoard(); // the board's labels (the stores') are drawn with it
  if (S.view) { render(); refreshEval(); } else renderEmpty();
}

async function init() {
  await I18N.ready;
  I18N.changed.push(relabel);
  // The new-game form asks the server for the games; meanwhile Play a friend adds its box to
  // the form, accounts add theirs to it and to the lobby, and challenges theirs to profiles.
  const form = startNewGame();
  startLive();
  startLobby();
  startPairing();
  startAccount();
  startChallenges();
  startTournaments();
  startTurns();
  startPuzzles();
  startSchool();
  startOffline();
  await form;
  S.thinkMs = Number(localStorage.getItem('sowing.think')) || 1000;
  S.flipped = localStorage.getItem('sowing.flipped') === '1';
  startLearn();
  startSaved();
  $('btn-undo').addEventListener('click', undo);
  $('btn-redo').addEventListener('click', redo);
  $('btn-pass').addEventListener('click', playPass);
  $('btn-hint').addEventListener('click', hint);
  $('btn-flip').addEventListener('click', flip);
  $('btn-skip').addEventListener('click', skipAnimation);
  $('btn-live').addEventListener('click', () => lookAt(S.view.ply));
  $('btn-step').addEventListener('click', stepForward);
  startHelps();
  const speed = localStorage.getItem('sowing.speed');
  if (speed) $('speed').value = speed;
  $('speed').addEventListener('change', () => localStorage.setItem('sowing.speed', $('speed').value));
  document.addEventListener('keydown', onKey);
  window.addEventListener('hashchange', followAddress);
  window.addEventListener('popstate', followAddress);
  NARROW.addEventListener('change', () => { forgetBoard(); render(); seatLabels(); });
  renderEmpty();
  window.addEventListener('online', syncKept);
  setInterval(syncKept, 10000);

  if (liveFromAddress() || tournamentsFromAddress()) return;
  const fromHash = /#game=(-?\d+)/.exec(location.hash);
  const named = fromHash ? fromHash[1] : localStorage.getItem('sowing.game');
  const id = (named && sentAs(named)) || named;
  if (id) {
    load(id).catch((e) => {
      localStorage.removeItem('sowing.game');
      openNewGame();
      // A link to a game that is gone says so, rather than opening the dialog silently.
      if (fromHash) $('new-error').textContent = T('game-gone', { id: String(id), error: e.message.replace(/\.$/, '') });
    });
  } else {
    openNewGame();
  }
}

init();
