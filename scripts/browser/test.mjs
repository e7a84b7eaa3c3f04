// Browser tests of `sow serve` in headless Chromium (Debian's /usr/bin/chromium, driven by
// playwright-core). Run by scripts/browser-test.sh, which starts the server and passes
// SOW_URL, SOW_RESTART (a command that kills the server hard and starts it again on the
// same database) and SHOT (where to write the screenshot, optional).
import { chromium } from 'playwright-core';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const BASE = process.env.SOW_URL;
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
if (!BASE) throw new Error('SOW_URL is not set');

let passed = 0, failed = 0;
async function check(name, fn) {
  try {
    await fn();
    passed += 1;
    console.log(`ok      ${name}`);
  } catch (e) {
    failed += 1;
    console.log(`FAILED  ${name}\n        ${String(e && e.stack || e).split('\n').slice(0, 4).join('\n        ')}`);
  }
}
function assert(cond, message) { if (!cond) throw new Error(message); }
function equal(a, b, message) {
  const [x, y] = [JSON.stringify(a), JSON.stringify(b)];
  if (x !== y) throw new Error(`${message}: ${x} != ${y}`);
}

async function api(method, path, body) {
  const r = await fetch(BASE + '/api' + path, {
    method, headers: body ? { 'content-type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined,
  });
  const data = await r.json();
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(data)}`);
  return data;
}

const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
    '--no-first-run', '--disable-sync', '--disable-quic'],
});
const downloads = mkdtempSync(join(tmpdir(), 'sowing-downloads-'));
const context = await browser.newContext({ viewport: { width: 1200, height: 860 }, acceptDownloads: true });
const page = await context.newPage();
const pageErrors = [];
page.on('pageerror', (e) => pageErrors.push(e.message));
page.setDefaultTimeout(60000);

// What the board shows: the count drawn in every pit, ring order, and in each store.
async function drawn(p = page) {
  return p.evaluate(() => {
    const pits = [...document.querySelectorAll('#board .pit')]
      .sort((a, b) => a.dataset.pit - b.dataset.pit)
      .map((g) => Number(g.querySelector('.count').textContent));
    const seeds = [...document.querySelectorAll('#board .pit')]
      .sort((a, b) => a.dataset.pit - b.dataset.pit)
      .map((g) => g.querySelectorAll('.seed').length);
    const captured = ['south', 'north'].map((s) => Number(document.querySelector(`[data-store=${s}] .store-count`).textContent));
    return { pits, seeds, captured };
  });
}
const gameId = (p = page) => p.evaluate(() => Number(document.body.dataset.game));
const idle = (p = page) => p.waitForFunction(() => document.body.dataset.busy === '0' && document.body.dataset.animating === '0');
const humanTurn = (p = page) => p.waitForFunction(() => ['human', 'over'].includes(document.body.dataset.turn)
  && document.body.dataset.busy === '0' && document.body.dataset.animating === '0');
const counters = (p = page) => p.evaluate(() => ({ ...window.sowing, state: undefined }));

async function newGame(options, p = page) {
  if (!(await p.locator('#new-game').evaluate((d) => d.open))) await p.click('#btn-new');
  await p.selectOption('#f-game', options.game);
  if (options.rounds) await p.fill('#f-rounds', String(options.rounds));
  for (const [field, value] of Object.entries(options.rules || {})) await p.selectOption(`#f-option-${field}`, value);
  await p.selectOption('#f-south', options.south || 'human');
  await p.selectOption('#f-north', options.north || 'human');
  if (options.time) await p.selectOption('#f-time', String(options.time));
  const before = await gameId(p);
  await p.click('#btn-start');
  await p.waitForFunction((old) => Number(document.body.dataset.game) > 0 && Number(document.body.dataset.game) !== old, before);
  await humanTurn(p);
  return gameId(p);
}

async function matchesServer(id, p = page) {
  const view = await api('GET', `/games/${id}`);
  const board = await drawn(p);
  equal(board.pits, view.state.pits, 'drawn pit counts vs the JSON state');
  equal(board.captured, view.state.captured, 'drawn captures vs the JSON state');
  equal(board.seeds, view.state.pits.map((n) => Math.min(n, 48)), 'seeds drawn in each pit');
  return view;
}

let id = null;

