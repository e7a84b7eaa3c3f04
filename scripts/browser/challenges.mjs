// Browser tests of challenges by name (docs/api.md, "Challenges: a game with a named
// player"): Ana, on a desktop in English, and Bo, on a 390 px phone in Spanish, sign up from
// the page and are put on the blitz leaderboard by one rated game (made through the API).
// Ana challenges Bo from his leaderboard row; Bo's page shows it at once, in Spanish, without
// reloading; Bo accepts and both pages land in the same live game at their seats, where a
// move by South reaches North's page. A page whose notices socket cannot open lists the
// challenges all the same. A challenge by name that Ana cancels leaves Bo's page at once;
// another, from Bo's profile, is declined on the phone and Ana's page says so. Then Bo
// refuses Ana's challenges in his settings, and her next one is refused with the sentence of
// her language (English, then Spanish), the same whether Bo refuses her or everyone. Signed
// out, nobody is offered a Challenge button, and the phone never scrolls sideways. Run by
// scripts/browser-test.sh (SOW_URL).
import { randomBytes } from 'node:crypto';
import { BASE, assert, check, equal, finish, launch, liveSettled, playerPage, waitInPage } from './common.mjs';

const browser = await launch();
const errors = [];
const key = () => randomBytes(16).toString('hex');
const PASSWORD = 'correct horse battery';
// Names of their own (the database is shared with the other browser test files); Ana's is
// as long as a name may be, which the phone must still fit.
const suffix = String(Date.now() % 1000000).padStart(6, '0');
const names = { ana: `Ana${'W'.repeat(15)}${suffix}`, bo: `Bo${suffix}` };

const ana = await playerPage(browser, 'ana', key(), { viewport: { width: 1200, height: 900 } }, errors);
const bo = await playerPage(browser, 'bo', key(),
  { viewport: { width: 390, height: 844 }, locale: 'es-ES', hasTouch: true, isMobile: true }, errors);
// Every address Ana's page asks for: a challenge's seat token must be in none of them.
const anaUrls = [];
ana.context().on('request', (r) => anaUrls.push(r.url()));

async function signUp(page, name) {
  await page.waitForSelector('#new-game[open]');
  await page.keyboard.press('Escape');
  await page.click('#btn-account');
  await page.waitForSelector('#account[open]');
  await page.fill('#signup-name', name);
  await page.fill('#signup-password', PASSWORD);
  await page.click('#signup-go');
  await page.waitForFunction((n) => document.body.dataset.account === n, name);
  await page.keyboard.press('Escape');
  await page.waitForSelector('#account', { state: 'hidden' });
}

