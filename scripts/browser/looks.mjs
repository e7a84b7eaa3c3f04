// Screenshots of the page's main views, for comparing its looks before and after a change:
// a game in progress, the new-game dialog, a Learn lesson, an end-of-game summary, each on
// a 1280 px desktop and a 390 px phone (and the game in the dark scheme). Run by
// scripts/browser-looks.sh, which starts the server and passes SOW_URL and LOOKS (the
// prefix of the files to write, e.g. docs/looks/after).
import { BASE, api, launch } from './common.mjs';

const PREFIX = process.env.LOOKS;
if (!PREFIX) throw new Error('LOOKS is not set');

// A game against the computer some moves in: South plays its first legal move each turn
// (a fixed choice, so the picture is the same each time), North the engine's.
async function gameInProgress() {
  let v = await api('POST', '/games', { game: 'hoyito-ii', south: 'human', north: 'level:2' });
  while (v.ply < 7 && !v.state.over) {
    if (v.state.to_move === 'south') {
      v = (await api('POST', `/games/${v.id}/moves`, { move: v.state.legal[Math.min(2, v.state.legal.length - 1)], ply: v.ply })).game;
    } else {
      v = (await api('POST', `/games/${v.id}/engine`, { play: true, time_ms: 200, ply: v.ply, engine: 'greedy' })).game;
    }
  }
  return v.id;
}

// A finished game: from a prepared position South's B makes a casa and takes the last four.
async function finishedGame() {
  const v = await api('POST', '/records', { record: '[Game "hoyito-ii"]\n[Start "hoyito-ii 0,1,3,0,0,0/2,0,0,0,0,2 19-21 S -"]\n\n*' });
  await api('POST', `/games/${v.id}/moves`, { move: 'B', ply: 0 });
  return v.id;
}

const idle = (p) => p.waitForFunction(() => document.body.dataset.busy === '0' && document.body.dataset.animating === '0');
const opened = (p, gid) => p.waitForFunction((g) => Number(document.body.dataset.game) === g, gid);

const browser = await launch();
const playing = await gameInProgress();
const finished = await finishedGame();
const screens = [
  ['desktop', { viewport: { width: 1280, height: 800 } }],
  ['phone', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }],
  ['dark', { viewport: { width: 1280, height: 800 }, colorScheme: 'dark' }],
];
for (const [screen, options] of screens) {
  const context = await browser.newContext({ ...options, reducedMotion: 'reduce' });
  const p = await context.newPage();
  const full = screen === 'phone';
  const shoot = async (view) => {
    await p.waitForTimeout(700); // the evaluation bar and transitions settle
    const path = `${PREFIX}-${view}-${screen}.png`;
    await p.screenshot({ path, fullPage: full || view === 'summary' });
    console.log(`screenshot: ${path}`);
  };
  await p.goto(`${BASE}/#game=${playing}`);
  await opened(p, playing);
  await idle(p);
  await shoot('game');
  if (screen === 'dark') { await context.close(); continue; }
  await p.click('#btn-new');
  await p.waitForSelector('#new-game[open]');
  await shoot('dialog');
  await p.click('#new-form button[value="cancel"]');
  await p.click('#btn-learn');
  await p.waitForFunction(() => document.body.dataset.lesson === 'hoyito-ii:0' && document.body.dataset.busy === '0');
  await p.click('#lesson-list button[data-lesson="2"]');
  await p.waitForFunction(() => document.body.dataset.lesson === 'hoyito-ii:2' && document.body.dataset.busy === '0');
  await p.click('#lesson-try');
  await idle(p);
  await shoot('learn');
  await p.click('#lesson-close');
  await idle(p);
  await p.goto(`${BASE}/#game=${finished}`);
  await opened(p, finished);
  await idle(p);
  await shoot('summary');
  await context.close();
}
await browser.close();
