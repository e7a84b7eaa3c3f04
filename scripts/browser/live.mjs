// Browser tests of "Play a friend": two real browser contexts (two devices, each with its
// own storage) play a whole game through an invitation link while a third watches through
// the watch link; mid-game the server is killed hard and restarted, and all three pages
// must come back by themselves with nothing lost or doubled (and a clocked game, after 3 s
// away, with no time lost). Then a rematch, a resignation,
// the lobby, and a Hoyito III match whose pages follow into its next round. Run by scripts/browser-test.sh (SOW_URL, SOW_RESTART).
import { BASE, api, assert, check, equal, finish, launch, liveSettled, waitInPage } from './common.mjs';
import { execSync } from 'node:child_process';

const browser = await launch();
const errors = [];
async function device(label) {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  // The fastest animation, so that a whole game fits in the test's time.
  await context.addInitScript(() => localStorage.setItem('sowing.speed', '10'));
  const page = await context.newPage();
  page.setDefaultTimeout(30000);
  page.on('pageerror', (e) => errors.push(`${label}: ${e.message}`));
  return page;
}
const creator = await device('creator');
const friend = await device('friend');
const watcher = await device('watcher');
const pages = [creator, friend, watcher];

const settled = liveSettled;
const shown = (p) => p.evaluate(async () => {
  const v = (await import('/state.js')).S.view;
  return { moves: v.history.map((h) => h.move), pits: v.state.pits, captured: v.state.captured };
});
const liveCounters = (p) => p.evaluate(async () => ({
  ...(await import('/live.js')).counters, mismatches: (await import('/board.js')).counters.mismatches,
}));

let id = null, inviteUrl = null, watchUrl = null;
const NAME = 'Ana <b>&amp;</b>';

await check('Play a friend in the new-game dialog gives a seat, an invitation link and a watch link', async () => {
  await creator.goto(BASE + '/');
  await creator.waitForSelector('#new-game[open]');
  await creator.selectOption('#f-game', 'hoyito-ii:6');
  // One primary button at a time, and only the fields of the opponent chosen.
  const visible = (sel) => creator.locator(sel).isVisible();
  equal([await visible('#btn-start'), await visible('#btn-friend'), await visible('#f-south'), await visible('#f-clock')],
    [true, false, true, false], 'against the computer: its fields and Start');
  await creator.check('#f-opponent-friend');
  equal([await visible('#btn-start'), await visible('#btn-friend'), await visible('#f-south'), await visible('#f-time'), await visible('#f-clock')],
    [false, true, false, false, true], 'against a friend: the friend’s fields and one button');
  const lobby = await creator.evaluate(() => {
    const box = document.querySelector('#f-lobby').getBoundingClientRect();
    const text = document.querySelector('#f-lobby').closest('label').getBoundingClientRect();
    return { boxMiddle: box.top + box.height / 2, labelTop: text.top, labelBottom: text.bottom, height: text.height };
  });
  assert(lobby.height < 60 && lobby.boxMiddle > lobby.labelTop && lobby.boxMiddle < lobby.labelBottom,
    `the lobby checkbox sits on its label's line: ${JSON.stringify(lobby)}`);
  await creator.selectOption('#f-clock', '');
  await creator.fill('#f-name', NAME);
  await creator.click('#btn-friend');
  await creator.waitForFunction(() => document.body.dataset.live && document.body.dataset.liveConnected === '1');
  id = Number(await creator.evaluate(() => document.body.dataset.live));
  equal(await creator.evaluate(() => document.body.dataset.liveSeat), 'south', 'the creator sits South');
  inviteUrl = await creator.inputValue('#live-links input[name=invite]');
  watchUrl = await creator.inputValue('#live-links input[name=watch]');
  assert(new RegExp(`#live=${id}&seat=[0-9a-f]{32}$`).test(inviteUrl), `invitation ${inviteUrl}`);
  equal(watchUrl, `${BASE}/#live=${id}`, 'watch link');
  const mine = await creator.inputValue('#live-links input[name=mine]');
  assert(mine !== inviteUrl, 'the invitation is the other seat');
});

