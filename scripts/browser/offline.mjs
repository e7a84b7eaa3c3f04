// Installable and offline (issue 41), on a 390 px phone: the page meets Chromium's
// installability criteria (the manifest, its icons, the service worker), and once visited it
// opens with no connection — the shell from the service worker, a notice of what needs the
// server, and the engine in the browser, whose WebAssembly module and tables are kept too,
// answering a level-4 search and the tables' values. With SHOT=FILE, a screenshot as the installed app shows it
// (display-mode standalone). Then, with the server stopped, a page visited before plays a
// whole game against level 4 through its own engine, with a hint, the bar and the tables'
// values, opens Learn, and reviews the game, and a tab closed in the middle of a lesson leaves
// no lesson's game behind; when the server is back, two tabs send the game and the server
// keeps it once, and nothing else. Run by scripts/browser-test.sh (SOW_URL, and SOW_DOWN_CMD and
// SOW_UP_CMD, which stop and start the server).
import { execSync } from 'node:child_process';
import { BASE, api, assert, check, equal, finish, launch } from './common.mjs';

const browser = await launch();
const errors = [];

await check('installable, and opens offline with the engine and its tables', async () => {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true,
  });
  const p = await context.newPage();
  p.on('pageerror', (e) => errors.push(e.message));
  p.setDefaultTimeout(30000);
  await p.addInitScript(() => localStorage.setItem('sowing.tables', '1'));
  const start = 'hoyito-ii 2,1,0,0,0,1/0,0,3,1,0,0 20-20 S -';
  const { id } = await api('POST', '/records', { record: `[Game "hoyito-ii"]\n[Start "${start}"]\n\n*` });
  await p.goto(`${BASE}/#game=${id}`);
  // The tables reach the browser with the first values on the pits.
  await p.waitForFunction(() => document.querySelectorAll('#board .table-value').length === 3);
  await p.evaluate(async () => { await navigator.serviceWorker.ready; });
  await p.reload(); // now under the service worker's control
  await p.waitForFunction(() => !!navigator.serviceWorker.controller);
  const cdp = await context.newCDPSession(p);
  const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
  // A test context is an incognito profile, where Chromium installs nothing: every other
  // criterion must hold.
  equal(installabilityErrors.filter((e) => e.errorId !== 'in-incognito'), [], "Chromium's installability errors");
  const manifest = await (await fetch(`${BASE}/manifest.webmanifest`)).json();
  equal(manifest.display, 'standalone', 'display');

  await context.setOffline(true);
  await p.reload();
  await p.waitForFunction(() => document.querySelector('#btn-new') && document.querySelector('#btn-new').textContent.length > 0);
  // The game's moves are the server's: the page says it cannot reach it, and what needs it.
  await p.waitForSelector('#offline:not([hidden])');
  assert(/Live games, accounts, the lobby and tournaments need the connection/.test(await p.textContent('#offline')),
    `the offline notice: ${await p.textContent('#offline')}`);
  const offline = await p.evaluate(async (position) => {
    const { ask, withTables } = await import('/pocket.js');
    const kept = await withTables({ position });
    const search = await ask({ op: 'search', position: (await ask({ op: 'start', game: 'ayoayo' })).position, engine: 'level:4', seed: 1 });
    const values = await ask({ op: 'table_values', position });
    return { kept, move: search.move, nodes: search.nodes, inside: values.inside, value: values.value };
  }, start);
  assert(/^[A-F]$/.test(offline.move), `level 4 offline plays ${offline.move}`);
  assert(offline.nodes > 0, 'and searched');
  equal([offline.kept, offline.inside, offline.value], [true, true, 8], 'the tables offline: kept, inside, the value');
  if (process.env.SHOT) {
    await cdp.send('Emulation.setEmulatedMedia', { features: [{ name: 'display-mode', value: 'standalone' }] });
    await context.setOffline(false);
    await p.goto(`${BASE}/#game=${id}`);
    await p.waitForFunction(() => document.querySelectorAll('#board .table-value').length === 3);
    await p.waitForTimeout(500);
    await p.screenshot({ path: process.env.SHOT });
  }
  await context.close();
});

