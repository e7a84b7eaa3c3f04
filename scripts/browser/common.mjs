// What every browser test file shares: the server's address, Debian's Chromium launched
// headless with the flags this machine needs, the API over fetch, and the checks with their
// tally. The files are run by scripts/browser-test.sh (SOW_URL, and SOW_RESTART for a hard
// restart of the server) and scripts/browser-looks.sh.
import { chromium } from 'playwright-core';

export const BASE = process.env.SOW_URL;
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
if (!BASE) throw new Error('SOW_URL is not set');

/** Headless Chromium without sandbox, GPU or background connections (the machine has no network). */
export function launch() {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--no-first-run', '--disable-sync', '--disable-quic'],
  });
}

/** A JSON API call; `token` is a live seat's (`X-Seat-Token`). Throws on a non-2xx answer. */
export async function api(method, path, body, token) {
  const headers = body ? { 'content-type': 'application/json' } : {};
  if (token) headers['x-seat-token'] = token;
  const r = await fetch(BASE + '/api' + path, { method, headers, body: body ? JSON.stringify(body) : undefined });
  const data = await r.json();
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(data)}`);
  return data;
}

const tally = { passed: 0, failed: 0 };

/** Runs one named check, printing `ok` or `FAILED` with the first lines of the error. */
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