await check('the friend opens the invitation and a third page watches; names are shown as text', async () => {
  await friend.goto(inviteUrl);
  await watcher.goto(watchUrl);
  for (const p of pages) await settled(p, id, 0);
  equal(await friend.evaluate(() => document.body.dataset.liveSeat), 'north', 'the friend sits North');
  equal(await watcher.evaluate(() => document.body.dataset.liveSeat), 'watcher', 'the third page watches');
  await creator.waitForFunction(() => document.body.dataset.spectators === '1');
  const label = await friend.textContent('#player-bottom, #player-top');
  const names = await friend.$$eval('.live-name', (els) => els.map((e) => e.textContent));
  assert(names.some((n) => n.includes(NAME)), `the name as typed: ${names} (${label})`);
  equal(await friend.$$eval('.live-name b', (els) => els.length), 0, 'no markup from a name');
  // The friend's board is turned so that North's row is at the bottom.
  assert(await friend.evaluate(async () => (await import('/state.js')).S.flipped), 'North sees its own row at the bottom');
  // Only the seat to move has playable pits; the watcher has none, nor buttons to act.
  equal(await friend.$$eval('#board .pit.legal', (g) => g.length), 0, 'north waits');
  equal(await watcher.$$eval('#board .pit.legal', (g) => g.length), 0, 'the watcher cannot move');
  equal(await watcher.$$eval('#live-buttons button', (b) => b.length), 0, 'the watcher has no acts');
  equal(await watcher.textContent('#live-note'), '', 'nobody offered anything: the watcher is told of nothing');
  assert((await creator.$$eval('#board .pit.legal', (g) => g.length)) > 0, 'south may move');
});

// Plays the seat to move's first playable pit (or pass) on its own page, then waits until
// every page shows the new move.
async function playOne(ply) {
  const view = await api('GET', `/live/${id}`);
  const toMove = view.game.state.to_move;
  const p = toMove === 'south' ? creator : friend;
  if (view.game.state.legal.length === 1 && view.game.state.legal[0] === 'pass') await p.click('#btn-pass');
  else await p.click('#board .pit.legal >> nth=0');
  for (const q of pages) await settled(q, id, ply + 1);
}

let restartedAt = null;
await check('a whole game through the invitation, each move reaching the other pages animated', async () => {
  let ply = 0;
  for (; ply < 400; ply++) {
    const view = await api('GET', `/live/${id}`);
    if (view.live.result) break;
    if (ply === 6 && restartedAt === null) {
      // Mid-game: the server killed hard and started again on the same database.
      if (!process.env.SOW_RESTART) throw new Error('SOW_RESTART is not set');
      const before = await Promise.all(pages.map(liveCounters));
      execSync(process.env.SOW_RESTART, { stdio: 'inherit' });
      restartedAt = ply;
      for (const [k, p] of pages.entries()) {
        await waitInPage(p, async (n) => (await import('/live.js')).counters.reconnects > n, before[k].reconnects);
        await settled(p, id, ply);
      }
    }
    await playOne(ply);
  }
  const final = await api('GET', `/live/${id}`);
  assert(final.live.result, `the game ended (after ${ply} moves)`);
  assert(restartedAt !== null, 'the server was restarted mid-game');
  const moves = final.game.history.map((h) => h.move);
  for (const p of pages) {
    await settled(p, id, final.game.ply);
    const s = await shown(p);
    equal(s.moves, moves, 'every page has every move once, in order');
    equal(s.pits, final.game.state.pits, 'the board');
    equal(s.captured, final.game.state.captured, 'the captures');
  }
  // The watcher saw every move arrive and animated each (no reload, no jump).
  const w = await liveCounters(watcher);
  assert(w.animated >= moves.length - 1, `the watcher animated ${w.animated} of ${moves.length} moves`);
  for (const p of pages) equal((await liveCounters(p)).mismatches, 0, 'every animation reached the server’s board');
  // The end names the winner (by name where there is one) with the winner's seeds first.
  const [south, north] = final.game.state.captured;
  const outcome = final.live.result.outcome;
  const said = outcome === 'draw' ? new RegExp(`Game over: a draw, ${south}–${north}`)
    : outcome === 'south' ? new RegExp(`Game over: .*\\(South\\) wins, ${south}–${north}: `)
      : new RegExp(`Game over: (.*\\(North\\)|North) wins, ${north}–${south}: `);
  for (const p of pages) {
    const text = await p.textContent('#status');
    assert(said.test(text), `the end is said with the winner: ${text} (${outcome} ${south}–${north})`);
  }
  if (outcome === 'south') assert((await watcher.textContent('#status')).includes(NAME), 'the winner by name');
});

