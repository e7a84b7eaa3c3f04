// Browser tests of accounts and ratings (issue 24, part 3): two browser contexts (two
// devices) each sign up from the page, one invites the other to a rated game, the friend's
// page claims its seat with its account, both play the game to its end by clicking pits,
// and both pages show the ratings moved — as the server's Glicko-2 says — beside the names,
// on the profile (with its graph) and on the leaderboard. Then signing out, and a third
// player's recovery: the codes shown once at sign-up, a forgotten password replaced with one
// code, the code refused the second time, and new codes from the profile ending the old
// (issue 38, part 6). Run by scripts/browser-test.sh (SOW_URL).
import { BASE, api, assert, check, equal, finish, launch, liveSettled } from './common.mjs';

const browser = await launch();
const errors = [];
async function device(label) {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  await context.addInitScript(() => localStorage.setItem('sowing.speed', '10'));
  const page = await context.newPage();
  page.setDefaultTimeout(30000);
  page.on('pageerror', (e) => errors.push(`${label}: ${e.message}`));
  return page;
}
const ana = await device('ana');
const bea = await device('bea');
// Names of their own: the database is shared with the other browser test files.
const suffix = String(Date.now() % 1000000);
const names = { ana: `Ana${suffix}`, bea: `Bea${suffix}` };
const PASSWORD = 'correct horse battery';

async function signUp(page, name) {
  await page.goto(BASE + '/');
  await page.waitForSelector('#new-game[open]');
  await page.keyboard.press('Escape');
  await page.click('#btn-account');
  await page.waitForSelector('#account[open]');
  await page.fill('#signup-name', name);
  await page.fill('#signup-password', PASSWORD);
  await page.click('#signup-go');
  await page.waitForFunction((n) => document.body.dataset.account === n, name);
  const said = await page.textContent('#account-said');
  assert(said.includes(`Welcome, ${name}`), `welcomed: ${said}`);
  await page.keyboard.press('Escape');
}

await check('two people sign up from the page, each on their own device', async () => {
  await signUp(ana, names.ana);
  await signUp(bea, names.bea);
  equal(await ana.textContent('#btn-account'), `${names.ana} ▾`, 'the header names the account');
  // The session is an HttpOnly cookie: the page's scripts cannot read it.
  equal(await ana.evaluate(() => document.cookie), '', 'no script sees the session');
  const cookies = await ana.context().cookies();
  const session = cookies.find((c) => c.name === 'sowing_session');
  assert(session && session.httpOnly && session.sameSite === 'Lax', `the cookie: ${JSON.stringify(session)}`);
});

let id = null, inviteUrl = null;
const settled = (p, ply) => liveSettled(p, id, ply);
const ratingsShown = (p) => p.$$eval('.live-rating', (els) => {
  const by = Object.fromEntries(els.map((e) => [e.dataset.side, e.textContent.trim()]));
  return { south: by.south, north: by.north };
});

await check('a rated invitation: the friend’s page claims its seat with its account, ratings beside the names', async () => {
  await ana.click('#btn-new');
  await ana.waitForSelector('#new-game[open]');
  await ana.selectOption('#f-game', 'hoyito-ii:6');
  await ana.check('#f-opponent-friend');
  assert(await ana.locator('#f-rated').isVisible(), 'the rated box is there for a signed-in player');
  await ana.selectOption('#f-clock', '');
  await ana.check('#f-rated');
  await ana.click('#btn-friend');
  await ana.waitForFunction(() => document.body.dataset.live && document.body.dataset.liveConnected === '1');
  id = Number(await ana.evaluate(() => document.body.dataset.live));
  inviteUrl = await ana.inputValue('#live-links input[name=invite]');
  await bea.goto(inviteUrl);
  for (const p of [ana, bea]) await p.waitForFunction(() => document.querySelectorAll('.live-rating').length === 2);
  const view = await api('GET', `/live/${id}`);
  equal([view.live.rated, view.live.speed], [true, 'unlimited'], 'rated, no clock');
  equal([view.live.seats.south.name, view.live.seats.north.name], [names.ana, names.bea], 'each seat is its account');
  for (const p of [ana, bea]) {
    equal(await ratingsShown(p), { south: '1500?', north: '1500?' }, 'a new player’s rating, provisional');
    const shownNames = await p.$$eval('.live-name', (els) => els.map((e) => e.textContent));
    assert(shownNames.some((n) => n.includes(names.ana)) && shownNames.some((n) => n.includes(names.bea)), `names: ${shownNames}`);
  }
});