await check('the page opens with the new-game form', async () => {
  await page.goto(BASE + '/');
  await page.waitForSelector('#new-game[open]');
  const options = await page.$$eval('#f-game option', (o) => o.map((x) => x.value));
  equal(options, ['hoyito-ii:6', 'hoyito-ii:12', 'hoyito-iii', 'hoyito-iii:match', 'ayoayo'], 'games offered');
  const players = await page.$$eval('#f-north option', (o) => o.map((x) => x.value));
  for (let level = 1; level <= 6; level++) assert(players.includes(`level:${level}`), `level ${level} offered`);
});

await check('the form offers each game its own options, as GET /api/rules gives them', async () => {
  const rules = await api('GET', '/rules');
  const offered = await page.$$eval('#new-form [data-option]', (ls) => ls.map((l) => l.dataset.option));
  equal(offered, rules.options.map((o) => o.field), 'one select per rule option');
  const visible = async (game) => {
    await page.selectOption('#f-game', game);
    return page.$$eval('#new-form [data-option]', (ls) => ls.filter((l) => !l.hidden).map((l) => l.dataset.option));
  };
  equal(await visible('hoyito-ii:6'), ['casa_rows'], 'Hoyito II options');
  equal(await visible('hoyito-iii'), ['casa_rows', 'final_four'], 'Hoyito III options');
  equal(await visible('hoyito-iii:match'), ['casa_rows'], 'a match decides the last four');
  equal(await visible('ayoayo'), ['leftover'], 'Ayoayo options');
  const values = await page.$$eval('#f-option-leftover option', (o) => o.map((x) => x.value));
  equal(values, rules.options.find((o) => o.field === 'leftover').values.map((v) => v.name), 'leftover values');
});

await check('a computer level that the engine does not know yet is refused clearly, or plays', async () => {
  await page.selectOption('#f-game', 'hoyito-ii:6');
  await page.selectOption('#f-north', 'level:1');
  await page.click('#btn-start');
  await page.waitForFunction(() => !document.querySelector('#new-game').open || document.querySelector('#new-error').textContent !== '');
  const open = await page.locator('#new-game').evaluate((d) => d.open);
  if (open) {
    const text = await page.textContent('#new-error');
    assert(/level:1/.test(text) && /greedy or random/.test(text), `error says what to do: ${text}`);
  } else {
    await humanTurn();
    assert((await api('GET', `/games/${await gameId()}`)).players.north === 'level:1', 'level:1 plays North');
  }
});

await check('start Hoyito II 2×6 against the computer: six pits marked playable', async () => {
  await page.$eval('#speed', (r) => { r.value = '8'; r.dispatchEvent(new Event('change')); });
  id = await newGame({ game: 'hoyito-ii:6', north: 'greedy', time: 300 });
  const legal = await page.$$eval('#board .pit.legal', (g) => g.map((x) => x.dataset.name));
  equal(legal, ['A', 'B', 'C', 'D', 'E', 'F'], 'playable pits');
  await matchesServer(id);
});

await check('clicking pits sows with animation; the drawn counts match the JSON state; the computer answers', async () => {
  const before = await counters();
  for (let i = 0; i < 12; i++) {
    const view = await api('GET', `/games/${id}`);
    if (view.history.some((h) => h.side === 'north') || view.state.over) break;
    const pit = await page.$('#board .pit.legal');
    const name = await pit.getAttribute('data-name');
    const trace = view.state.legal.includes(name);
    assert(trace, `${name} is legal on the server`);
    await pit.click();
    await humanTurn();
  }
  const after = await counters();
  const view = await matchesServer(id);
  assert(view.history.some((h) => h.side === 'south'), 'South moved');
  assert(view.history.some((h) => h.side === 'north'), 'the computer (North) answered');
  assert(after.animations - before.animations >= 2, `one animation per move (${after.animations - before.animations})`);
  assert(after.steps > before.steps + 4, 'every animation drew steps');
  equal(after.mismatches, 0, 'animations that did not reach the server position');
  const moves = await page.$$eval('#moves button[data-ply]', (b) => b.length);
  equal(moves, view.ply + 1, 'move list entries (with the start)');
});

await check('the page keeps the game: a reload finds it as it was', async () => {
  const view = await api('GET', `/games/${id}`);
  await page.reload();
  await page.waitForFunction((gid) => Number(document.body.dataset.game) === gid, id);
  await humanTurn();
  const again = await matchesServer(id);
  equal(again.ply, view.ply, 'moves after reload');
  equal(await page.evaluate(() => Number(document.body.dataset.ply)), view.ply, 'ply shown');
});