await check('the server stopped, in Spanish: a whole game against level 4, reviewed, then synced once from two tabs', async () => {
  for (const name of ['SOW_DOWN_CMD', 'SOW_UP_CMD']) if (!process.env[name]) throw new Error(`${name} is not set`);
  const context = await browser.newContext({
    locale: 'es-DO',
    viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true,
  });
  await context.addInitScript(() => { localStorage.setItem('sowing.speed', '10'); localStorage.setItem('sowing.tables', '1'); });
  const p = await context.newPage();
  p.on('pageerror', (e) => errors.push(e.message));
  p.setDefaultTimeout(60000);
  await p.goto(`${BASE}/`);
  await p.evaluate(async () => { await navigator.serviceWorker.ready; });
  await p.reload();
  await p.waitForFunction(() => !!navigator.serviceWorker.controller);
  // The visit keeps Hoyito II's tables, as a game's first values on the pits would.
  await p.evaluate(async () => {
    const { ask, withTables } = await import('/pocket.js');
    await withTables({ position: (await ask({ op: 'start', game: 'hoyito-ii' })).position });
  });
  const key = await p.evaluate(() => localStorage.getItem('sowing.player'));
  const listed = async () => (await (await fetch(`${BASE}/api/games?limit=200`, { headers: { 'x-player-key': key } })).json()).games;
  // Other tests' games of the same key (level 4 plays the same game against the same moves).
  const before = Math.max(0, ...(await listed()).map((g) => g.id));

  execSync(process.env.SOW_DOWN_CMD, { stdio: 'inherit' });
  let up = false;
  try {
    await p.reload();
    await p.waitForFunction(() => document.querySelector('#btn-new') && document.querySelector('#btn-new').textContent.length > 0);
    // The page speaks Spanish offline: its catalogue came from the service worker.
    equal(await p.evaluate(() => document.documentElement.lang), 'es', 'the page\'s language');
    if (!(await p.locator('#new-game').evaluate((d) => d.open))) await p.click('#btn-new');
    await p.selectOption('#f-game', 'hoyito-ii:6');
    await p.selectOption('#f-south', 'human');
    await p.selectOption('#f-north', 'level:4');
    await p.click('#btn-start');
    await p.waitForFunction(() => Number(document.body.dataset.game) < 0);
    const id = Number(await p.evaluate(() => document.body.dataset.game));
    const idle = () => p.waitForFunction(() => document.body.dataset.busy === '0' && document.body.dataset.animating === '0');
    await idle();
    await p.click('#btn-hint');
    await p.waitForFunction(() => document.querySelector('#board .pit.hint') !== null);
    await p.waitForFunction(() => /\d/.test(document.getElementById('eval-text').textContent));
    // Play the first legal pit until the end; the tables' values show once the board is small.
    let valued = false;
    for (let turn = 0; ; turn++) {
      assert(turn < 400, 'the game ends within 400 turns');
      await idle();
      const v = await p.evaluate(async () => (await import('/state.js')).S.view);
      if (v.state.over) break;
      if (v.state.to_move !== 'south') { await p.waitForTimeout(50); continue; }
      valued ||= await p.evaluate(() => document.querySelectorAll('#board .table-value').length > 0);
      const move = v.state.legal[0];
      if (move === 'pass') await p.click('#btn-pass');
      else await p.tap(`#board .pit[data-name="${move}"]`);
      await p.waitForFunction((n) => Number(document.body.dataset.ply) > n, v.ply);
    }
    assert(valued, "the tables' values were on the pits offline");
    const played = await p.evaluate(async () => (await import('/state.js')).S.view);
    assert(played.history.some((h) => h.side === 'north'), 'level 4 moved');
    // The saved games list it with the server away.
    await p.click('#btn-saved');
    await p.waitForSelector(`#saved-body tr[data-game="${id}"]`);
    await p.evaluate(() => document.getElementById('saved').close());
    // The review, made by the engine in the page.
    await p.waitForSelector('#summary:not([hidden]) #btn-analysis');
    await p.click('#btn-analysis');
    await p.waitForFunction(() => document.body.dataset.analysis === 'done' && document.querySelector('#review .review-graph'));
    const points = await p.$$eval('#review .hit', (h) => h.length);
    const turns = played.history.filter((h, i) => i === 0 || h.side !== played.history[i - 1].side).length;
    equal(points, turns + 1, "the review's graph: a point at the start and after each turn");
    // Learn opens and shows its first lesson's board.
    await p.click('#btn-learn');
    await p.waitForSelector('#learn:not([hidden])');
    await p.waitForFunction(() => Number(document.body.dataset.game) < 0 && document.querySelectorAll('#board .pit').length > 0);
    await p.click('#lesson-close');
    await p.waitForFunction((g) => Number(document.body.dataset.game) === g, id);
    // A tab closed in the middle of a lesson takes the lesson's game with it: none is sent.
    const lesson = await context.newPage();
    lesson.on('pageerror', (e) => errors.push(e.message));
    await lesson.goto(`${BASE}/#game=${id}`);
    await lesson.waitForFunction((g) => Number(document.body.dataset.game) === g && document.body.dataset.busy === '0', id);
    await lesson.click('#btn-learn');
    await lesson.waitForFunction(() => document.body.dataset.lesson && document.body.dataset.busy === '0' && Number(document.body.dataset.game) < 0);
    const lessonId = Number(await lesson.evaluate(() => document.body.dataset.game));
    await lesson.close({ runBeforeUnload: true });
    await p.waitForFunction((g) => !(String(g) in JSON.parse(localStorage.getItem('sowing.local-games') || '{}')), lessonId);
    // A second tab of the same browser, open when the server comes back.
    const second = await context.newPage();
    second.on('pageerror', (e) => errors.push(e.message));
    await second.goto(`${BASE}/#game=${id}`);
    await second.waitForFunction((g) => Number(document.body.dataset.game) === g, id);

    execSync(process.env.SOW_UP_CMD, { stdio: 'inherit' });
    up = true;
    // Both tabs send it; each then shows the server's game, the same one.
    const synced = await Promise.all([p, second].map(async (tab) => {
      try {
        await tab.waitForFunction(() => Number(document.body.dataset.game) > 0, null, { timeout: 60000 });
      } catch (e) {
        const kept = await tab.evaluate(() => [document.body.dataset.game, localStorage.getItem('sowing.local-games')]);
        throw new Error(`${e.message}; the tab shows game ${kept[0]}, keeps ${kept[1]}`);
      }
      return tab.evaluate(() => Number(document.body.dataset.game));
    }));
    equal(synced[0], synced[1], 'the two tabs show the same game');
    await p.reload();
    await p.reload();
    await p.waitForFunction((g) => Number(document.body.dataset.game) === g, synced[0]);
    const games = (await listed()).filter((g) => g.id > before);
    const moves = played.history.map((h) => h.move).join(' ');
    const same = [];
    for (const g of games) {
      const v = await (await fetch(`${BASE}/api/games/${g.id}`, { headers: { 'x-player-key': key } })).json();
      if (v.history.map((h) => h.move).join(' ') === moves) same.push(g.id);
    }
    equal(same, [synced[0]], "the games of the browser's key with the offline game's moves");
    equal(games.map((g) => g.id), [synced[0]], "the games sent: the one played, no lesson's");
    const v = await api('GET', `/games/${synced[0]}`);
    equal([v.players.north, v.state.over], ['level:4', true], 'kept as played: against level 4, over');
    // A game kept here later never takes the id of one sent (its links lead to the server's).
    const next = await p.evaluate(async () => {
      const local = await import('/local.js');
      const made = await local.createLocal({ game: 'ayoayo', south: 'human', north: 'level:1' });
      await local.localApi('DELETE', `/games/${made.id}`);
      return made.id;
    });
    assert(next < id, `a new id after the sync: ${next}, the sent game's ${id}`);
  } finally {
    if (!up) execSync(process.env.SOW_UP_CMD, { stdio: 'inherit' });
  }
  await context.close();
});

await check('no errors on the pages', async () => equal(errors, [], 'errors'));
await browser.close();
finish();
