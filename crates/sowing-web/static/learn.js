// Learn: each game rule by rule, a lesson a set-up position played on the board as a game
// of its own (two people at this screen), with a move that shows the rule and one for the
// reader to find.
import { T } from './i18n.js';
import { api, apiHeaders } from './api.js';
import { escapeHtml, moveName } from './words.js';
import { animateAgain } from './board.js';
import { run, render, renderEmpty, showMove } from './game.js';
import { chosenGame } from './newgame.js';
import { S, parts } from './state.js';

const $ = (id) => document.getElementById(id);

// Each game, rule by rule: a lesson is a set-up position (a position text, docs/
// notation.md; `tags`, the record's option tags it needs; `moves`, moves played before the
// lesson begins, for a rule that needs a history), a move that shows the rule, and what the
// reader should try. The positions and what their moves do are checked by the browser tests
// against the server.
const HOYITO_II = [
  {
    msg: 'lesson-h2-sowing-and-relays', rule: 'H2.1, H2.2, H2.3',
    start: 'hoyito-ii 1,0,2,0,2,0/0,0,1,2,1,1 0-0 S -', example: 'C', expect: 'C',
  },
  {
    msg: 'lesson-h2-a-casa', rule: 'H2.3, H2.4, H2.6',
    start: 'hoyito-ii 1,0,3,0,0,3/2,1,0,1,0,1 0-0 S -', example: 'C', expect: 'C',
  },
  {
    msg: 'lesson-h2-a-chain-of-casas', rule: 'H2.5',
    start: 'hoyito-ii 2,0,0,3,3,3/3,1,0,2,0,1 0-0 S -', example: 'D', expect: 'D',
  },
  {
    msg: 'lesson-h2-casas-on-the-opponents-row-only', rule: 'H2.5 (casa-rows)',
    start: 'hoyito-ii 2,0,0,3,3,3/3,1,0,2,0,1 0-0 S - casa-rows=opponent', tags: '[CasaRows "opponent"]', example: 'D', expect: 'D',
  },
  {
    msg: 'lesson-h2-the-last-four-and-the-end', rule: 'H2.7, C.4',
    start: 'hoyito-ii 0,1,3,0,0,0/2,0,0,0,0,2 0-0 S -', example: 'B', expect: 'B',
  },
  {
    msg: 'lesson-h2-passing', rule: 'C.2',
    start: 'hoyito-ii 0,0,0,0,0,0/1,2,0,3,0,2 0-0 S -', example: 'pass', expect: 'pass',
  },
  {
    msg: 'lesson-h2-an-endless-sowing-is-refused', rule: 'C.1',
    start: 'hoyito-ii 2,1,0,1,3,1/0,2,1,0,1,0 0-0 S -', example: null, expect: null,
  },
  {
    msg: 'lesson-h2-a-position-comes-back', rule: 'C.3, H2.8, H3.4, A.8',
    start: 'hoyito-ii 0,1,1,0,0,0/0,0,0,1,0,1 20-20 S -', moves: 'B d D f F', example: 'b', expect: 'b',
  },
];
const HOYITO_III = [
  {
    msg: 'lesson-h3-as-hoyito-ii', rule: 'H3',
    start: 'hoyito-iii 1,0,3,0,0,3/2,1,0,1,0,1 0-0 S -', example: 'C', expect: 'C',
  },
  {
    msg: 'lesson-h3-one-casa-at-a-time', rule: 'H3.1',
    start: 'hoyito-iii 2,0,0,3,3,3/3,1,0,2,0,1 0-0 S -', example: 'D', expect: 'D',
  },
  {
    msg: 'lesson-h3-the-last-four', rule: 'H3.2',
    start: 'hoyito-iii 0,1,3,0,0,0/2,0,0,0,0,2 0-0 S -', example: 'B', expect: 'B',
  },
  {
    msg: 'lesson-h3-the-last-four-in-a-match', rule: 'H3.3',
    start: 'hoyito-iii 0,1,3,0,0,0/2,0,0,0,0,2 0-0 S - final-four=north', tags: '[FinalFour "north"]', example: 'B', expect: 'B',
  },
];
const AYOAYO = [
  {
    msg: 'lesson-ayo-sowing-and-relays', rule: 'A.1, A.3',
    start: 'ayoayo 1,0,2,0,2,0/0,0,1,2,1,1 0-0 S -', example: 'C', expect: 'C',
  },
  {
    msg: 'lesson-ayo-capture', rule: 'A.4',
    start: 'ayoayo 0,1,0,1,2,0/2,1,1,3,0,1 0-0 S -', example: 'B', expect: 'B',
  },
  {
    msg: 'lesson-ayo-skipping-the-pit-you-lifted', rule: 'A.2',
    start: 'ayoayo 12,0,1,0,1,0/1,0,1,0,1,0 0-0 S -', example: 'A', expect: 'A',
  },
  {
    msg: 'lesson-ayo-feeding', rule: 'A.5',
    start: 'ayoayo 1,0,0,0,0,2/0,0,0,0,0,0 10-20 S N', example: 'F', expect: 'F',
  },
  {
    msg: 'lesson-ayo-passing', rule: 'A.6, C.2',
    start: 'ayoayo 0,0,0,0,0,0/0,0,1,0,0,2 22-23 S N', example: 'pass', expect: 'pass',
  },
  {
    msg: 'lesson-ayo-the-end', rule: 'A.7, C.4',
    start: 'ayoayo 0,0,0,0,0,1/0,1,0,0,0,0 10-10 S N', example: 'F', expect: 'F',
  },
  {
    msg: 'lesson-ayo-the-seeds-left-to-each-rows-owner', rule: 'A.7 (leftover)',
    start: 'ayoayo 0,0,0,0,0,1/1,0,0,0,0,0 23-23 S N leftover=holder', tags: '[Leftover "holder"]', example: 'F', expect: 'F',
  },
];
const LEARN = [['hoyito-ii', 'Hoyito II', HOYITO_II], ['hoyito-iii', 'Hoyito III', HOYITO_III], ['ayoayo', 'Ayoayo', AYOAYO]];
// A lesson's words: its message's `title`, `words` or `ask`.
function lessonText(variant, k, part) {
  const [, , lessons] = LEARN.find(([v]) => v === variant);
  return T.attr(lessons[k].msg, part);
}
let LESSONS = HOYITO_II;
const L = { on: false, k: 0, game: null, returnTo: null, trying: false, watching: false, watched: false, variant: 'hoyito-ii' };