// The JSON API as a signed-in page's account: its session cookie, read from its browser.
async function apiAs(page, method, path, body, token) {
  const session = (await page.context().cookies()).find((c) => c.name === 'sowing_session');
  const headers = { cookie: `sowing_session=${session.value}` };
  if (body) headers['content-type'] = 'application/json';
  if (token) headers['x-seat-token'] = token;
  const r = await fetch(`${BASE}/api${path}`, { method, headers, body: body ? JSON.stringify(body) : undefined });
  const data = await r.json();
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(data)}`);
  return data;
}

const phoneFits = async (when) => {
  const width = await bo.evaluate(() => document.documentElement.scrollWidth);
  assert(width <= 390, `the phone does not scroll sideways ${when}: ${width} px wide`);
};
const incoming = (p) => p.locator('#challenges-in li');
const outgoing = (p) => p.locator('#challenges-out li');
const inGame = (p, not) => waitInPage(p, (previous) => document.body.dataset.live && document.body.dataset.live !== previous
  && document.body.dataset.liveConnected === '1' && { id: Number(document.body.dataset.live), seat: document.body.dataset.liveSeat }, not || '');

async function openLeaders(p) {
  await p.click('#btn-leaders');
  await p.waitForSelector('#leaders[open]');
  await p.selectOption('#leaders-speed', 'blitz');
  await p.waitForFunction((n) => [...document.querySelectorAll('#leaders-table a')].some((a) => a.textContent === n), names.bo);
}

await check('Ana and Bo sign up from the page, and one rated game puts both on the blitz leaderboard', async () => {
  await signUp(ana, names.ana);
  await signUp(bo, names.bo);
  const made = await apiAs(ana, 'POST', '/live', { game: 'hoyito-ii', seat: 'south', rated: true, clock: { base_ms: 300000, increment_ms: 3000 } });
  await apiAs(bo, 'POST', `/live/${made.live.id}/claim`, {}, made.invite);
  await apiAs(ana, 'POST', `/live/${made.live.id}/resign`, {}, made.token);
  const board = await apiAs(ana, 'GET', '/leaderboard?game=hoyito-ii&speed=blitz');
  const listed = board.players.map((p) => p.name);
  assert(listed.includes(names.ana) && listed.includes(names.bo), `the leaderboard: ${listed}`);
  await waitInPage(bo, () => document.body.dataset.notices === 'open'); // Bo's page keeps a notices socket
  equal(await bo.locator('#challenges').isVisible(), false, 'no panel while there is no challenge');
});

let first = null; // the first challenge: {id, token}
let sentAt = 0;
const boPageBefore = { origin: 0 };

await check('Ana challenges Bo from his leaderboard row (not herself), with the form’s games and clocks', async () => {
  boPageBefore.origin = await bo.evaluate(() => performance.timeOrigin);
  await openLeaders(ana);
  const row = (n) => ana.locator('#leaders-table tbody tr').filter({ has: ana.locator(`a:text-is("${n}")`) });
  equal(await row(names.ana).locator('.challenge-button').count(), 0, 'no Challenge on her own row');
  await row(names.bo).locator('.challenge-button').click();
  await ana.waitForSelector('#challenge[open]');
  equal(await ana.inputValue('#challenge-to'), names.bo, 'the form names Bo');
  equal(await ana.$$eval('#challenge-game option', (os) => os.map((o) => o.value)), ['hoyito-ii', 'hoyito-iii', 'ayoayo'], 'the games');
  equal(await ana.$$eval('#challenge-clock option', (os) => os.map((o) => o.textContent)),
    ['1 min', '3 + 2', '5 + 3', '10 + 5', '15 + 10', '30 min', '1 day a move', '2 days a move', '3 days a move', '5 days a move',
      '7 days a move', '14 days a move'], 'the clocks: quick pairing’s grid and correspondence');
  equal(await ana.$$eval('#challenge-seat option', (os) => os.map((o) => o.value)), ['random', 'south', 'north'], 'the seats');
  await ana.selectOption('#challenge-game', 'hoyito-ii');
  await ana.selectOption('#challenge-clock', '300000+3000');
  await ana.selectOption('#challenge-seat', 'south');
  equal(await ana.isChecked('#challenge-rated'), false, 'casual unless asked');
  sentAt = Date.now();
  await ana.click('#challenge-send');
  await ana.waitForSelector('#challenge', { state: 'hidden' });
  equal(await ana.locator('dialog[open]').count(), 0, 'the leaderboard closed too: the panel is in view');
  await waitInPage(ana, () => document.querySelectorAll('#challenges-out li').length === 1);
  const said = await outgoing(ana).textContent();
  assert(said.includes(`Your challenge to ${names.bo}: Hoyito II, 5 + 3, casual; you play South.`) && /\d:\d\d left/.test(said),
    `Ana’s panel: ${said}`);
  equal(await outgoing(ana).locator('button').allTextContents(), ['Cancel'], 'Cancel beside it');
  first = await ana.evaluate(() => {
    const k = Object.keys(localStorage).find((x) => x.startsWith('sowing.challenge.'));
    return k && { id: Number(k.split('.')[2]), token: JSON.parse(localStorage.getItem(k)).token };
  });
  assert(first && /^[0-9a-f]{32}$/.test(first.token), `the seat token kept by challenge: ${JSON.stringify(first)}`);
});

await check('Bo’s phone shows the challenge within 2 s, in Spanish, without reloading, and fits', async () => {
  await waitInPage(bo, () => document.querySelectorAll('#challenges-in li').length === 1, undefined,
    { timeout: Math.max(200, 2000 - (Date.now() - sentAt)) });
  equal(await bo.evaluate(() => performance.timeOrigin), boPageBefore.origin, 'the same page, not reloaded');
  const text = await incoming(bo).locator('.challenge-words').textContent();
  equal(text, `${names.ana} te reta: Hoyito II, 5 + 3, amistosa; jugarías con Norte.`, 'the challenge in Spanish');
  assert(/^quedan [45]:\d\d$/.test(await incoming(bo).locator('.challenge-left').textContent()), 'a countdown');
  equal(await incoming(bo).locator('button').allTextContents(), ['Aceptar', 'Rechazar'], 'the buttons in Spanish');
  await phoneFits('with the challenge shown');
});

await check('a page whose notices socket cannot open lists the challenges by a plain request', async () => {
  const other = await ana.context().newPage();
  await other.routeWebSocket(/\/api\/account\/socket$/, (ws) => ws.close());
  other.on('pageerror', (e) => errors.push(`ana's second page: ${e.message}`));
  await other.goto(BASE + '/');
  await other.waitForSelector('#new-game[open]');
  await other.keyboard.press('Escape');
  await waitInPage(other, (id) => document.querySelector(`#challenges-out li[data-challenge="${id}"]`), first.id);
  const { counters } = await other.evaluate(async () => ({ counters: (await import('/challenges.js')).counters }));
  assert(counters.fallbacks >= 1 && counters.lists >= 1, `listed by GET: ${JSON.stringify(counters)}`);
  await other.close();
});

