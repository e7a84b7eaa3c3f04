// What every browser test file shares: the server's address, Debian's Chromium launched
// headless with the flags this machine needs, the API over fetch, and the checks with their
// tally. The files are run by scripts/browser-test.sh (SOW_URL, and SOW_RESTART for a hard
// restart of the server) and scripts/browser-looks.sh.
import { chromium } from 'playwright-core';

export const BASE = process.env.SOW_URL;
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
if (!BASE) throw new Error('SOW_URL is not set');

/**
 * The player key of the tests (docs/api.md, "Owners"): the API calls here present it, and
 * every page starts with it in its storage, so the pages may play the games the tests make
 * through the API. A test of ownership gives a page another key.
 */
export const PLAYER_KEY = '7e57c0de7e57c0de7e57c0de7e57c0de';

/** Headless Chromium without sandbox, GPU or background connections (the machine has no network). */
export async function launch() {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--no-first-run', '--disable-sync', '--disable-quic'],
  });
  const newContext = browser.newContext.bind(browser);
  // English unless a test asks for another language (the page follows navigator.languages).
  browser.newContext = async (options) => {
    const context = await newContext({ locale: 'en-US', ...options });
    await context.addInitScript((key) => {
      if (!localStorage.getItem('sowing.player')) localStorage.setItem('sowing.player', key);
    }, PLAYER_KEY);
    return context;
  };
  // A page of its own context, as Browser.newPage makes it, with the key; closing the page
  // closes its context.
  browser.newPage = async (options) => {
    const context = await browser.newContext(options);
    const page = await context.newPage();
    page.on('close', () => context.close().catch(() => {}));
    return page;
  };
  return browser;
}

/**
 * A player of their own: a new context of `browser` (`options`: viewport, locale …) whose
 * storage holds player key `key` (a player is never paired with themself) and the fastest
 * animation, its page's errors pushed to `errors` under `label`, opened at the site.
 */
export async function playerPage(browser, label, key, options, errors) {
  const context = await browser.newContext(options);
  await context.addInitScript(([k]) => {
    localStorage.setItem('sowing.player', k);
    localStorage.setItem('sowing.speed', '10');
  }, [key]);
  const page = await context.newPage();
  page.setDefaultTimeout(30000);
  page.on('pageerror', (e) => errors.push(`${label}: ${e.message}`));
  await page.goto(BASE + '/');
  return page;
}

/** A JSON API call; `token` is a live seat's (`X-Seat-Token`). Throws on a non-2xx answer. */
export async function api(method, path, body, token) {
  const headers = body ? { 'content-type': 'application/json' } : {};
  headers['x-player-key'] = PLAYER_KEY;
  if (token) headers['x-seat-token'] = token;
  const r = await fetch(BASE + '/api' + path, { method, headers, body: body ? JSON.stringify(body) : undefined });
  const data = await r.json();
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(data)}`);
  return data;
}

/**
 * Waits until `fn(arg)`, run in the page, gives a truthy value, and returns it: what
 * page.waitForFunction does, for a function that awaits. The page keeps what a test reads
 * beyond the screen (the game it shows, its counters) in its ES modules, not in globals: a
 * test imports the module in the page (`await import('/state.js')`, the instance the page
 * runs) and reads it there. Polled every 20 ms; a navigation meanwhile is waited out.
 */
export async function waitInPage(p, fn, arg, { timeout = 30000 } = {}) {
  const end = Date.now() + timeout;
  for (;;) {
    try {
      const value = await p.evaluate(fn, arg);
      if (value) return value;
    } catch (e) {
      if (!/context was destroyed|navigat|Cannot find context/i.test(String(e && e.message))) throw e;
    }
    if (Date.now() > end) throw new Error(`waitInPage: ${timeout} ms passed, still false: ${fn}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const tally = { passed: 0, failed: 0 };

/** Runs one named check, printing `ok` or `FAILED` with the first lines of the error. */
// Settled: page `p` shows ply `ply` of live game `id`, connected, nothing animating or queued.
export const liveSettled = (p, id, ply) => waitInPage(p, async ([gid, n]) => {
  const { S } = await import('/state.js');
  return document.body.dataset.live === String(gid)
    && Number(document.body.dataset.ply) === n && document.body.dataset.animating === '0'
    && document.body.dataset.busy === '0' && document.body.dataset.liveConnected === '1'
    && S.view && !S.view.provisional && S.view.ply === n;
}, [id, ply]);

export async function check(name, fn) {
  try {
    await fn();
    tally.passed += 1;
    console.log(`ok      ${name}`);
  } catch (e) {
    tally.failed += 1;
    console.log(`FAILED  ${name}\n        ${String(e && e.stack || e).split('\n').slice(0, 4).join('\n        ')}`);
  }
}

export function assert(cond, message) { if (!cond) throw new Error(message); }

export function equal(a, b, message) {
  const [x, y] = [JSON.stringify(a), JSON.stringify(b)];
  if (x !== y) throw new Error(`${message}: ${x} != ${y}`);
}

/** Prints "N passed, M failed" and exits non-zero unless every check (at least one) passed. */
export function finish() {
  console.log(`${tally.passed} passed, ${tally.failed} failed`);
  process.exit(tally.failed === 0 && tally.passed > 0 ? 0 : 1);
}