// What the lesson says to the reader. Within a lesson its box never shrinks (a short "Well
// done" after a long question would pull the board up as the move's animation ends): the
// space stays reserved until another lesson is shown.
function lessonSay(text, good, { fresh = false } = {}) {
  const box = $('lesson-say');
  box.style.minHeight = fresh || box.hidden ? '' : `${box.getBoundingClientRect().height}px`;
  box.textContent = text;
  box.classList.toggle('good', !!good);
}

function openLearn() {
  if (!L.on) {
    L.returnTo = S.view && S.view.id !== L.game ? S.view.id : L.returnTo;
    L.on = true;
  }
  $('learn').hidden = false;
  document.body.dataset.learn = '1';
  learnGame(L.variant, L.k);
}

// The lessons of one game.
function learnGame(variant, k) {
  const [, title, lessons] = LEARN.find(([v]) => v === variant);
  L.variant = variant;
  LESSONS = lessons;
  $('learn-games').innerHTML = LEARN.map(([v, t]) => `<button type="button" data-learn="${v}"${v === variant ? ' aria-current="page"' : ''}>${t}</button>`).join('');
  for (const b of $('learn-games').querySelectorAll('button')) b.addEventListener('click', () => learnGame(b.dataset.learn, 0));
  $('learn-title').textContent = T('learn-title', { game: title });
  $('lesson-list').innerHTML = LESSONS.map((l, n) => `<li><button type="button" data-lesson="${n}">${n + 1}. ${escapeHtml(T.attr(l.msg, 'title'))}</button></li>`).join('');
  for (const b of $('lesson-list').querySelectorAll('button')) b.addEventListener('click', () => showLesson(Number(b.dataset.lesson)));
  showLesson(Math.min(k, LESSONS.length - 1));
}