await check('a hard kill and restart of the server loses no move', async () => {
  const view = await api('GET', `/games/${id}`);
  if (!process.env.SOW_RESTART) throw new Error('SOW_RESTART is not set');
  execSync(process.env.SOW_RESTART, { stdio: 'inherit' });
  await page.reload();
  await page.waitForFunction((gid) => Number(document.body.dataset.game) === gid, id);
  await humanTurn();
  const again = await matchesServer(id);
  equal(again.history, view.history, 'history after restart');
});

await check('hint marks the engine’s move on the board', async () => {
  await page.click('#btn-hint');
  await page.waitForSelector('#board .pit.hint');
  const hinted = await page.$eval('#board .pit.hint', (g) => g.dataset.name);
  const view = await api('GET', `/games/${id}`);
  assert(view.state.legal.includes(hinted), `hint ${hinted} is legal`);
  assert((await page.textContent('#status')).includes(`Hint: ${hinted}`), 'status names the hint');
});

await check('the evaluation bar shows a value and can be turned off', async () => {
  await page.waitForFunction(() => document.querySelector('#eval-text').textContent !== '');
  await page.uncheck('#eval-on');
  assert(await page.locator('#evalbar').isHidden(), 'bar hidden');
  await page.check('#eval-on');
  assert(await page.locator('#evalbar').isVisible(), 'bar shown again');
});

await check('undo takes back to the person’s turn', async () => {
  const before = await api('GET', `/games/${id}`);
  await page.click('#btn-undo');
  await humanTurn();
  const after = await api('GET', `/games/${id}`);
  assert(after.ply < before.ply, `fewer moves (${after.ply} < ${before.ply})`);
  equal(after.state.to_move, 'south', 'the person is to move');
  await matchesServer(id);
});

await check('the keyboard plays a pit by its letter', async () => {
  const before = await api('GET', `/games/${id}`);
  const name = before.state.legal[before.state.legal.length - 1];
  await page.click('#title');
  await page.keyboard.press(name.toLowerCase());
  await page.waitForFunction((ply) => Number(document.body.dataset.ply) > ply, before.ply);
  await humanTurn();
  const after = await api('GET', `/games/${id}`);
  equal(after.history[before.ply].move, name, 'the move typed');
  await matchesServer(id);
});

await check('clicking a move in the list shows the position then', async () => {
  const view = await api('GET', `/games/${id}`);
  await page.click('#moves button[data-ply="1"]');
  assert(await page.locator('#viewing').isVisible(), 'the page says it shows an earlier position');
  equal((await drawn()).pits, view.history[0].after.pits, 'pits after move 1');
  equal(await page.$$eval('#board .pit.legal', (g) => g.length), 0, 'no pit playable there');
  // Replay: from the start, the next move is played again with the animation.
  await page.click('#moves button[data-ply="0"]');
  equal((await drawn()).pits, view.start.pits, 'the start');
  const before = await counters();
  await page.click('#btn-step');
  await page.waitForFunction((n) => window.sowing.animations > n && document.body.dataset.busy === '0', before.animations);
  equal((await drawn()).pits, view.history[0].after.pits, 'pits after the replayed move 1');
  equal((await counters()).mismatches, 0, 'replay animations that missed');
  await page.click('#btn-live');
  await humanTurn();
  await matchesServer(id);
});

await check('flip turns the board round', async () => {
  const y = () => page.$eval('#board .pit[data-pit="0"]', (g) => g.getBoundingClientRect().y);
  const before = await y();
  await page.click('#btn-flip');
  const after = await y();
  assert(after < before, 'pit A moved from the bottom row to the top');
  await matchesServer(id);
  await page.click('#btn-flip');
});

let recordPath = null;
await check('download a record of the game', async () => {
  const view = await api('GET', `/games/${id}`);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download')]);
  recordPath = join(downloads, download.suggestedFilename());
  await download.saveAs(recordPath);
  const text = readFileSync(recordPath, 'utf8');
  assert(text.includes('[Game "hoyito-ii"]'), 'the record names the game');
  const tokens = text.split('\n\n')[1].split(/\s+/).filter((t) => t && !/^\d+\.$/.test(t) && t !== '*');
  equal(tokens, view.history.map((h) => h.move), 'the record’s moves');
});

await check('upload a record to continue it', async () => {
  assert(recordPath, 'a record was downloaded');
  const view = await api('GET', `/games/${id}`);
  await page.setInputFiles('#upload', recordPath);
  await page.waitForFunction((old) => Number(document.body.dataset.game) !== old, id);
  await humanTurn();
  const copy = await api('GET', `/games/${await gameId()}`);
  equal(copy.history.map((h) => h.move), view.history.map((h) => h.move), 'moves of the uploaded game');
  await matchesServer(copy.id);
});

