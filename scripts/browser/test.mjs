// Browser tests of `sow serve` in headless Chromium (Debian's /usr/bin/chromium, driven by
// playwright-core). Run by scripts/browser-test.sh, which starts the server and passes
// SOW_URL, SOW_RESTART (a command that kills the server hard and starts it again on the
// same database) and SHOT (where to write the screenshot, optional).
import { BASE, PLAYER_KEY, api, assert, check, equal, finish, launch, waitInPage } from './common.mjs';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const browser = await launch();
const downloads = mkdtempSync(join(tmpdir(), 'sowing-downloads-'));
const context = await browser.newContext({ viewport: { width: 1200, height: 860 }, acceptDownloads: true });
// This suite watches the server's engine route (the bar's engine, the computer's replies):
// its page uses the server's engine, as a browser without WebAssembly does; pocket.mjs
// tests the engine in the browser.
await context.addInitScript(() => localStorage.setItem('sowing.engine', 'server'));
const page = await context.newPage();
const pageErrors = [];
page.on('pageerror', (e) => pageErrors.push(e.message));
// The engine every evaluation request names (issue 12, point 1: the bar must not switch
// engines from move to move).
const evalEngines = [];
page.on('request', (r) => {
  if (r.method() !== 'POST' || !/\/engine$/.test(r.url())) return;
  const body = JSON.parse(r.postData() || '{}');
  if (!body.play && body.time_ms === 300) evalEngines.push(body.engine);
});
// Reads a counter and presses a button in one step, so that nothing happens in between.
const pressAndCount = (selector, p = page) => p.evaluate(async (sel) => {
  const { counters } = await import('/board.js');
  const painted = counters.painted;
  document.querySelector(sel).click();
  return painted;
}, selector);
async function setSpeed(value, p = page) {
  await p.$eval('#speed', (r, v) => { r.value = String(v); r.dispatchEvent(new Event('change')); }, value);
}
// Sizes on screen of every pit, count and letter, and of the stores' labels.
const sizes = (p) => p.evaluate(() => {
  const box = (e) => { const r = e.getBoundingClientRect(); return { w: r.width, h: r.height }; };
  return {
    holes: [...document.querySelectorAll('#board .pit .hole')].map(box),
    counts: [...document.querySelectorAll('#board .pit .count')].map(box),
    letters: [...document.querySelectorAll('#board .pit .letter')].map(box),
    stores: [...document.querySelectorAll('#board .store-label, #board .store-count')].map(box),
  };
});
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
const counters = (p = page) => p.evaluate(async () => ({ ...(await import('/board.js')).counters }));

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
  if (options.wait !== false) await humanTurn(p);
  return gameId(p);
}