await check('a rematch with colours swapped, then a resignation reaching the watcher', async () => {
  await creator.click('#live-buttons button:has-text("Rematch")');
  await friend.waitForSelector('#live-buttons button:has-text("Accept the rematch")');
  await friend.click('#live-buttons button:has-text("Accept the rematch")');
  await creator.waitForSelector('#live-buttons button:has-text("Play the rematch")');
  await watcher.waitForSelector('#live-buttons button:has-text("Watch the rematch")');
  const rematch = (await api('GET', `/live/${id}`)).live.rematch;
  assert(rematch, 'a rematch');
  await creator.click('#live-buttons button:has-text("Play the rematch")');
  await friend.click('#live-buttons button:has-text("Play the rematch")');
  await watcher.click('#live-buttons button:has-text("Watch the rematch")');
  for (const p of pages) await settled(p, rematch, 0);
  equal(await friend.evaluate(() => document.body.dataset.liveSeat), 'south', 'the friend now moves first');
  equal(await creator.evaluate(() => document.body.dataset.liveSeat), 'north', 'the creator now plays North');
  // An offer is told to the watcher as made, by whom; accepting it asks once.
  await friend.click('#live-buttons button:has-text("Offer a draw")');
  await watcher.waitForFunction(() => document.querySelector('#live-note').textContent === 'South offers a draw.');
  await creator.waitForFunction(() => document.querySelector('#live-note').textContent === 'Your opponent offers a draw.');
  const asked = [];
  creator.once('dialog', (d) => { asked.push(d.message()); d.dismiss(); });
  await creator.click('#live-buttons button:has-text("Accept the draw")');
  equal(asked.length, 1, 'accepting a draw asks first');
  assert(/draw/.test(asked[0]), `the question: ${asked[0]}`);
  const still = await api('GET', `/live/${rematch}`);
  equal([still.live.result, still.live.offers.draw], [null, 'south'], 'dismissed: the draw stands offered, the game goes on');
  await creator.click('#live-buttons button:has-text("Decline")');
  await watcher.waitForFunction(() => document.querySelector('#live-note').textContent === '');
  friend.once('dialog', (d) => d.accept());
  await friend.click('#live-buttons button:has-text("Resign")');
  await watcher.waitForFunction(() => /resigned/.test(document.querySelector('#status').textContent));
  const v = await api('GET', `/live/${rematch}`);
  equal([v.live.result.outcome, v.live.result.reason], ['north', 'resignation'], 'the result');
});

await check('an open challenge in the lobby is accepted from another device', async () => {
  const lastId = Math.max(...(await api('GET', '/games?limit=1000')).games.map((g) => g.id));
  await creator.click('#btn-new');
  await creator.selectOption('#f-game', 'ayoayo');
  await creator.check('#f-opponent-friend');
  await creator.check('#f-lobby');
  await creator.click('#btn-friend');
  await creator.waitForFunction((last) => Number(document.body.dataset.live) > last
    && document.body.dataset.liveConnected === '1', lastId);
  const challenge = Number(await creator.evaluate(() => document.body.dataset.live));
  await friend.evaluate(() => location.reload());
  await friend.waitForSelector(`#lobby-list li[data-challenge="${challenge}"] button:has-text("Accept")`);
  await friend.click(`#lobby-list li[data-challenge="${challenge}"] button:has-text("Accept")`);
  await settled(friend, challenge, 0);
  equal(await friend.evaluate(() => document.body.dataset.liveSeat), 'north', 'the accepter takes the open seat');
  await creator.waitForFunction(() => document.querySelectorAll('#board .pit.legal').length > 0);
  const lobby = await api('GET', '/lobby');
  assert(!lobby.challenges.some((c) => c.id === challenge), 'no longer open');
});