let game = null;

await check('Bo accepts: both pages land in the same live game at their seats, and South’s move reaches North', async () => {
  await incoming(bo).locator('button.challenge-accept').tap();
  const [a, b] = await Promise.all([inGame(ana), inGame(bo)]);
  equal(a.id, b.id, 'the same game');
  equal([a.seat, b.seat], ['south', 'north'], 'Ana South as she asked, Bo North');
  game = a.id;
  equal(await ana.evaluate(() => location.hash), `#live=${game}&seat=${first.token}`, 'Ana plays with the challenge’s token');
  equal(await ana.evaluate((id) => localStorage.getItem(`sowing.challenge.${id}`), first.id), null, 'the token’s job is done');
  assert(!anaUrls.some((u) => u.includes(first.token)), 'the token was in no address the page asked for');
  const live = await apiAs(ana, 'GET', `/live/${game}`);
  equal([live.live.seats.south.name, live.live.seats.north.name], [names.ana, names.bo], 'the seats are the accounts');
  await liveSettled(ana, game, 0);
  await ana.click('#board .pit.legal >> nth=0');
  await liveSettled(bo, game, 1);
  const moved = (await apiAs(bo, 'GET', `/live/${game}`)).game.history[0].move;
  equal(await bo.evaluate(async () => (await import('/state.js')).S.view.history[0].move), moved, 'Bo’s page shows Ana’s move');
  equal(await ana.locator('#challenges').isVisible(), false, 'nothing left in Ana’s panel');
  await phoneFits('in the live game');
});

await check('Ana’s seat plays from a second device signed in as her, with no token in its address', async () => {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  await context.addCookies((await ana.context().cookies()).filter((c) => c.name === 'sowing_session'));
  const second = await context.newPage();
  second.on('pageerror', (e) => errors.push(`ana, second device: ${e.message}`));
  await second.goto(`${BASE}/#live=${game}`);
  equal((await inGame(second)).seat, 'south', 'the session’s account holds South');
  // Bo moves until it is South's turn (a capture moves again); then the second device moves.
  let view = await apiAs(bo, 'GET', `/live/${game}`);
  while (view.game.state.to_move === 'north') {
    await liveSettled(bo, game, view.game.ply);
    await bo.click('#board .pit.legal >> nth=0');
    await liveSettled(bo, game, view.game.ply + 1);
    view = await apiAs(bo, 'GET', `/live/${game}`);
  }
  await liveSettled(second, game, view.game.ply);
  await second.click('#board .pit.legal >> nth=0');
  await liveSettled(ana, game, view.game.ply + 1);
  const after = await apiAs(ana, 'GET', `/live/${game}`);
  equal(after.game.ply, view.game.ply + 1, 'the second device’s move was played');
  assert(!(await second.evaluate(() => document.body.innerHTML)).includes('seat=null'), 'no link names a missing token');
  await context.close();
});

await check('Ana cancels a challenge made by name: it leaves Bo’s phone at once', async () => {
  await ana.click('#btn-leaders');
  await ana.fill('#challenge-by-name-to', names.bo);
  await ana.click('#challenge-by-name button');
  await ana.waitForSelector('#challenge[open]');
  equal(await ana.inputValue('#challenge-to'), names.bo, 'the form names Bo');
  await ana.click('#challenge-send');
  await waitInPage(bo, () => document.querySelectorAll('#challenges-in li').length === 1);
  await outgoing(ana).locator('button.challenge-cancel').click();
  await waitInPage(bo, () => document.querySelectorAll('#challenges-in li').length === 0, undefined, { timeout: 2000 });
  equal(await bo.locator('#challenges').isVisible(), false, 'Bo’s panel is gone');
  equal(await ana.locator('#challenges').isVisible(), false, 'and Ana’s: no line for her own cancel');
  equal((await apiAs(ana, 'GET', '/challenges')).challenges[0].state, 'cancelled', 'the server says cancelled');
});