await check('saved games lists the games to resume', async () => {
  await page.click('#btn-saved');
  await page.waitForSelector(`#saved-body tr:has-text("${id}")`);
  const row = page.locator('#saved-body tr', { has: page.locator(`td:text-is("${id}")`) });
  await row.locator('button').click();
  await page.waitForFunction((gid) => Number(document.body.dataset.game) === gid, id);
  await humanTurn();
  await matchesServer(id);
});

await check('Ayoayo against the computer: stores drawn, sowing animated', async () => {
  const aid = await newGame({ game: 'ayoayo', north: 'random', time: 300, rules: { leftover: 'holder' } });
  equal((await api('GET', `/games/${aid}`)).rules.leftover, 'holder', 'the option chosen in the form');
  assert(/seeds left when the mover cannot feed: to each row/.test(await page.textContent('#title')), 'the title names the option');
  assert(await page.locator('[data-store=south].real').count() === 1, 'a store for South');
  const before = await counters();
  await page.click('#board .pit.legal >> nth=0');
  await page.waitForFunction(() => Number(document.body.dataset.ply) >= 1);
  await humanTurn();
  const view = await matchesServer(aid);
  assert(view.ply >= 2 || view.state.over, 'the computer answered');
  const after = await counters();
  assert(after.animations > before.animations, 'animated');
  equal(after.mismatches, 0, 'animations that did not reach the server position');
});

await check('a Hoyito III match: score table, next round, starter alternates', async () => {
  const mid = await newGame({ game: 'hoyito-iii:match', rounds: 2 });
  assert(await page.locator('#match table.score').isVisible(), 'the score table is shown');
  // Finish round 1 through the API, quickly.
  let view = await api('GET', `/games/${mid}`);
  while (!view.state.over) {
    view = (await api('POST', `/games/${mid}/moves`, { move: view.state.legal[0] })).game;
  }
  await page.reload();
  await page.waitForSelector('#btn-next-round');
  assert(await page.locator('#summary').isVisible(), 'the end-of-game summary is shown');
  const summary = await page.textContent('#summary');
  assert(/ended because/.test(summary), `summary gives the reason: ${summary}`);
  await page.click('#btn-next-round');
  await page.waitForFunction((old) => Number(document.body.dataset.game) !== old, mid);
  const round2 = await api('GET', `/games/${await gameId()}`);
  equal(round2.round, 2, 'round');
  equal(round2.state.to_move, 'north', 'North starts round 2');
  equal(await page.$$eval('#match tbody tr', (r) => r.length), 2, 'rows in the score table');
});

await check('Hoyito II on 2×12 draws 24 pits', async () => {
  const lid = await newGame({ game: 'hoyito-ii:12' });
  equal(await page.$$eval('#board .pit', (g) => g.length), 24, 'pits');
  await matchesServer(lid);
});

await check('a phone-sized screen shows the whole board without sideways scrolling', async () => {
  const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await phone.goto(`${BASE}/#game=${id}`);
  await phone.waitForFunction((gid) => Number(document.body.dataset.game) === gid, id);
  await humanTurn(phone);
  const widths = await phone.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    board: document.querySelector('#board').getBoundingClientRect().right,
    view: window.innerWidth,
  }));
  assert(widths.page <= widths.view, `page ${widths.page} wider than the screen ${widths.view}`);
  assert(widths.board <= widths.view, 'board within the screen');
  await matchesServer(id, phone);
  const plyBefore = (await api('GET', `/games/${id}`)).ply;
  await phone.tap('#board .pit.legal >> nth=0');
  await phone.waitForFunction((ply) => Number(document.body.dataset.ply) > ply, plyBefore);
  await humanTurn(phone);
  await matchesServer(id, phone);
  await phone.close();
});

await check('no script errors on the page', async () => {
  equal(pageErrors, [], 'page errors');
});

if (process.env.SHOT) {
  // The README's picture: a game under way with a hint showing.
  const shot = await browser.newPage({ viewport: { width: 1280, height: 760 } });
  await shot.goto(`${BASE}/#game=${id}`);
  await shot.waitForFunction((gid) => Number(document.body.dataset.game) === gid, id);
  await humanTurn(shot);
  await shot.click('#btn-hint');
  await shot.waitForSelector('#board .pit.hint');
  await shot.waitForTimeout(600); // let the evaluation bar settle for the picture
  await shot.screenshot({ path: process.env.SHOT });
  console.log(`screenshot: ${process.env.SHOT}`);
}

await browser.close();
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