await check('a Hoyito III match between two seats: both pages follow into round 2 with the score shown', async () => {
  const made = await api('POST', '/live', { game: 'hoyito-iii', rounds: 2 });
  const first = made.live.id;
  const tokens = { south: made.token, north: made.invite };
  await creator.goto(`${BASE}/#live=${first}&seat=${tokens.south}`);
  await friend.goto(`${BASE}/#live=${first}&seat=${tokens.north}`);
  for (const p of [creator, friend]) await settled(p, first, 0);
  const seen = await Promise.all([creator, friend].map(liveCounters));
  // Round 1 played out through the API by each seat's token: the first legal move each time.
  let view = await api('GET', `/live/${first}`);
  while (!view.live.result) {
    const s = view.game.state;
    // A whole round from one address outruns the move rate (30 at once, then 5 a second):
    // a 429 is waited out and the same move sent again, as a client should.
    let r;
    for (;;) {
      try {
        r = await api('POST', `/live/${first}/moves`, { move: s.legal[0], ply: view.game.ply }, tokens[s.to_move]);
        break;
      } catch (e) {
        if (!/: 429 /.test(e.message)) throw e;
        await new Promise((done) => setTimeout(done, 250));
      }
    }
    view = { live: r.live, game: r.game };
  }
  const second = view.live.next_round;
  assert(second, `round 2 started: ${JSON.stringify(view.live)}`);
  for (const [k, p] of [creator, friend].entries()) {
    await waitInPage(p, async (n) => (await import('/live.js')).counters.rounds > n, seen[k].rounds, { timeout: 120000 });
    await settled(p, second, 0);
    const text = await p.textContent('#live-match');
    assert(/round 2 of 2: rounds won [01]–[01]/.test(text), `the match score: ${text}`);
  }
  equal(await creator.evaluate(() => document.body.dataset.liveSeat), 'south', 'the same seat in round 2');
  // North starts round 2 (H3.3): the friend's page may move, the creator's waits.
  await friend.waitForFunction(() => document.querySelectorAll('#board .pit.legal').length > 0);
  equal(await creator.$$eval('#board .pit.legal', (g) => g.length), 0, 'south waits in round 2');
});

await check('a server away for 3 s costs the side to move no time, and both pages say so', async () => {
  const made = await api('POST', '/live', { game: 'hoyito-ii', name: 'Ana', clock: { base_ms: 300000, increment_ms: 0 } });
  const clocked = made.live.id;
  const tokens = { [made.seat]: made.token, [made.seat === 'south' ? 'north' : 'south']: made.invite };
  // Two moves: the clock runs, North's side to move (or South's again after a capture).
  for (let ply = 0; ply < 2; ply++) {
    const view = await api('GET', `/live/${clocked}`);
    const s = view.game.state;
    await api('POST', `/live/${clocked}/moves`, { move: s.legal[0], ply }, tokens[s.to_move]);
  }
  const seats = [[creator, 'south'], [friend, 'north']];
  for (const [p, seat] of seats) {
    await p.goto(`${BASE}/#live=${clocked}&seat=${tokens[seat]}`);
    await settled(p, clocked, 2);
  }
  const before = (await api('GET', `/live/${clocked}`)).live.clock;
  const seen = await Promise.all(seats.map(([p]) => liveCounters(p)));
  execSync(process.env.SOW_RESTART, { stdio: 'inherit', env: { ...process.env, SOW_DOWN: '3' } });
  for (const [k, [p]] of seats.entries()) {
    await waitInPage(p, async (n) => (await import('/live.js')).counters.reconnects > n, seen[k].reconnects);
  }
  const after = (await api('GET', `/live/${clocked}`)).live.clock;
  const side = `${before.running}_ms`;
  const lost = before[side] - after[side];
  const away = after.now_ms - before.now_ms;
  assert(away >= 3000, `the server was away ${away} ms`);
  assert(after.credited_ms >= 2500, `the outage was credited: ${JSON.stringify(after)}`);
  // Only the time the server was serving counts: well under the 3 s it was away.
  assert(lost < away - 2500, `the side to move lost ${lost} ms of ${away} ms`);
  for (const [p] of seats) {
    await p.waitForSelector('#live-credit:not([hidden])');
    assert(/\d/.test(await p.textContent('#live-credit')), 'the page says how much time was given back');
  }
});

await check('no script errors on the pages', async () => {
  equal(errors, [], 'page errors');
});

await browser.close();
finish();