// Sets the lesson's position up as a game of its own (two people at this screen); the
// previous lesson's game is deleted.
function showLesson(k) {
  run(async () => {
    L.k = k;
    L.trying = false;
    L.watched = false;
    const lesson = LESSONS[k];
    const old = L.game;
    const event = T('learn-event', { lesson: T.attr(lesson.msg, 'title') }).replace(/["\\]/g, '');
    const record = `[Game "${L.variant}"]\n${lesson.tags ? lesson.tags + '\n' : ''}[Event "${event}"]\n[Start "${lesson.start}"]\n\n${lesson.moves || ''} *`;
    const v = await api('POST', '/records', { record });
    L.game = v.id;
    localStorage.setItem(LESSON_GAME, String(v.id));
    if (old) await dropLessonGame(old);
    S.view = v;
    S.viewPly = null;
    S.hint = null;
    $('commentary').textContent = '';
    $('summary').hidden = true;
    showLessonWords();
    $('lesson-watch').hidden = !lesson.example;
    $('lesson-next').hidden = k + 1 >= LESSONS.length;
    for (const b of $('lesson-list').querySelectorAll('button')) {
      if (Number(b.dataset.lesson) === k) b.setAttribute('aria-current', 'step'); else b.removeAttribute('aria-current');
    }
    if (lesson.example) {
      lessonSay(T('lesson-press-watch'), false, { fresh: true });
    } else {
      L.trying = true;
      lessonSay(T.attr(lesson.msg, 'ask'), false, { fresh: true });
    }
    document.body.dataset.lesson = `${L.variant}:${k}`;
  });
}

// The lesson's title, words and rule, in the language of the moment.
function showLessonWords() {
  const lesson = LESSONS[L.k];
  $('lesson-title').textContent = `${L.k + 1}. ${T.attr(lesson.msg, 'title')}`;
  $('lesson-words').textContent = T.attr(lesson.msg, 'words');
  $('lesson-rule').textContent = T('rule-ref', { rule: lesson.rule });
}

// The moves a lesson plays before it begins.
const lessonPlies = (lesson) => (lesson.moves ? lesson.moves.split(' ').length : 0);

// Back to the lesson's start position (after its prepared moves).
async function lessonRewind() {
  let v = S.view;
  const from = lessonPlies(LESSONS[L.k]);
  while (v.ply > from) v = (await api('POST', `/games/${v.id}/undo`, { ply: v.ply })).game;
  S.view = v;
  S.viewPly = null;
  S.hint = null;
}

function lessonWatch() {
  const lesson = LESSONS[L.k];
  if (!lesson.example || !S.view || S.view.id !== L.game) return;
  run(async () => {
    L.trying = false;
    L.watching = true;
    try {
      await lessonRewind();
      render();
      const v = S.view;
      lessonSay(T('lesson-watching'));
      animateAgain();
      const r = await api('POST', `/games/${v.id}/moves`, { move: lesson.example, ply: v.ply });
      await showMove(r, v.state.to_move, lesson.example, false);
      lessonSay(T('lesson-watched'));
      L.watched = true;
    } finally {
      L.watching = false;
    }
  });
}

function lessonTry() {
  if (!S.view || S.view.id !== L.game) return;
  run(async () => {
    await lessonRewind();
    $('commentary').textContent = '';
    L.trying = true;
    lessonSay(T.attr(LESSONS[L.k].msg, 'ask'));
  });
}

// After a move in a lesson: was it the one asked for? A first move played before the
// example was watched is judged too, with a word that the example is there to watch.
function lessonCheck() {
  if (!L.on || L.watching || !S.view || S.view.id !== L.game) return;
  const lesson = LESSONS[L.k];
  const from = lessonPlies(lesson);
  if (S.view.ply <= from) return;
  const early = !L.trying && !L.watched && lesson.example && S.view.ply === from + 1;
  if (!L.trying && !early) return;
  L.trying = false;
  if (early) {
    const played = S.view.history[from].move;
    lessonSay(T('lesson-before-example', { move: moveName(played), right: played === lesson.expect ? 'yes' : 'no' }), played === lesson.expect);
    return;
  }
  const played = S.view.history[from].move;
  const last = L.k + 1 < LESSONS.length ? 'no' : 'yes';
  if (!lesson.expect) lessonSay(T('lesson-played', { move: moveName(played), last }), true);
  else if (played === lesson.expect) lessonSay(T('lesson-well-done', { last }), true);
  else lessonSay(T('lesson-not-that', { move: moveName(played), expected: moveName(lesson.expect) }));
}

// Another game opened during a lesson: the lesson and its game go.
function leaveLearn() {
  if (L.game) dropLessonGame(L.game);
  L.on = false;
  L.game = null;
  L.trying = false;
  $('learn').hidden = true;
  delete document.body.dataset.learn;
  delete document.body.dataset.lesson;
}

// A lesson's game is scaffolding, not a saved game: deleted when the lesson ends, when the
// tab closes (a request that outlives the page; a lesson kept in this browser, played
// offline, at once, before another tab sends it as a game), or, failing both, at the next
// visit.
const LESSON_GAME = 'sowing.lesson';

async function dropLessonGame(id) {
  await api('DELETE', `/games/${id}`).catch(() => {});
  if (localStorage.getItem(LESSON_GAME) === String(id)) localStorage.removeItem(LESSON_GAME);
}

window.addEventListener('pagehide', () => {
  if (!L.game) return;
  if (L.game < 0) dropLessonGame(L.game); // local.js deletes it before its first await
  else fetch(`/api/games/${L.game}`, { method: 'DELETE', keepalive: true, headers: apiHeaders() });
});

function closeLearn() {
  const lessonGame = L.game;
  L.on = false;
  L.game = null;
  L.trying = false;
  $('learn').hidden = true;
  delete document.body.dataset.learn;
  delete document.body.dataset.lesson;
  run(async () => {
    if (lessonGame) await dropLessonGame(lessonGame);
    S.view = null;
    if (L.returnTo) {
      const v = await api('GET', `/games/${L.returnTo}`).catch(() => null);
      S.view = v;
    }
    S.viewPly = null;
    S.hint = null;
    $('commentary').textContent = '';
    if (!S.view) renderEmpty();
  });
}

// The language changed: the lesson's words again.
function relabelLearn() {
  if (!L.on) return;
  $('learn-title').textContent = T('learn-title', { game: LEARN.find(([v]) => v === L.variant)[1] });
  for (const b of $('lesson-list').querySelectorAll('button')) {
    const k = Number(b.dataset.lesson);
    b.textContent = `${k + 1}. ${T.attr(LESSONS[k].msg, 'title')}`;
  }
  showLessonWords();
}

function startLearn() {
  $('btn-learn').addEventListener('click', openLearn);
  $('lesson-close').addEventListener('click', closeLearn);
  $('lesson-watch').addEventListener('click', lessonWatch);
  $('lesson-try').addEventListener('click', lessonTry);
  $('lesson-next').addEventListener('click', () => showLesson(L.k + 1));
  $('about-learn').addEventListener('click', () => {
    const { game } = chosenGame();
    $('new-game').close();
    L.variant = game;
    L.k = 0;
    openLearn();
  });
  const leftover = localStorage.getItem(LESSON_GAME);
  if (leftover) dropLessonGame(Number(leftover));
}

parts.lesson = {
  showing: (v) => L.on && !!v && v.id === L.game,
  title: (v) => (L.on && v.id === L.game ? T('learn-board-title', { lesson: lessonText(L.variant, L.k, 'title') }) : null),
  check: lessonCheck,
  leave: () => { if (L.on) leaveLearn(); },
};

export { LEARN, relabelLearn, startLearn };