await check('the rated game is played to its end by clicking pits, and both ratings move on both pages', async () => {
  let ply = 0;
  for (; ply < 600; ply++) {
    const view = await api('GET', `/live/${id}`);
    if (view.live.result) break;
    const p = view.game.state.to_move === 'south' ? ana : bea;
    await settled(p, ply);
    if (view.game.state.legal.length === 1 && view.game.state.legal[0] === 'pass') await p.click('#btn-pass');
    else await p.click('#board .pit.legal >> nth=0');
    for (const q of [ana, bea]) await settled(q, ply + 1);
  }
  const final = await api('GET', `/live/${id}`);
  assert(final.live.result, `the game ended after ${ply} moves`);
  const [south, north] = [final.live.seats.south.rating, final.live.seats.north.rating];
  equal([south.games, north.games], [1, 1], 'one rated game each');
  const outcome = final.live.result.outcome;
  if (outcome === 'south') assert(south.rating > 1500 && north.rating < 1500, `south won: ${south.rating} ${north.rating}`);
  if (outcome === 'north') assert(north.rating > 1500 && south.rating < 1500, `north won: ${south.rating} ${north.rating}`);
  assert(south.deviation < 350 && north.deviation < 350, 'both deviations shrank');
  const expected = { south: `${Math.round(south.rating)}?`, north: `${Math.round(north.rating)}?` };
  for (const p of [ana, bea]) {
    await p.waitForFunction((e) => {
      const shown = Object.fromEntries([...document.querySelectorAll('.live-rating')].map((x) => [x.dataset.side, x.textContent.trim()]));
      return shown.south === e.south && shown.north === e.north;
    }, expected);
  }
  const profile = await api('GET', `/accounts/${names.ana}`);
  equal(profile.ratings.map((r) => [r.game, r.speed, r.rating]), [['hoyito-ii', 'unlimited', south.rating]], 'the profile has the new rating');
});

