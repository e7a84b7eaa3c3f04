// The engine in the browser (issue 41) on a 390 px phone: a whole game against level 4 whose
// computer moves, hint and evaluation bar come from the WebAssembly engine in the page's
// worker (the server's engine route is never asked; the moves are posted as any move), and a
// browser told to use the server's engine still plays through it. Run by
// scripts/browser-test.sh (SOW_URL).
import { BASE, api, assert, check, equal, finish, launch } from './common.mjs';

const browser = await launch();
const errors = [];

async function phone(engine) {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true,
  });
  await context.addInitScript((e) => {
    localStorage.setItem('sowing.speed', '10');
    if (e) localStorage.setItem('sowing.engine', e);
  }, engine);
  const page = await context.newPage();
  page.setDefaultTimeout(60000);
  page.on('pageerror', (e) => errors.push(e.message));
  const engineCalls = [];
  page.on('request', (r) => { if (/\/api\/games\/\d+\/engine$/.test(r.url())) engineCalls.push(r.url()); });
  return { page, engineCalls };
}

const idle = (p) => p.waitForFunction(() => document.body.dataset.busy === '0' && document.body.dataset.animating === '0');

/** Plays the first legal pit until the game is over; returns the moves the person made. */
async function playOut(p, id) {
  let mine = 0;
  for (let turn = 0; turn < 400; turn++) {
    await idle(p);
    const v = await api('GET', `/games/${id}`);
    if (v.state.over) return mine;
    if (v.state.to_move !== 'south') { await p.waitForTimeout(50); continue; }
    const move = v.state.legal[0];
    if (move === 'pass') await p.click('#btn-pass');
    else await p.tap(`#board .pit[data-name="${move}"]`);
    await p.waitForFunction((n) => Number(document.body.dataset.ply) > n, v.ply);
    mine += 1;
  }
  throw new Error('the game did not end in 400 turns');
}

await check('a whole game against level 4 on a phone: moves, hint and bar from the engine in the browser', async () => {
  const { page: p, engineCalls } = await phone();
  const { id } = await api('POST', '/games', { game: 'hoyito-ii', south: 'human', north: 'level:4' });
  await p.goto(`${BASE}/#game=${id}`);
  await p.waitForFunction((g) => Number(document.body.dataset.game) === g, id);
  await idle(p);
  await p.click('#btn-hint');
  await p.waitForFunction(() => document.querySelector('#board .pit.hint') !== null);
  await p.waitForFunction(() => /\d/.test(document.getElementById('eval-text').textContent));
  const mine = await playOut(p, id);
  const v = await api('GET', `/games/${id}`);
  assert(v.state.over, 'the game is over');
  assert(mine > 3, `the person moved ${mine} times`);
  equal(engineCalls, [], "requests to the server's engine");
  // Level 4 is capped by nodes: the server's engine, asked the same, chooses the same moves.
  const first = v.history.find((h) => h.side === 'north');
  const replay = await api('POST', '/games', { game: 'hoyito-ii', south: 'human', north: 'level:4' });
  for (const h of v.history.slice(0, first.ply - 1)) await api('POST', `/games/${replay.id}/moves`, { move: h.move });
  // The same seed needs the same game id: compare the search, not the seed's noise (level 4 has none).
  const server = await api('POST', `/games/${replay.id}/engine`, { play: false, engine: 'level:4' });
  equal(server.engine.move, first.move, "the server's level 4 in the browser's first position");
  await p.context().close();
});

await check("told to use the server's engine, the page plays through it", async () => {
  const { page: p, engineCalls } = await phone('server');
  const { id } = await api('POST', '/games', { game: 'ayoayo', south: 'human', north: 'level:2' });
  await p.goto(`${BASE}/#game=${id}`);
  await p.waitForFunction((g) => Number(document.body.dataset.game) === g, id);
  await idle(p);
  const v = await api('GET', `/games/${id}`);
  await p.tap(`#board .pit[data-name="${v.state.legal[0]}"]`);
  await p.waitForFunction(() => Number(document.body.dataset.ply) >= 2);
  assert(engineCalls.length > 0, "the server's engine was asked");
  await p.context().close();
});

// The server has tables of Hoyito II to 8 seeds (scripts/browser-test.sh).
await check('the tables are fetched once, kept, and give the values on the pits in the browser', async () => {
  const { page: p } = await phone();
  const asked = [];
  p.on('request', (r) => { if (/\/api\/(tables|games\/\d+\/tables)/.test(r.url())) asked.push(new URL(r.url()).pathname); });
  await p.addInitScript(() => localStorage.setItem('sowing.tables', '1'));
  const start = 'hoyito-ii 2,1,0,0,0,1/0,0,3,1,0,0 20-20 S -';
  const { id } = await api('POST', '/records', { record: `[Game "hoyito-ii"]\n[Start "${start}"]\n\n*` });
  await p.goto(`${BASE}/#game=${id}`);
  await p.waitForFunction(() => document.querySelectorAll('#board .table-value').length === 3);
  const family = '/api/tables/hoyito-ii-2x6-casa-rows%3Dany';
  equal(asked, [family, `${family}/4`, `${family}/8`], 'requests for tables');
  const server = await api('GET', `/games/${id}/tables`);
  const shown = await p.$$eval('#board .table-value text', (t) => t.map((e) => e.textContent));
  equal(shown.length, server.moves.length, 'values shown, one a legal move');
  asked.length = 0;
  await p.reload();
  await p.waitForFunction(() => document.querySelectorAll('#board .table-value').length === 3);
  equal(asked, [], 'requests for tables after a reload (kept in the browser)');
  await p.context().close();
});

await check('no errors on the pages', async () => equal(errors, [], 'errors'));
await browser.close();
finish();