async function matchesServer(id, p = page) {
  const view = await api('GET', `/games/${id}`);
  const board = await drawn(p);
  equal(board.pits, view.state.pits, 'drawn pit counts vs the JSON state');
  equal(board.captured, view.state.captured, 'drawn captures vs the JSON state');
  equal(board.seeds, view.state.pits.map((n) => Math.min(n, 20)), 'seeds drawn in each pit (up to 20; the count says the rest)');
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
  await page.selectOption('#f-south', 'human');
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

await check('the new-game dialog says the options in words and which seat is harder', async () => {
  if (!(await page.locator('#new-game').evaluate((d) => d.open))) await page.click('#btn-new');
  await page.selectOption('#f-game', 'hoyito-ii:6');
  const option = await page.$eval('#new-form [data-option="casa_rows"] .option-name', (e) => e.textContent);
  assert(option.startsWith('Casas'), `option named in words: ${option}`);
  assert(!/\(H2\.5\)/.test(option), `no rule id as the label: ${option}`);
  equal(await page.$eval('#new-form [data-option="casa_rows"] .rule-ref', (e) => e.textContent), 'rule H2.5', 'the rule id as a small reference');
  assert(await page.locator('#game-about').isVisible(), 'a summary of the chosen game');
  assert(/harder/.test(await page.textContent('#about-seat')), 'which seat is harder');
  assert(/solved: with best play North wins by 28 seeds/.test(await page.textContent('#about-seat')), `the proven result: ${await page.textContent('#about-seat')}`);
  await page.selectOption('#f-option-casa_rows', 'opponent');
  const bounded = await page.textContent('#about-seat');
  assert(!/solved:/.test(bounded), `no proven result for options it was not proven under: ${bounded}`);
  assert(/harder seat — not solved yet, but proven: with best play North wins, by 4 to 32 seeds/.test(bounded), `the proven bounds of an open option set: ${bounded}`);
  await page.selectOption('#f-option-casa_rows', 'any');
  assert(/casa/.test(await page.textContent('#about-text')), 'the rules in a few words');
  // Each option set solved has its own proven result (docs/solve.md, "Every option set").
  await page.selectOption('#f-game', 'hoyito-iii');
  const proven = async () => page.textContent('#about-seat');
  assert(/North wins by 36 seeds/.test(await proven()), `Hoyito III, the last four to the capturer: ${await proven()}`);
  await page.selectOption('#f-option-final_four', 'south');
  assert(/North wins by 32 seeds/.test(await proven()), `the last four to South: ${await proven()}`);
  await page.selectOption('#f-option-final_four', 'north');
  assert(/North wins by 40 seeds/.test(await proven()), `the last four to North: ${await proven()}`);
  await page.selectOption('#f-option-final_four', 'capturer');
  await page.selectOption('#f-game', 'ayoayo');
  assert(/store/.test(await page.textContent('#about-text')), 'the summary follows the game chosen');
  assert(/North’s is the harder/.test(await page.textContent('#about-seat')), `Ayoayo's harder seat: ${await page.textContent('#about-seat')}`);
  assert(/solved: with best play South wins by 8 seeds/.test(await page.textContent('#about-seat')), `Ayoayo's proven result: ${await page.textContent('#about-seat')}`);
  await page.selectOption('#f-option-leftover', 'holder');
  assert(/solved: with best play South wins by 6 seeds/.test(await proven()), `Ayoayo, the seeds left to each row's owner: ${await proven()}`);
  await page.selectOption('#f-option-leftover', 'last-mover');
  await page.selectOption('#f-game', 'hoyito-iii');
  await page.selectOption('#f-option-casa_rows', 'opponent');
  assert(/not solved yet, but proven: with best play North wins, by 4 to 40 seeds/.test(await proven()), `Hoyito III with casas on the opponent's row only: ${await proven()}`);
  await page.selectOption('#f-option-final_four', 'south');
  assert(/not solved yet, but proven: with best play North wins, by 4 to 40 seeds/.test(await proven()), `the same, the last four to South: ${await proven()}`);
  await page.selectOption('#f-option-final_four', 'capturer');
  await page.selectOption('#f-option-casa_rows', 'any');
});

await check('the dialog says where each seat is on the board as this screen shows it', async () => {
  const where = async (p) => [await p.textContent('#seat-south'), await p.textContent('#seat-north')];
  if (!(await page.locator('#new-game').evaluate((d) => d.open))) await page.click('#btn-new');
  equal(await where(page), ['South (bottom, moves first)', 'North (top)'], 'a wide screen: the board lies flat');
  const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await phone.goto(BASE + '/');
  await phone.waitForSelector('#new-game[open]');
  equal(await where(phone), ['South (left, moves first)', 'North (right)'], 'a phone: the board stands upright');
  // Turned round, the seats change places, on the phone as drawn.
  await phone.evaluate(() => localStorage.setItem('sowing.flipped', '1'));
  await phone.reload();
  await phone.waitForSelector('#new-game[open]');
  equal(await where(phone), ['South (right, moves first)', 'North (left)'], 'a phone, the board turned round');
  const gid = (await api('POST', '/games', { game: 'hoyito-ii' })).id;
  await phone.goto(`${BASE}/#game=${gid}`);
  await phone.waitForFunction((g) => Number(document.body.dataset.game) === g, gid);
  const sides = await phone.evaluate(() => {
    const x = (name) => document.querySelector(`#board .pit[data-name="${name}"] .hole`).getBoundingClientRect().x;
    return { south: x('A'), north: x('a') };
  });
  assert(sides.south > sides.north, `turned round, South's row is drawn on the right (${JSON.stringify(sides)})`);
  await phone.evaluate(() => localStorage.removeItem('sowing.flipped'));
  await phone.close();
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
  // What the computer did, in a sentence a person can follow.
  const said = await page.textContent('#commentary');
  const last = view.history[view.history.length - 1];
  // The computer's whole turn is told: every move it made in a row, not the last alone.
  const who = last.side === 'south' ? 'South' : 'North';
  let inTurn = 0;
  for (let k = view.history.length - 1; k >= 0 && view.history[k].side === last.side; k--) inTurn += 1;
  const expected = inTurn > 1 ? `${who}’s turn: ${inTurn} moves (` : `${who} sowed `;
  assert(said.startsWith(expected) && said.includes(`${who} sowed ${last.move}:`), `the turn said in words (${inTurn} moves): ${said}`);
  assert(!/from \d/.test(said) && !/\bnorth\b|\bsouth\b/.test(said), `side names capitalised, no "from 1 c": ${said}`);
});

await check('a move is said in a sentence: relays, casas, captures, extra turns', async () => {
  const said = await page.evaluate(async () => (await import('/words.js')).describeMove('north', 'c', [
    { kind: 'lift', pit: 8, name: 'c', seeds: 4, relay: false }, { kind: 'drop', pit: 9, name: 'd' },
    { kind: 'lift', pit: 9, name: 'd', seeds: 5, relay: true }, { kind: 'lift', pit: 2, name: 'C', seeds: 3, relay: true },
    { kind: 'take', pit: 4, name: 'E', seeds: 4, by: 'north', why: 'capture' }, { kind: 'extra-turn' }], 'hoyito-ii'));
  equal(said, 'North sowed c: it relayed twice and made a casa at E — North takes 4 and moves again.', 'the sentence');
  equal(await page.evaluate(async () => (await import('/words.js')).describeMove('south', 'pass', [{ kind: 'pass' }], 'ayoayo')),
    'South had no sowing move and passed.', 'a pass');
});

await check('the move list numbers the turns; a one-move turn does not take a whole row', async () => {
  const turns = await page.$$eval('#moves li.turn', (li) => li.map((x) => ({
    num: x.querySelector('.num') && x.querySelector('.num').textContent, top: x.getBoundingClientRect().top,
  })));
  assert(turns.length >= 2, 'two turns at least');
  turns.forEach((t, k) => equal(t.num, `${k + 1}.`, `turn ${k + 1} numbered`));
  equal(turns[0].top, turns[1].top, 'turns 1 and 2 share a row');
});

await check('the evaluation bar always asks the same engine, and says its value readably', async () => {
  await page.waitForFunction(() => document.querySelector('#eval-words').textContent !== '');
  assert(evalEngines.length >= 2, `several evaluations (${evalEngines.length})`);
  assert(evalEngines.every((e) => e === 'level:6'), `one engine for the bar: ${evalEngines.join(' ')}`);
  const clip = await page.$eval('#eval-text', (e) => ({ s: e.scrollWidth, c: e.clientWidth, t: e.textContent }));
  assert(clip.s <= clip.c, `the value fits the bar: "${clip.t}" is ${clip.s} px in ${clip.c}`);
  // A search too shallow to mean anything (a slow debug build) shows no number: "?".
  const kind = await page.$eval('#evalbar', (b) => b.dataset.kind);
  assert(kind === 'unclear' ? clip.t === '?' : /^(0|[+−]\d+)$/.test(clip.t), `whole seeds (${kind}): ${clip.t}`);
  const words = await page.textContent('#eval-words');
  assert(/(South|North) is about \d+ seeds? ahead|About level|with best play|No evaluation|Unclear/.test(words), `in words: ${words}`);
  equal(await page.evaluate(async () => (await import('/words.js')).scoreWords({ kind: 'proven', south: -8 })), 'North wins by 8 with best play', 'a proven result');
  equal(await page.evaluate(async () => (await import('/words.js')).barNumber(-26.9)), '−27', 'the bar’s number');
  equal(await page.evaluate(async () => (await import('/words.js')).hintWords('A', { kind: 'estimate', south: -26.4 }, 'south')),
    'Best: A — you stay about 26 seeds behind.', 'a hint for people');
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
  const said = await page.textContent('#status');
  assert(said.startsWith(`Best: ${hinted}`), `status names the hint: ${said}`);
  assert(!/level:|#/.test(said), `said for people: ${said}`);
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
  await waitInPage(page, async (n) => (await import('/board.js')).counters.animations > n && document.body.dataset.busy === '0',
    before.animations, { timeout: 60000 });
  equal((await drawn()).pits, view.history[0].after.pits, 'pits after the replayed move 1');
  equal((await counters()).mismatches, 0, 'replay animations that missed');
  // A hint is for the live position: none while an earlier one is on screen.
  await page.click('#moves button[data-ply="1"]');
  assert(await page.locator('#btn-hint').isDisabled(), 'Hint disabled on an earlier position');
  await page.click('#title');
  await page.keyboard.press('?');
  assert(!(await page.textContent('#status')).startsWith('Best'), 'no hint for the earlier position');
  equal(await page.$$eval('#board .pit.hint', (g) => g.length), 0, 'no pit marked');
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
  await row.locator('button.open').click();
  await page.waitForFunction((gid) => Number(document.body.dataset.game) === gid, id);
  await humanTurn();
  await matchesServer(id);
});

// Every game has an owner (docs/api.md, "Owners"): another browser lists none of this one's
// games, may watch one by its link but not move in it, until it is given the key.
await check('saved games are this browser’s own; another browser watches but cannot move until given the key', async () => {
  const live = await api('POST', '/live', { game: 'hoyito-ii' });
  const liveId = live.live.id;
  const other = await browser.newContext({ viewport: { width: 1200, height: 860 } });
  await other.addInitScript(() => localStorage.setItem('sowing.player', 'abcdef0123456789abcdef0123456789'));
  const p = await other.newPage();
  await p.goto(`${BASE}/#game=${id}`);
  await p.waitForFunction((gid) => Number(document.body.dataset.game) === gid, id);
  await p.waitForFunction(() => document.body.dataset.busy === '0');
  const before = (await api('GET', `/games/${id}`)).ply;
  const legal = await p.$$eval('#board .pit.legal', (g) => g.map((x) => x.dataset.name));
  assert(legal.length > 0, 'the game shown is at a person’s turn');
  await p.click(`#board .pit[data-name="${legal[0]}"]`);
  await p.waitForFunction(() => /belongs to another player/.test(document.querySelector('#status').textContent));
  equal((await api('GET', `/games/${id}`)).ply, before, 'no move was played by another browser');
  await p.click('#btn-saved');
  await p.waitForFunction(() => /No games yet/.test(document.querySelector('#saved-body').textContent));
  // Carried over: the key pasted, this browser lists the games and may play.
  await p.click('#key-carry summary');
  await p.fill('#key-other', PLAYER_KEY);
  await p.click('#key-use');
  await p.waitForSelector(`#saved-body tr[data-game="${id}"]`);
  const mine = (await api('GET', '/games?limit=1000')).games.length;
  equal(await p.$$eval('#saved-body tr[data-game]', (r) => r.length), Math.min(mine, 200), 'every game of the key');
  // A live game opens as a live game and has no Delete.
  const row = p.locator(`#saved-body tr[data-game="${liveId}"]`);
  equal(await row.getAttribute('data-live'), '1', 'marked live');
  equal(await row.locator('button.delete').count(), 0, 'no Delete for a live game');
  await row.locator('button.open').click();
  await p.waitForFunction((g) => document.body.dataset.live === String(g), liveId);
  assert(p.url().includes(`#live=${liveId}`), `opened as a live game: ${p.url()}`);
  await other.close();
});

await check('Skip ends the running animation and every one queued; the computer’s moves go faster', async () => {
  await setSpeed(1);
  const cid = await newGame({ game: 'hoyito-iii', south: 'greedy', north: 'random', time: 300, wait: false });
  await page.waitForFunction(() => document.body.dataset.animating === '1');
  const last = await page.evaluate(async () => (await import('/board.js')).counters.lastStepMs);
  equal(last, { ms: 350, computer: true }, 'a computer’s step at half the person’s 700 ms');
  const painted = await pressAndCount('#btn-skip');
  await page.waitForFunction(() => document.body.dataset.turn === 'over' && document.body.dataset.busy === '0', null, { timeout: 120000 });
  equal((await counters()).painted, painted, 'steps drawn after Skip, to the end of the game');
  equal((await counters()).mismatches, 0, 'animations that missed');
  await matchesServer(cid);
  await setSpeed(8);
});

await check('Undo is disabled when the computer moved first and no move of the person’s is played', async () => {
  const uid = await newGame({ game: 'hoyito-ii:6', south: 'greedy', north: 'human', time: 300 });
  const view = await api('GET', `/games/${uid}`);
  assert(view.ply >= 1 && view.history.every((h) => h.side === 'south'), 'only the computer has moved');
  assert(await page.locator('#btn-undo').isDisabled(), 'Undo disabled');
  await page.click('#board .pit.legal >> nth=0');
  await page.waitForFunction((ply) => Number(document.body.dataset.ply) > ply, view.ply);
  await humanTurn();
  if (!(await api('GET', `/games/${uid}`)).state.over) assert(await page.locator('#btn-undo').isEnabled(), 'Undo enabled once the person moved');
});

await check('a new game starts with no commentary from the last one', async () => {
  assert((await page.textContent('#commentary')) !== '', 'the last game left a sentence');
  await newGame({ game: 'ayoayo' });
  equal(await page.textContent('#commentary'), '', 'commentary of the new game');
});

await check('#game=N in the address bar, and Back and Forward, switch games', async () => {
  const a = (await api('POST', '/games', { game: 'hoyito-ii' })).id;
  const b = (await api('POST', '/games', { game: 'ayoayo' })).id;
  await page.evaluate((gid) => { location.hash = `#game=${gid}`; }, a);
  await page.waitForFunction((gid) => Number(document.body.dataset.game) === gid, a);
  await page.evaluate((gid) => { location.hash = `#game=${gid}`; }, b);
  await page.waitForFunction((gid) => Number(document.body.dataset.game) === gid, b);
  assert(/Ayoayo/.test(await page.textContent('#title')), 'the board of game b');
  await page.goBack();
  await page.waitForFunction((gid) => Number(document.body.dataset.game) === gid, a);
  await page.goForward();
  await page.waitForFunction((gid) => Number(document.body.dataset.game) === gid, b);
  await humanTurn();
});

await check('with the server unreachable the page says so and retries by itself', async () => {
  const gid = await gameId();
  await page.route('**/api/**', (route) => route.abort('connectionrefused'));
  await page.reload();
  await page.waitForSelector('#offline:not([hidden])');
  const text = await page.textContent('body');
  assert(!/Failed to fetch/.test(text), 'no "Failed to fetch"');
  assert(/cannot be reached/.test(await page.textContent('#offline')), 'says the server cannot be reached');
  await page.unroute('**/api/**');
  await page.waitForFunction((g) => Number(document.body.dataset.game) === g, gid);
  await page.waitForSelector('#offline', { state: 'hidden' });
  await humanTurn();
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
  // The next round is the main action: the summary's first button, on screen.
  equal(await page.$eval('#summary button', (b) => b.id), 'btn-next-round', 'the summary’s first button');
  const box = await page.locator('#btn-next-round').boundingBox();
  assert(box && box.y + box.height <= 860, `Start round 2 within the window (bottom at ${box && box.y + box.height})`);
  assert(/leaves the match/.test(await page.textContent('#btn-again')), 'New game says it leaves the match');
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

await check('Learn: every rule of the three games on the board — watch it, then try it', async () => {
  const before = await gameId();
  await page.click('#btn-learn');
  await page.waitForSelector('#learn:not([hidden])');
  const learn = await page.evaluate(async () => (await import('/learn.js')).LEARN.map(([v, t, ls]) => [v, t, ls.map((l) => ({ ...l }))]));
  // What each example must be said to do (the sentence after its animation).
  const shows = {
    'hoyito-ii': [
      'South sowed C: it relayed once and ended in an empty pit.',
      'South sowed C: it made a casa at F — South takes 4 and moves again.',
      'South sowed D: it made a chain of casas at a, F and E — South takes 12 and moves again.',
      'South sowed D: it made a casa at a — South takes 4 and moves again.',
      'South sowed B: it made a casa at C — South takes 4; South takes the last four.',
      'South had no sowing move and passed.',
      null,
      'North sowed b: it relayed 3 times and ended in an empty pit.',
    ],
    'hoyito-iii': [
      'South sowed C: it made a casa at F — South takes 4 and moves again.',
      'South sowed D: it made a casa at a — South takes 4 and moves again.',
      'South sowed B: it made a casa at C — South takes 4; South takes the last four.',
      'South sowed B: it made a casa at C — South takes 4; North takes the last four.',
    ],
    ayoayo: [
      'South sowed C: it relayed once and ended in an empty pit.',
      'South sowed B: it ended in the empty C, capturing the 3 seeds across in d — South takes 4.',
      'South sowed A: it skipped A, relayed 6 times and ended in the empty B, capturing the 3 seeds across in e — South takes 4.',
      'South sowed F: it ended in an empty pit.',
      'South had no sowing move and passed.',
      'South sowed F: it ended in an empty pit — South takes the 2 seeds left.',
      'South sowed F: it relayed once and ended in an empty pit — North takes the 2 seeds left.',
    ],
  };
  // How each lesson's example or move ends the game, where it does (the summary's words).
  const ends = {
    'hoyito-ii': { 4: /South wins[\s\S]*exactly four seeds, and South took them/, 7: /A draw[\s\S]*a position recurred/ },
    'hoyito-iii': { 2: /South wins[\s\S]*South took them/, 3: /A draw[\s\S]*North took them/ },
    ayoayo: { 5: /South wins[\s\S]*could not feed[\s\S]*last player who sowed/, 6: /North wins[\s\S]*23[\s\S]*25[\s\S]*could not feed[\s\S]*owner of its row/ },
  };
  const games = [];
  for (const [variant, , lessons] of learn) {
    equal(lessons.length, shows[variant].length, `${variant}: lessons checked`);
    await page.click(`#learn-games button[data-learn="${variant}"]`);
    for (let k = 0; k < lessons.length; k++) {
      const l = lessons[k];
      await page.click(`#lesson-list button[data-lesson="${k}"]`);
      await page.waitForFunction((tag) => document.body.dataset.lesson === tag && document.body.dataset.busy === '0', `${variant}:${k}`);
      const gid = await gameId();
      games.push(gid);
      const view = await api('GET', `/games/${gid}`);
      equal(view.rules.game, variant, `${variant} lesson ${k + 1}: the game`);
      const [south, north] = l.start.split(' ')[1].split('/').map((row) => row.split(',').map(Number));
      equal(view.start.pits, [...south, ...north], `${variant} lesson ${k + 1} starts from its position`);
      const prepared = l.moves ? l.moves.split(' ') : [];
      equal(view.history.map((h) => h.move), prepared, `${variant} lesson ${k + 1}: the moves played before it`);
      for (const [name, value] of l.start.split(' ').slice(5).map((o) => o.split('='))) {
        equal(view.rules[name.replace('-', '_')], value, `${variant} lesson ${k + 1}: its option ${name}`);
      }
      const end = (ends[variant] || {})[k];
      if (l.example) {
        await page.click('#lesson-watch');
        await page.waitForFunction(() => /That was the example/.test(document.querySelector('#lesson-say').textContent) && document.body.dataset.busy === '0');
        equal(await page.textContent('#commentary'), shows[variant][k], `${variant} lesson ${k + 1}: the example said`);
        await matchesServer(gid);
        if (end) assert(end.test(await page.textContent('#summary')), `${variant} lesson ${k + 1}: the end said: ${await page.textContent('#summary')}`);
        await page.click('#lesson-try');
        await page.waitForFunction((ply) => document.body.dataset.ply === ply && document.body.dataset.busy === '0', String(prepared.length));
        equal((await drawn()).pits, view.state.pits, `${variant} lesson ${k + 1}: back to the start to try`);
        if (l.expect === 'pass') await page.click('#btn-pass');
        else await page.click(`#board .pit[data-name="${l.expect}"]`);
        await page.waitForFunction(() => /Well done/.test(document.querySelector('#lesson-say').textContent));
        // A lesson shows the rule, not evaluations: no bar, no perfect-play values.
        equal(await page.evaluate(() => [document.querySelector('#evalbar').hidden, document.querySelectorAll('#board .table-value').length]),
          [true, 0], `${variant} lesson ${k + 1}: no evaluation beside "Well done"`);
        equal(await page.textContent('#commentary'), shows[variant][k], `${variant} lesson ${k + 1}: the reader's move said`);
        if (end) assert(end.test(await page.textContent('#summary')), `${variant} lesson ${k + 1}: the reader's move ends the game`);
        if (variant === 'ayoayo' && l.expect === 'pass') {
          const feed = await page.$$eval('#board .pit.legal', (g) => g.map((x) => x.dataset.name));
          equal(feed, ['f'], 'after the pass North must feed: only f');
        }
      } else {
        const legal = await page.$$eval('#board .pit.legal', (g) => g.map((x) => x.dataset.name));
        equal(legal, view.state.legal, 'the ringed pits are the legal moves');
        assert(!legal.includes('E') && view.state.pits[4] > 0, 'the endless E is not offered');
      }
    }
  }
  await page.click('#lesson-close');
  await page.waitForFunction((g) => Number(document.body.dataset.game) === g && document.body.dataset.busy === '0', before);
  assert(await page.locator('#learn').isHidden(), 'Learn closed');
  const left = (await api('GET', '/games?limit=1000')).games.map((g) => g.id);
  assert(!games.some((g) => left.includes(g)), 'the lesson games are gone');
});

await check('the new-game dialog leads to Learn for the game chosen', async () => {
  await page.click('#btn-new');
  await page.selectOption('#f-game', 'ayoayo');
  await page.click('#about-learn');
  await page.waitForFunction(() => document.body.dataset.lesson === 'ayoayo:0' && document.body.dataset.busy === '0');
  assert(/Ayoayo/.test(await page.textContent('#learn-title')), 'Learn Ayoayo');
  const back = await gameId();
  await page.click('#lesson-close');
  await page.waitForFunction((g) => Number(document.body.dataset.game) !== g && document.body.dataset.busy === '0', back);
});

await check('saved games can be deleted, and their times carry a time zone', async () => {
  const doomed = (await api('POST', '/games', { game: 'hoyito-ii' })).id;
  const tokyo = await browser.newContext({ viewport: { width: 1200, height: 860 }, timezoneId: 'Asia/Tokyo', locale: 'en-US' });
  const p = await tokyo.newPage();
  await p.goto(`${BASE}/#game=${doomed}`);
  await p.waitForFunction((gid) => Number(document.body.dataset.game) === gid, doomed);
  await p.click('#btn-saved');
  const row = p.locator(`#saved-body tr[data-game="${doomed}"]`);
  await row.waitFor();
  const when = await row.locator('.when').textContent();
  assert(/GMT\+9/.test(when), `the time in the reader’s zone, named: ${when}`);
  assert(await p.locator('#saved-body tr:has-text("match") .delete').count() === 0, 'no Delete for a round of a match');
  p.once('dialog', (d) => d.accept());
  await row.locator('.delete').click();
  await row.waitFor({ state: 'detached' });
  const r = await fetch(`${BASE}/api/games/${doomed}`);
  equal(r.status, 404, 'the game is gone');
  await p.click('#saved .dialog-buttons button');
  assert(await p.locator('#btn-undo').isDisabled(), 'the deleted game’s board is cleared');
  await tokyo.close();
});

await check('cancelling the first dialog leaves nothing to press, and no Flip to carry over', async () => {
  const fresh = await browser.newContext({ viewport: { width: 1200, height: 860 } });
  const p = await fresh.newPage();
  await p.goto(BASE + '/');
  await p.waitForSelector('#new-game[open]');
  await p.click('#new-form button[value="cancel"]');
  await p.waitForFunction(() => !document.querySelector('#new-game').open);
  for (const b of ['#btn-undo', '#btn-redo', '#btn-hint', '#btn-flip', '#btn-skip']) {
    assert(await p.locator(b).isDisabled(), `${b} disabled with no game`);
  }
  await p.click('#title');
  await p.keyboard.press('t');
  equal(await p.evaluate(() => localStorage.getItem('sowing.flipped')), null, 'no flip stored');
  await fresh.close();
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

await check('on a 390 px phone every pit is a 40 px touch target with readable counts (2×6 and 2×12)', async () => {
  const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  for (const [body, pits] of [[{ game: 'hoyito-ii' }, 12], [{ game: 'hoyito-ii', pits: 12 }, 24], [{ game: 'ayoayo' }, 12]]) {
    const gid = (await api('POST', '/games', body)).id;
    await phone.goto(`${BASE}/#game=${gid}`);
    await phone.waitForFunction((g) => Number(document.body.dataset.game) === g, gid);
    await humanTurn(phone);
    const s = await sizes(phone);
    equal(s.holes.length, pits, 'pits drawn');
    for (const [k, h] of s.holes.entries()) assert(h.w >= 40 && h.h >= 40, `${body.game} ${pits / 2}: pit ${k} is ${h.w.toFixed(1)}×${h.h.toFixed(1)} px`);
    for (const c of [...s.counts, ...s.letters]) assert(c.h >= 11, `a count or letter ${c.h.toFixed(1)} px high`);
    for (const c of s.stores) assert(c.h >= 11, `a store label ${c.h.toFixed(1)} px high`);
    const widths = await phone.evaluate(() => ({ page: document.documentElement.scrollWidth, view: window.innerWidth }));
    assert(widths.page <= widths.view, `no sideways scrolling (${widths.page} > ${widths.view})`);
    await matchesServer(gid, phone);
  }
  await phone.close();
});

await check('the look: text contrast in the light and dark schemes, the last move and the playable pits marked', async () => {
  // WCAG contrast ratio of two rgb() colours.
  const contrast = (a, b) => {
    const lum = (c) => {
      const [r, g, bl] = c.match(/\d+(\.\d+)?/g).slice(0, 3).map(Number).map((v) => {
        const x = v / 255;
        return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
    };
    const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
  };
  // A fresh game two moves in, a person to move.
  let g = await api('POST', '/games', { game: 'hoyito-ii' });
  for (const move of ['C', 'b']) g = (await api('POST', `/games/${g.id}/moves`, { move, ply: g.ply })).game;
  const backgrounds = [];
  for (const colorScheme of ['light', 'dark']) {
    const ctx = await browser.newContext({ viewport: { width: 1200, height: 860 }, colorScheme });
    const p = await ctx.newPage();
    await p.goto(`${BASE}/#game=${g.id}`);
    await p.waitForFunction((gid) => Number(document.body.dataset.game) === gid, g.id);
    await humanTurn(p);
    const c = await p.evaluate(() => {
      const style = (sel) => getComputedStyle(document.querySelector(sel));
      return {
        bg: style('body').backgroundColor, text: style('#status').color, muted: style('#commentary').color,
        plate: style('#player-top').backgroundColor, plateText: style('#player-top b').color,
        last: [...document.querySelectorAll('#board .pit.last .ring')].map((r) => getComputedStyle(r).stroke),
        legal: [...document.querySelectorAll('#board .pit.legal .hole')].map((h) => getComputedStyle(h).strokeWidth),
      };
    });
    backgrounds.push(c.bg);
    assert(contrast(c.text, c.bg) >= 7, `${colorScheme}: status text contrast ${contrast(c.text, c.bg).toFixed(1)}`);
    assert(contrast(c.muted, c.bg) >= 4.5, `${colorScheme}: secondary text contrast ${contrast(c.muted, c.bg).toFixed(1)}`);
    assert(contrast(c.plateText, c.plate) >= 7, `${colorScheme}: name plate contrast ${contrast(c.plateText, c.plate).toFixed(1)}`);
    equal(c.last.length, 1, `${colorScheme}: one pit marked as the last move`);
    assert(c.last[0] !== 'none', `${colorScheme}: the last move's ring is drawn`);
    assert(c.legal.length > 0 && c.legal.every((w) => parseFloat(w) >= 4), `${colorScheme}: playable pits ringed (${c.legal})`);
    await ctx.close();
  }
  assert(backgrounds[0] !== backgrounds[1], `the dark scheme changes the page: ${backgrounds}`);
});

// The server runs with tables of Hoyito II to 8 seeds (scripts/browser-test.sh). From this
// position South's A wins 8, B draws and F loses 8 with perfect play.
await check('inside the tables each playable pit shows its exact value, toggled like the bar', async () => {
  const start = 'hoyito-ii 2,1,0,0,0,1/0,0,3,1,0,0 20-20 S -';
  const gid = (await api('POST', '/records', { record: `[Game "hoyito-ii"]\n[Start "${start}"]\n\n*` })).id;
  const p = await browser.newPage({ viewport: { width: 1200, height: 860 } });
  await p.goto(`${BASE}/#game=${gid}`);
  await p.waitForFunction((g) => Number(document.body.dataset.game) === g, gid);
  await humanTurn(p);
  if (!(await p.isChecked('#tables-on'))) await p.check('#tables-on');
  if (!(await p.isChecked('#eval-on'))) await p.check('#eval-on');
  await p.waitForFunction(() => document.querySelectorAll('#board .table-value').length === 3);
  const shown = () => p.evaluate(() => [...document.querySelectorAll('#board .table-value')].map((e) => ({
    pit: e.closest('.pit').dataset.name, kind: e.classList[1], value: Number(e.dataset.value), text: e.querySelector('text').textContent,
  })));
  equal(await shown(), [
    { pit: 'A', kind: 'win', value: 8, text: '+8' },
    { pit: 'B', kind: 'draw', value: 0, text: '0' },
    { pit: 'F', kind: 'loss', value: -8, text: '−8' },
  ], 'the values on the pits');
  await p.waitForSelector('#evalbar.proven');
  equal(await p.textContent('#eval-text'), '+8', 'the bar shows the exact value');
  await p.uncheck('#tables-on');
  equal((await shown()).length, 0, 'toggled off: no values');
  equal(await p.evaluate(() => localStorage.getItem('sowing.tables')), '0', 'the choice is kept');
  await p.check('#tables-on');
  await p.waitForFunction(() => document.querySelectorAll('#board .table-value').length === 3);
  // After a move the values are those of the new position, for the new mover.
  await p.click('#board .pit[data-name="B"]');
  await p.waitForFunction((g) => Number(document.body.dataset.ply) === 1, gid);
  await humanTurn(p);
  const table = await api('GET', `/games/${gid}/tables`);
  assert(table.inside, 'still inside the tables');
  await p.waitForFunction((n) => document.querySelectorAll('#board .table-value').length === n,
    table.moves.filter((m) => m.move !== 'pass').length);
  equal((await shown()).map((x) => [x.pit, x.value]), table.moves.filter((m) => m.move !== 'pass').map((m) => [m.move, m.value]),
    'the values after the move, as the API gives them');
  await p.close();
});

await check('on 2×12 the bar shows a value only from a search deep enough to mean it', async () => {
  const evaluated = page.waitForResponse((r) => /\/engine$/.test(r.url()) && JSON.parse(r.request().postData() || '{}').time_ms === 300);
  const gid = await newGame({ game: 'hoyito-ii:12', south: 'human', north: 'human' });
  const response = await evaluated;
  assert(response.url().includes(`/games/${gid}/`), `the bar evaluates the new game: ${response.url()}`);
  const { engine } = await response.json();
  const shallow = engine.score.kind !== 'proven' && engine.depth < 8;
  const expected = shallow ? '?' : await page.evaluate(async (s) => (await import('/words.js')).barNumber(s), engine.score.south);
  await page.waitForFunction((t) => document.querySelector('#eval-text').textContent === t, expected);
  if (shallow) assert(/Unclear/.test(await page.textContent('#eval-words')), 'it says the value is unclear');
});

await check('a newcomer is seated in the easier seat, and the dialog states each board’s own figure', async () => {
  const fresh = await browser.newPage({ viewport: { width: 1200, height: 860 } });
  await fresh.goto(BASE + '/');
  await fresh.waitForSelector('#new-game[open]');
  await fresh.selectOption('#f-game', 'hoyito-ii:6');
  equal([await fresh.inputValue('#f-south'), await fresh.inputValue('#f-north')], ['level:3', 'human'],
    'Hoyito: the person plays North, the easier seat');
  assert(/solved: with best play North wins by 28 seeds/.test(await fresh.textContent('#about-seat')), `2×6: the proven figure: ${await fresh.textContent('#about-seat')}`);
  await fresh.selectOption('#f-game', 'hoyito-ii:12');
  assert(/2×12 start at about 55 seeds/.test(await fresh.textContent('#about-seat')), `2×12 figure: ${await fresh.textContent('#about-seat')}`);
  await fresh.selectOption('#f-game', 'ayoayo');
  equal([await fresh.inputValue('#f-south'), await fresh.inputValue('#f-north')], ['human', 'level:3'],
    'Ayoayo: the person plays South, the easier seat');
  // Once the reader chooses, the choice stays.
  await fresh.selectOption('#f-north', 'greedy');
  await fresh.selectOption('#f-game', 'hoyito-ii:6');
  equal(await fresh.inputValue('#f-north'), 'greedy', 'a chosen player is kept');
  await fresh.close();
});

// A turn of several moves (extra turns) is told whole, not by its last move alone.
await check('a turn of several moves is told whole', async () => {
  const told = await page.evaluate(async () => {
    const { tellTurn } = await import('/game.js');
    const take = (seeds) => ({ kind: 'take', why: 'capture', name: 'C', seeds });
    const again = { kind: 'extra-turn' };
    const game = 'hoyito-ii';
    const ply = (await import('/state.js')).S.view.ply;
    return [
      tellTurn('north', 'f', [take(4), again], game, ply + 1),
      tellTurn('north', 'd', [take(8), again], game, ply + 2),
      tellTurn('north', 'a', [], game, ply + 3),
      tellTurn('south', 'B', [], game, ply + 4),
    ];
  });
  assert(/^North sowed f: /.test(told[0]), `one move, as before: ${told[0]}`);
  assert(/^North’s turn: 2 moves \(f, d\), capturing 12 seeds\. Last: North sowed d/.test(told[1]), `two moves: ${told[1]}`);
  assert(/^North’s turn: 3 moves \(f, d, a\), capturing 12 seeds\. Last: North sowed a: it ended in an empty pit\.$/.test(told[2]), `three: ${told[2]}`);
  assert(/^South sowed B: /.test(told[3]), `the next turn starts anew: ${told[3]}`);
});

await check('a result puts the winner’s seeds first, and moves are counted with their turns', async () => {
  const [result, count, plain] = await page.evaluate(async () => {
    const sides = ['south', 'north', 'north', 'south'];
    const v = { state: { captured: [0, 48], winner: 'north' }, end: null, ply: 4, history: sides.map((side) => ({ side })) };
    const w = (await import('/words.js'));
    return [w.resultText(v), w.movesAndTurns(v), w.movesAndTurns({ ply: 2, history: [{ side: 'south' }, { side: 'north' }] })];
  });
  equal(result, 'North wins, 48–0', 'the winner’s score first');
  equal(count, '4 moves in 3 turns', 'moves and turns');
  equal(plain, '2 moves', 'one move a turn: moves alone');
});

// A lesson's game is deleted with the lesson; closing the tab mid-lesson must not leave it in
// Saved games, nor must a leftover survive the next visit.
await check('closing the tab during a lesson leaves no game behind', async () => {
  const gone = async (gid) => {
    for (let i = 0; i < 100; i++) {
      try { await api('GET', `/games/${gid}`); } catch (e) { if (/ 404 /.test(e.message)) return true; throw e; }
      await new Promise((r) => setTimeout(r, 100));
    }
    return false;
  };
  // The tab closes and the browser stays open, as when a person closes a tab: the page's
  // own context outlives it, so its last request is not cut off with the context.
  const context = await browser.newContext({ viewport: { width: 1200, height: 860 } });
  const p = await context.newPage();
  await p.goto(BASE + '/');
  await p.waitForSelector('#new-game[open]');
  await p.click('#new-game button[value="cancel"]');
  await p.click('#btn-learn');
  await p.waitForFunction(() => document.body.dataset.lesson && document.body.dataset.busy === '0');
  const gid = await p.evaluate(async () => (await import('/state.js')).S.view.id);
  await p.close({ runBeforeUnload: true });
  const deleted = await gone(gid);
  await context.close();
  assert(deleted, `lesson game ${gid} is still saved after the tab closed`);
  // A leftover the closing could not delete (the server was down) goes at the next visit.
  const { id: left } = await api('POST', '/games', { game: 'hoyito-ii' });
  const q = await browser.newPage();
  await q.goto(BASE + '/');
  await q.evaluate((g) => localStorage.setItem('sowing.lesson', String(g)), left);
  await q.reload();
  assert(await gone(left), `leftover lesson game ${left} is still saved after the next visit`);
  // The page forgets it once its delete is answered, a moment after the server made it.
  await q.waitForFunction(() => localStorage.getItem('sowing.lesson') === null, null, { timeout: 10000 });
  await q.close();
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
  // And on a 390 px phone, the board upright.
  const phoneShot = process.env.SHOT.replace(/(\.png)?$/, '-phone.png');
  const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await phone.goto(`${BASE}/#game=${id}`);
  await phone.waitForFunction((gid) => Number(document.body.dataset.game) === gid, id);
  await humanTurn(phone);
  await phone.waitForTimeout(600);
  await phone.screenshot({ path: phoneShot, fullPage: true });
  console.log(`screenshot: ${phoneShot}`);
}

await browser.close();
finish();
