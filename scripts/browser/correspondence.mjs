// A correspondence game in the browser over two simulated days: Ana (a desktop, English)
// posts a "1 day a move" challenge in the lobby, Bo (a 390 px phone, Spanish) takes it, each
// sees *Your turn* in the header when the game waits for them, a day's time comes back whole
// after each move, and when Ana stays away past her day the server's sweep ends the game
// with nobody acting. The server is crates/sowing-web/examples/manual_clock_server (its
// clocks move only when told); run by scripts/browser-test.sh (MANUAL_CLOCK_SERVER).
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SERVER = process.env.MANUAL_CLOCK_SERVER;
if (!SERVER) throw new Error('MANUAL_CLOCK_SERVER is not set');
const child = spawn(SERVER, [join(mkdtempSync(join(tmpdir(), 'sow-corr-')), 'games.db')], { stdio: ['pipe', 'pipe', 'inherit'] });
const lines = createInterface({ input: child.stdout });
const waiting = [];
lines.on('line', (line) => { const next = waiting.shift(); if (next) next(line); });
const nextLine = () => new Promise((resolve) => waiting.push(resolve));
const first = await nextLine();
process.env.SOW_URL = /http:\/\/[0-9.:]+/.exec(first)[0];
const { assert, check, equal, finish, launch, playerPage, waitInPage } = await import('./common.mjs');
const HOUR = 3600000;
async function advance(ms) {
  const answer = nextLine();
  child.stdin.write(`advance ${ms}\n`);
  return answer;
}

const browser = await launch();
const errors = [];
let players = 0;
async function player(label, name, options) {
  players += 1;
  const key = (players + 10).toString(16).padStart(2, '0').repeat(16);
  const page = await playerPage(browser, label, key, options, errors);
  const status = await page.evaluate(async (n) => (await fetch('/api/account/signup', {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: n, password: 'correct horse' }),
  })).status, name);
  equal(status, 201, `${name} signs up`);
  await page.reload();
  await waitInPage(page, (n) => document.body.dataset.account === n, name);
  return page;
}
const ana = await player('Ana', 'Ana', { viewport: { width: 1200, height: 900 } });
const bo = await player('Bo', 'Bo', { viewport: { width: 390, height: 844 }, locale: 'es-ES', hasTouch: true, isMobile: true });
const turnsShown = (p) => p.evaluate(async () => {
  await (await import('/turns.js')).refreshTurns();
  const b = document.querySelector('#btn-turns');
  return b.hidden ? '' : b.textContent;
});
async function moveFirstLegal(p, ply) {
  await waitInPage(p, (n) => Number(document.body.dataset.ply) === n && document.querySelectorAll('#board .pit.legal').length > 0
    && document.body.dataset.animating === '0' && document.body.dataset.busy === '0', ply);
  await p.click('#board .pit.legal >> nth=0');
  await waitInPage(p, (n) => Number(document.body.dataset.ply) === n + 1 && document.body.dataset.busy === '0', ply);
}

let id = null;
await check('a "1 day a move" challenge is posted, taken from the lobby, and waits for South in her list', async () => {
  await ana.waitForSelector('#new-game[open]');
  await ana.selectOption('#f-game', 'hoyito-ii:6');
  await ana.check('#f-opponent-friend');
  await ana.selectOption('#f-clock', 'days:1');
  equal((await ana.locator('#f-clock option[value="days:1"]').textContent()).trim(), '1 day a move', 'the clock choice');
  await ana.check('#f-lobby');
  await ana.click('#btn-friend');
  await waitInPage(ana, () => document.body.dataset.live);
  id = Number(await ana.evaluate(() => document.body.dataset.live));
  await bo.keyboard.press('Escape');
  await bo.evaluate(() => document.querySelector('#new-game').open && document.querySelector('#new-game').close());
  const accept = `#lobby-list li[data-challenge="${id}"] button`;
  await bo.waitForSelector(accept, { timeout: 20000 });
  await bo.locator(accept).tap();
  await waitInPage(bo, (gid) => document.body.dataset.live === String(gid) && document.body.dataset.liveConnected === '1', id);
  equal(await turnsShown(ana), 'Your turn (1)', 'Ana’s header');
  equal(await turnsShown(bo), '', 'Bo waits');
});

await check('each move gives back a whole day, and the list follows whose turn it is', async () => {
  await advance(HOUR);
  await moveFirstLegal(ana, 0);
  equal(await turnsShown(bo), 'Te toca (1)', 'Bo’s header, in Spanish');
  equal(await turnsShown(ana), '', 'Ana waits');
  await advance(23 * HOUR);
  await moveFirstLegal(bo, 1);
  await waitInPage(ana, () => document.body.dataset.ply === '2' && document.body.dataset.busy === '0');
  const clock = await ana.locator('.live-clock[data-side="south"]').first().textContent();
  assert(/^(1 d 0 h 0 min|0 d 23 h 59 min)$/.test(clock.trim()), `Ana has her day again: ${clock}`);
});

await check('Ana away past her day: the sweep ends the game with nobody acting, on both pages', async () => {
  const said = await advance(25 * HOUR);
  assert(/\(1 games ended\)/.test(said), `the sweep ended it: ${said}`);
  await waitInPage(ana, () => /time ran out/.test(document.querySelector('#status').textContent));
  await waitInPage(bo, () => /se le acabó el tiempo/.test(document.querySelector('#status').textContent));
  equal(await turnsShown(ana), '', 'nothing waits any more');
});

await check('no page error', async () => equal(errors, [], 'page errors'));
await browser.close();
child.stdin.end();
child.kill();
finish();