await check('the profile shows the ratings, a rating graph, results and the game; only its owner edits it', async () => {
  await ana.click('#btn-account');
  await ana.click('#account-profile');
  await ana.waitForSelector('#profile[open] #rating-graph');
  const graph = await ana.$$eval('#rating-graph polyline', (ls) => ls.map((l) => l.getAttribute('points').trim().split(/\s+/).length));
  equal(graph, [2], 'one line, from 1500 to the rating after the game');
  equal(await ana.$$eval('#profile-games tbody tr', (r) => r.length), 1, 'the rated game is listed');
  assert((await ana.textContent('#profile-games')).includes(names.bea), 'against Bea');
  await ana.fill('#profile-about', 'Hoyito <b>every</b> evening');
  await ana.click('#profile-save');
  await ana.waitForFunction(() => document.querySelector('#profile .account-said').textContent === 'Saved.');
  await ana.keyboard.press('Escape');
  // Bea sees Ana's profile from the leaderboard, as text and with no way to edit it.
  await bea.click('#btn-leaders');
  await bea.waitForSelector('#leaders[open]');
  await bea.selectOption('#leaders-speed', 'unlimited');
  await bea.waitForFunction((n) => [...document.querySelectorAll('#leaders-table a')].some((a) => a.textContent === n), names.ana);
  const board = await bea.$$eval('#leaders-table tbody tr', (rows) => rows.map((r) => r.textContent));
  assert(board.some((r) => r.includes(names.ana)) && board.some((r) => r.includes(names.bea)), `the leaderboard: ${board}`);
  await bea.click(`#leaders-table a:text-is("${names.ana}")`);
  await bea.waitForSelector('#profile[open]');
  await bea.waitForFunction((n) => document.querySelector('#profile-title').textContent === n, names.ana);
  equal(await bea.textContent('p#profile-about'), 'Hoyito <b>every</b> evening', 'the text as written, not markup');
  equal(await bea.locator('#profile-save').count(), 0, 'no edit on someone else’s profile');
  // The rated game opens from the profile with its review, which names the players.
  await bea.click('#profile-games a.profile-review');
  await bea.waitForFunction(() => document.body.dataset.analysis === 'done' && document.querySelector('#review .review-graph'),
    null, { timeout: 90000 });
  assert(/^#game=\d+&analysis$/.test(await bea.evaluate(() => location.hash)), 'the address is the game’s review');
  const seats = (await api('GET', `/live/${id}`)).live.seats;
  equal(await bea.$$eval('#review .review-player .name', (e) => e.map((x) => x.textContent)),
    [seats.south.name, seats.north.name], 'the review names the players, not the sides');
  await bea.keyboard.press('Escape');
});

await check('the lobby filters challenges by rating range', async () => {
  const south = (await api('GET', `/live/${id}`)).live.seats.south.rating.rating;
  // Ana posts a rated lobby challenge; a range around her rating shows it, one above hides it.
  await ana.click('#btn-new');
  await ana.check('#f-opponent-friend');
  await ana.check('#f-lobby');
  await ana.check('#f-rated');
  await ana.click('#btn-friend');
  // Her page leaves the rated game for the new challenge.
  await ana.waitForFunction((previous) => document.body.dataset.live && document.body.dataset.live !== String(previous)
    && document.body.dataset.liveConnected === '1', id);
  const challenge = Number(await ana.evaluate(() => document.body.dataset.live));
  // Bea's page lists the challenge once her range holds Ana's rating, and drops it once the
  // range is above it.
  const filter = async (low, high) => {
    await bea.fill('#lobby-min', String(low));
    await bea.fill('#lobby-max', String(high));
    await bea.dispatchEvent('#lobby-max', 'change');
  };
  const shown = (want) => bea.waitForFunction(([c, w]) => [...document.querySelectorAll('#lobby-list li[data-challenge]')]
    .some((li) => Number(li.dataset.challenge) === c) === w, [challenge, want]);
  await filter(Math.floor(south) - 10, Math.ceil(south) + 10);
  await shown(true);
  await filter(Math.ceil(south) + 1, 4000);
  await shown(false);
  const r = await api('GET', `/lobby?min_rating=${Math.ceil(south) + 1}`);
  assert(!r.challenges.some((c) => c.id === challenge), 'the server filters alike');
  await api('POST', `/live/${challenge}/resign`, undefined, await ana.evaluate((c) => localStorage.getItem(`sowing.seat.${c}`), challenge))
    .catch(() => {});
});

await check('signing out ends the session and gives the browser a fresh player key', async () => {
  const before = await ana.evaluate(() => localStorage.getItem('sowing.player'));
  await ana.click('#btn-account');
  await ana.click('#account-signout');
  await ana.waitForFunction(() => document.body.dataset.account === '');
  equal(await ana.textContent('#btn-account'), 'Sign in', 'the header says so');
  const after = await ana.evaluate(async () => { (await import('/api.js')).playerKey(); return localStorage.getItem('sowing.player'); });
  assert(after && after !== before, 'a new key');
  const me = await ana.evaluate(async () => (await fetch('/api/account')).json());
  equal(me.account, null, 'the server knows nobody');
});

await check('recovery codes: shown once at sign-up, one replaces a forgotten password once, new ones end the old', async () => {
  const cy = await device('cy');
  const name = `Cy${suffix}`;
  await cy.goto(BASE + '/');
  await cy.waitForSelector('#new-game[open]');
  await cy.keyboard.press('Escape');
  await cy.click('#btn-account');
  // The form checks the server's rules before sending: a one-letter name, a short password.
  let sent = 0;
  cy.on('request', (r) => { if (r.url().endsWith('/api/account/signup')) sent += 1; });
  await cy.fill('#signup-name', 'C');
  await cy.fill('#signup-password', 'short');
  await cy.click('#signup-go');
  equal(await cy.$$eval('#signup :invalid', (es) => es.map((e) => e.id)), ['signup-name', 'signup-password'], 'both refused');
  await cy.fill('#signup-name', '-cy');
  equal(await cy.$eval('#signup-name', (e) => e.validity.patternMismatch), true, 'a name starting with -');
  equal(sent, 0, 'nothing sent');
  await cy.fill('#signup-name', name);
  await cy.fill('#signup-password', PASSWORD);
  await cy.click('#signup-go');
  await cy.waitForSelector('#account-codes');
  const note = await cy.textContent('#account-codes');
  assert(note.includes('Write these codes down') && note.includes('shown only now'), `the note: ${note}`);
  const codes = await cy.$$eval('#account-codes li code', (cs) => cs.map((c) => c.textContent));
  equal(codes.length, 8, 'eight codes');
  assert(codes.every((c) => /^[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}$/.test(c)), `the codes: ${codes}`);
  // Written down: they leave the page, and the account dialog never shows them again.
  await cy.click('#account-codes-done');
  await cy.waitForSelector('#account-codes', { state: 'detached' });
  await cy.keyboard.press('Escape');
  await cy.click('#btn-account');
  equal(await cy.locator('#account-codes').count(), 0, 'not shown again');
  await cy.click('#account-signout');
  await cy.waitForFunction(() => document.body.dataset.account === '');
  // Forgot the password: the name, one code and a new password sign in.
  const recover = async (code, password) => {
    await cy.click('#recover-box summary');
    await cy.fill('#recover-name', name);
    await cy.fill('#recover-code', code);
    await cy.fill('#recover-password', password);
    await cy.click('#recover-go');
  };
  await recover(codes[0], 'a brand new password');
  await cy.waitForFunction((n) => document.body.dataset.account === n, name);
  assert((await cy.textContent('#account-said')).includes(`Welcome back, ${name}`), 'welcomed back');
  await cy.click('#account-signout');
  await cy.waitForFunction(() => document.body.dataset.account === '');
  // The same code again: refused, in words, and nobody is signed in.
  await recover(codes[0], 'yet another password');
  await cy.waitForFunction(() => document.querySelector('#account-error').textContent !== '');
  equal(await cy.textContent('#account-error'), 'That name and recovery code do not match, or the code has already been used.', 'refused');
  equal(await cy.evaluate(() => document.body.dataset.account), '', 'still signed out');
  const refused = await fetch(`${BASE}/api/account/recover`, { method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name, code: codes[0], new_password: 'yet another password' }) });
  equal(refused.status, 401, 'the server refuses it too');
  // Signed in with the new password, the profile makes new codes, which end the old ones.
  await cy.fill('#signin-name', name);
  await cy.fill('#signin-password', 'a brand new password');
  await cy.click('#signin-go');
  await cy.waitForFunction((n) => document.body.dataset.account === n, name);
  await cy.click('#account-profile');
  await cy.waitForSelector('#profile[open] #renew-codes');
  await cy.fill('#renew-password', 'a brand new password');
  await cy.click('#renew-go');
  await cy.waitForSelector('#profile-codes li');
  const fresh = await cy.$$eval('#profile-codes li code', (cs) => cs.map((c) => c.textContent));
  equal(fresh.length, 8, 'eight new codes');
  assert(fresh.every((c) => !codes.includes(c)), 'all new');
  await cy.keyboard.press('Escape');
  await cy.waitForSelector('#profile-codes', { state: 'detached' }); // closing the profile forgets them
  const old = await fetch(`${BASE}/api/account/recover`, { method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name, code: codes[1], new_password: 'yet another password' }) });
  equal(old.status, 401, 'an old code no longer works');
  await cy.context().close();
});

await check('no page errors', async () => equal(errors, [], 'page errors'));

await browser.close();
finish();