await check('a second challenge, from Bo’s profile, declined on the phone: Ana’s page says so', async () => {
  await openLeaders(ana);
  await ana.click(`#leaders-table a:text-is("${names.bo}")`);
  await ana.waitForFunction((n) => (document.querySelector('#profile[open] #profile-title') || {}).textContent === n, names.bo);
  await ana.click('#profile-challenge');
  await ana.waitForSelector('#challenge[open]');
  await ana.selectOption('#challenge-clock', 'days:1');
  await ana.selectOption('#challenge-seat', 'random');
  await ana.click('#challenge-send');
  await waitInPage(bo, () => document.querySelectorAll('#challenges-in li').length === 1);
  const text = await incoming(bo).locator('.challenge-words').textContent();
  assert(text.startsWith(`${names.ana} te reta: Hoyito II, 1 día por jugada, amistosa;`), `in Spanish: ${text}`);
  await phoneFits('with a challenge over the live game');
  await incoming(bo).locator('button.challenge-decline').tap();
  await waitInPage(bo, () => document.querySelectorAll('#challenges-in li').length === 0);
  await waitInPage(ana, () => document.querySelector('#challenges-said').textContent !== '');
  equal(await ana.textContent('#challenges-said'), `${names.bo} declined your challenge.`, 'said on Ana’s page');
  equal(await outgoing(ana).count(), 0, 'no longer listed as open');
  const mine = await apiAs(ana, 'GET', '/challenges');
  equal(mine.challenges[0].state, 'declined', 'the server says declined');
  equal(await ana.evaluate(() => document.body.dataset.live), String(game), 'Ana’s page stays in the game');
});

await check('Bo refuses Ana by name in his settings; her next challenge is refused, in English and in Spanish', async () => {
  // What the server keeps for Bo, once his page's changes reached it.
  const refusals = async (want) => {
    for (let i = 0; ; i++) {
      const kept = await apiAs(bo, 'GET', '/account/refusals');
      if (JSON.stringify(kept) === JSON.stringify(want) || i === 100) return equal(kept, want, 'Bo’s refusals on the server');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  await bo.locator('#btn-account').tap();
  await bo.locator('#account-profile').tap();
  await bo.waitForSelector('#profile[open] #refusals');
  await bo.waitForFunction(() => document.querySelector('#refusals-list').textContent === 'nadie');
  equal(await bo.textContent('#refusals label.check span'), 'Rechazar los retos de todos', 'the setting in Spanish');
  await bo.fill('#refusals-name', names.ana);
  await bo.locator('#refusals-add').tap();
  await bo.waitForSelector(`#refusals-list li[data-name="${names.ana}"]`);
  equal(await bo.textContent('#refusals-said'), 'Guardado.', 'saved');
  await refusals({ everyone: false, names: [names.ana] });
  await phoneFits('in the profile');
  // Ana, by name above the leaderboard.
  const challengeByName = async () => {
    await ana.click('#btn-leaders');
    await ana.fill('#challenge-by-name-to', names.bo);
    await ana.click('#challenge-by-name button');
    await ana.waitForSelector('#challenge[open]');
    await ana.click('#challenge-send');
    await ana.waitForFunction(() => document.querySelector('#challenge-error').textContent !== '');
    const said = await ana.textContent('#challenge-error');
    await ana.click('#challenge-close');
    await ana.click('#leaders-close');
    return said;
  };
  equal(await challengeByName(), 'That player does not take challenges from you.', 'refused, in English');
  await ana.selectOption('#lang', 'es');
  equal(await challengeByName(), 'Ese jugador no acepta retos tuyos.', 'refused, in Spanish');
  await ana.selectOption('#lang', 'en');
  // Refusing everyone instead: the same words (whoever is refused, and why, is not told).
  await bo.locator('#refusals-everyone').tap();
  await bo.locator(`#refusals-list li[data-name="${names.ana}"] button`).tap();
  await bo.waitForFunction(() => document.querySelector('#refusals-list').textContent === 'nadie');
  await refusals({ everyone: true, names: [] });
  equal(await challengeByName(), 'That player does not take challenges from you.', 'the same words');
  equal(await incoming(bo).count(), 0, 'Bo was never shown a refused challenge');
  await bo.locator('#refusals-everyone').tap();
  await refusals({ everyone: false, names: [] });
  await bo.locator('#profile-close').tap();
});

await check('signed out, the leaderboard offers no Challenge and the page keeps no notices socket', async () => {
  const stranger = await playerPage(browser, 'stranger', key(), { viewport: { width: 1200, height: 900 } }, errors);
  await stranger.waitForSelector('#new-game[open]');
  await stranger.keyboard.press('Escape');
  await openLeaders(stranger);
  equal(await stranger.locator('#leaders-table .challenge-button').count(), 0, 'no Challenge buttons');
  equal(await stranger.locator('#challenge-by-name').isVisible(), false, 'no challenge by name');
  const { counters } = await stranger.evaluate(async () => ({ counters: (await import('/challenges.js')).counters }));
  equal(counters.sockets, 0, 'no socket');
  await stranger.close();
});

await check('no page error', async () => equal(errors, [], 'page errors'));
await browser.close();
finish();
