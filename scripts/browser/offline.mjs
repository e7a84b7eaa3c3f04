// Installable and offline (issue 41), on a 390 px phone: the page meets Chromium's
// installability criteria (the manifest, its icons, the service worker), and once visited it
// opens with no connection — the shell from the service worker, a notice of what needs the
// server, and the engine in the browser, whose WebAssembly module and tables are kept too,
// answering a level-4 search and the tables' values. With SHOT=FILE, a screenshot as the installed app shows it
// (display-mode standalone). Run by scripts/browser-test.sh (SOW_URL).
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

await check('no errors on the pages', async () => equal(errors, [], 'errors'));
await browser.close();
finish();
