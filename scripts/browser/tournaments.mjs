// Browser tests of tournaments (docs/api.md, "Tournaments: arenas and Swiss events";
// docs/web.md, "Tournaments"), through the page alone: four players sign up in their own
// browsers — Ana and Di on desktops in English, Bo on a 390×844 phone, Cy in Spanish — and a
// watcher who is not signed in. Ana makes a Swiss of three rounds with the page's form; the
// four join from the page (Bo from the list, by taps). Each round every game opens by itself
// on both players' pages, is played by clicking pits, and ends through the live page —
// resigned, or a draw offered and accepted —, while the watcher's tournament page, never
// reloaded, shows each round's pairings, results and standings. The Swiss ends finished
// with no pair met twice, and the standings' points, Buchholz and Sonneborn–Berger equal a
// recount. Then Bo makes a one-minute arena on the phone; Di pauses and comes back; once it
// starts Bo berserks his first game before his first move (his clock halves) and wins it,
// every game is played to its end, and the arena finishes with its points and sheets. The
// phone never scrolls sideways and its buttons are big enough to tap; the Spanish page
// speaks Spanish. Run by scripts/browser-test.sh (SOW_URL).
import { randomBytes } from 'node:crypto';
import { BASE, assert, check, equal, finish, launch, liveSettled, playerPage, waitInPage } from './common.mjs';

const browser = await launch();
const errors = [];
const key = () => randomBytes(16).toString('hex');
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const PASSWORD = 'correct horse battery';
const suffix = String(Date.now() % 1000000).padStart(6, '0');
const other = (side) => (side === 'south' ? 'north' : 'south');
// The live page's words each player's page uses.
const WORDS = {
  en: { resign: 'Resign', offer: 'Offer a draw', accept: 'Accept the draw' },
  es: { resign: 'Rendirse', offer: 'Proponer empate', accept: 'Aceptar el empate' },
};
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

const players = {};
async function player(label, name, lang, options) {
  const page = await playerPage(browser, label, key(), { viewport: { width: 1200, height: 900 }, ...options }, errors);
  page.on('dialog', (d) => d.accept()); // resigning, accepting a draw, withdrawing ask first
  const p = { label, name, lang, page, phone: !!(options && options.isMobile) };
  p.press = (selector) => (p.phone ? page.tap(selector) : page.click(selector));
  players[name] = p;
  return p;
}
const ana = await player('ana', `Ana${suffix}`, 'en');
// The phone player has the longest name an account may have (24), and makes an arena
// named in 32 characters: both must fit a 390 px screen.
const bo = await player('bo', `Bo${'o'.repeat(16)}${suffix}`, 'en', PHONE);
const ARENA_NAME = `Arena ${suffix} played on a phone, 32`.slice(0, 32);
const cy = await player('cy', `Cy${suffix}`, 'es', { locale: 'es-ES' });
const di = await player('di', `Di${suffix}`, 'en');
const everyone = [ana, bo, cy, di];

async function signUp(p) {
  const page = p.page;
  await page.waitForSelector('#new-game[open]');
  await page.keyboard.press('Escape');
  await p.press('#btn-account');
  await page.waitForSelector('#account[open]');
  await page.fill('#signup-name', p.name);
  await page.fill('#signup-password', PASSWORD);
  await p.press('#signup-go');
  await page.waitForFunction((n) => document.body.dataset.account === n, p.name);
  await page.keyboard.press('Escape');
  await page.waitForSelector('#account', { state: 'hidden' });
}

// The JSON API as a page's account would see it (its session cookie), or as anyone.
async function apiAs(page, method, path) {
  const headers = {};
  if (page) {
    const session = (await page.context().cookies()).find((c) => c.name === 'sowing_session');
    headers.cookie = `sowing_session=${session.value}`;
  }
  const r = await fetch(`${BASE}/api${path}`, { method, headers });
  const data = await r.json();
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(data)}`);
  return data;
}
const get = (path) => apiAs(null, 'GET', path);

async function until(what, fn, timeout = 30000) {
  const end = Date.now() + timeout;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > end) throw new Error(`${timeout} ms passed waiting for ${what}`);
    await sleep(150);
  }
}

// A local time `ms` as a datetime-local input takes it, in the page's own time zone.
const localTime = (page, ms) => page.evaluate((t) => {
  const d = new Date(t);
  return new Date(t - d.getTimezoneOffset() * 60000).toISOString().slice(0, 19);
}, ms);

const fits = async (p, when) => {
  const width = await p.page.evaluate(() => document.documentElement.scrollWidth);
  assert(width <= 390, `the phone does not scroll sideways ${when}: ${width} px wide`);
};
// Every visible one of `selector` on the phone is at least 40 px tall (a finger's width).
const tappable = async (p, selector) => {
  const heights = await p.page.$$eval(selector, (els) => els.filter((e) => e.getClientRects().length)
    .map((e) => Math.round(e.getBoundingClientRect().height)));
  assert(heights.length > 0, `nothing matches ${selector}`);
  assert(heights.every((h) => h >= 40), `${selector}: heights ${heights} (under 40 px)`);
};

// Page `p` shows live game `id` by itself, connected, at seat `seat`.
const inGame = (p, id, seat) => waitInPage(p.page, ([g, s]) => document.body.dataset.live === String(g)
  && document.body.dataset.liveConnected === '1' && document.body.dataset.liveSeat === s, [id, seat]);

// `p`, to move in game `id`, sows the first pit it may (clicked or tapped on the board).
async function sow(p, id) {
  const before = await get(`/live/${id}`);
  await liveSettled(p.page, id, before.game.ply);
  await p.press('#board .pit.legal >> nth=0');
  await until('the move', async () => (await get(`/live/${id}`)).game.ply > before.game.ply, 15000);
}

// Whoever is to move in game `id` moves until `side` has moved (a capture moves again).
async function playUntilMoved(id, seats, side) {
  for (let i = 0; i < 12; i++) {
    const v = await get(`/live/${id}`);
    if (v.game.history.some((h) => h.side === side) || v.live.result) return;
    await sow(seats[v.game.state.to_move], id);
  }
  throw new Error(`game ${id}: ${side} never moved`);
}

async function liveButton(p, id, words) {
  const v = await get(`/live/${id}`);
  await liveSettled(p.page, id, v.game.ply);
  const b = p.page.locator('#live-buttons button', { hasText: words });
  await b.waitFor();
  if (p.phone) await b.tap(); else await b.click();
}

async function resign(p, id) {
  await liveButton(p, id, WORDS[p.lang].resign);
  await until('the resignation', async () => (await get(`/live/${id}`)).live.result, 15000);
}

// ---------------------------------------------------------------- signing up, the form

await check('four players sign up from the page; the header leads to Tournaments, the list and the form', async () => {
  for (const p of everyone) await signUp(p);
  await ana.page.click('#btn-tournaments');
  await ana.page.waitForSelector('#tournaments-index:not([hidden])');
  equal(await ana.page.evaluate(() => location.hash), '#tournaments', 'the address');
  equal(await ana.page.locator('#play').isVisible(), false, 'the view takes the board’s place');
  equal(await ana.page.locator('#tournament-form').isVisible(), false, 'the form waits for its button');
  await ana.page.click('#tournaments-make');
  equal(await ana.page.$$eval('#tf-clock option', (os) => os.map((o) => o.textContent)),
    ['1 min', '3 + 2', '5 + 3', '10 + 5', '15 + 10', '30 min'], 'the clocks');
  equal(await ana.page.$$eval('#tf-game option', (os) => os.map((o) => o.value)), ['hoyito-ii', 'hoyito-iii', 'ayoayo'], 'the games');
});

const SWISS_NAME = `Swiss <i>night</i> & "co" ${suffix}`;
let swiss = null; // its id
const watcher = await browser.newPage({ viewport: { width: 1200, height: 900 } });
watcher.on('pageerror', (e) => errors.push(`watcher: ${e.message}`));
let watcherOrigin = 0;

await check('Ana makes a three-round Swiss with the form, starting at a time to the second; its name is text', async () => {
  const page = ana.page;
  await page.fill('#tf-name', SWISS_NAME);
  await page.selectOption('#tf-game', 'hoyito-ii');
  await page.selectOption('#tf-clock', '180000+2000');
  await page.check('#tf-swiss');
  assert(await page.locator('#tf-rounds').isVisible() && !(await page.locator('#tf-minutes').isVisible()), 'rounds, not minutes');
  await page.fill('#tf-rounds', '3');
  await page.fill('#tf-at', await localTime(page, Date.now() + 40000));
  equal(await page.isChecked('#tf-start-at'), true, 'typing a time chooses it');
  await page.click('#tf-make');
  await page.waitForFunction(() => /^#tournament=\d+$/.test(location.hash));
  swiss = Number((await page.evaluate(() => location.hash)).split('=')[1]);
  await page.waitForSelector('#tournament-name');
  equal(await page.textContent('#tournament-name'), SWISS_NAME, 'the name, as typed');
  equal(await page.$$eval('#tournament-name *', (els) => els.length), 0, 'no markup made of it');
  const summary = await page.textContent('.tournament-summary');
  assert(summary.includes('Hoyito II · 3 + 2 · Swiss, 3 rounds · casual · 0 players') && summary.includes(`by ${ana.name}`), summary);
  assert(/^Starts in 0:[2-4]\d$/.test(await page.textContent('#tournament-when')), await page.textContent('#tournament-when'));
  const made = await get(`/tournaments/${swiss}`);
  equal([made.kind, made.rounds, made.base_ms, made.increment_ms, made.state], ['swiss', 3, 180000, 2000, 'upcoming'], 'as stored');
  await watcher.goto(`${BASE}/#tournament=${swiss}`);
  await watcher.waitForSelector('#tournament-name');
  watcherOrigin = await watcher.evaluate(() => performance.timeOrigin);
});

await check('the four join from the page: Bo taps his way from the list on the phone, Cy’s page speaks Spanish', async () => {
  // Bo: the header, the list with a countdown, the tournament, Join.
  await bo.press('#btn-tournaments');
  const link = `#tournaments-upcoming li[data-tournament="${swiss}"] a`;
  await bo.page.waitForSelector(link);
  assert(/Starts in 0:\d\d/.test(await bo.page.textContent(`${link} .tournament-link-when`)), 'the list counts down');
  await fits(bo, 'on the list');
  await tappable(bo, '.tournament-link');
  await bo.press(link);
  await bo.page.waitForSelector('#tournament-join');
  await tappable(bo, '#tournament-join');
  await bo.press('#tournament-join');
  await bo.page.waitForSelector('#tournament-leave');
  // Cy, in Spanish.
  await cy.page.goto(`${BASE}/#tournament=${swiss}`);
  await cy.page.waitForSelector('#tournament-join');
  equal(await cy.page.textContent('#tournament-join'), 'Unirse', 'Join, in Spanish');
  assert(/^Empieza dentro de 0:\d\d$/.test(await cy.page.textContent('#tournament-when')), await cy.page.textContent('#tournament-when'));
  assert((await cy.page.textContent('.tournament-summary')).includes('Suizo, 3 rondas · amistoso'), 'the summary in Spanish');
  await cy.page.click('#tournament-join');
  await cy.page.waitForSelector('#tournament-leave');
  equal(await cy.page.textContent('#tournament-leave'), 'Retirarse', 'Withdraw, in Spanish');
  equal(await cy.page.textContent('#tournament-standings h3'), 'Clasificación', 'the standings, in Spanish');
  for (const p of [ana, di]) {
    if (p !== ana) await p.page.goto(`${BASE}/#tournament=${swiss}`);
    await p.page.waitForSelector('#tournament-join');
    await p.page.click('#tournament-join');
    await p.page.waitForSelector('#tournament-leave');
  }
  await waitInPage(watcher, () => document.querySelectorAll('#tournament-table tbody tr').length === 4);
  const view = await get(`/tournaments/${swiss}`);
  equal(view.entrants.map((e) => e.status), ['active', 'active', 'active', 'active'], 'four active');
  await fits(bo, 'on the tournament’s page');
});

// ---------------------------------------------------------------- the rounds

const byName = (name) => players[name];
const rounds = []; // each round's boards as the API gave them when paired

// Round `r` paired: both pages of each board open their game by themselves.
async function paired(r) {
  const view = await until(`round ${r}`, async () => {
    const v = await get(`/tournaments/${swiss}`);
    return v.round === r && v.boards.filter((b) => b.round === r).length === 2 && v;
  }, 40000);
  const boards = view.boards.filter((b) => b.round === r);
  rounds.push(boards);
  for (const b of boards) {
    await Promise.all([inGame(byName(b.south), b.game_id, 'south'), inGame(byName(b.north), b.game_id, 'north')]);
  }
  return boards;
}

const seatsOf = (b) => ({ south: byName(b.south), north: byName(b.north) });

await check('round 1: every game opens by itself on both pages, with the bar; Ana goes back to the tournament and opens her game from there; North resigns', async () => {
  const boards = await paired(1);
  const anaBoard = boards.find((b) => b.south === ana.name || b.north === ana.name);
  // The bar over the board leads back; the tournament's page has her game one tap away.
  await ana.page.waitForSelector('#tournament-bar:not([hidden]) #tournament-bar-back');
  assert((await ana.page.textContent('#tournament-bar-back')).includes(SWISS_NAME), 'the bar names the tournament');
  equal(await ana.page.locator('#tournament-bar-berserk').count(), 0, 'no Berserk in a Swiss');
  await ana.page.click('#tournament-bar-back');
  await ana.page.waitForSelector('#tournament-open-game');
  const opponent = anaBoard.south === ana.name ? anaBoard.north : anaBoard.south;
  assert((await ana.page.textContent('#tournament-game')).includes(`against ${opponent}`), await ana.page.textContent('#tournament-game'));
  await ana.page.click('#tournament-open-game');
  await inGame(ana, anaBoard.game_id, anaBoard.south === ana.name ? 'south' : 'north');
  await tappable(bo, '#tournament-bar-back');
  await fits(bo, 'in a tournament game with the bar');
  await Promise.all(boards.map(async (b) => {
    const seats = seatsOf(b);
    await playUntilMoved(b.game_id, seats, 'south');
    await resign(seats.north, b.game_id);
  }));
});

// The watcher's page shows round `r`'s boards with the results the API gives.
async function watcherShows(r) {
  const view = await until(`round ${r}'s results`, async () => {
    const v = await get(`/tournaments/${swiss}`);
    return v.boards.filter((b) => b.round === r).every((b) => b.result) && v;
  });
  const score = { south: '1–0', north: '0–1', draw: '½–½' };
  const expected = view.boards.filter((b) => b.round === r).map((b) => `${b.south} – ${b.north} ${score[b.result]}`);
  await waitInPage(watcher, ([round, want]) => {
    const items = [...document.querySelectorAll(`#tournament-boards ol[data-round="${round}"] li`)];
    return JSON.stringify(items.map((li) => `${li.querySelector('.tournament-board-names').textContent} ${li.querySelector('.tournament-result').textContent}`))
      === JSON.stringify(want);
  }, [r, expected], { timeout: 10000 });
  const points = view.standings.map((s) => `${s.name} ${s.points}`);
  await waitInPage(watcher, (want) => JSON.stringify([...document.querySelectorAll('#tournament-table tbody tr')]
    .map((tr) => `${tr.dataset.name} ${tr.children[2].textContent}`)) === JSON.stringify(want), points, { timeout: 10000 });
}

await check('the watcher’s page, never reloaded, shows round 1’s pairings, results and standings, then counts down to round 2', async () => {
  await watcherShows(1);
  await waitInPage(watcher, () => /^Round 1 of 3\. Next round in 0:\d\d\.$/.test(document.querySelector('#tournament-when').textContent));
});

await check('round 2 (nobody meets again): North moves, South resigns; Bo’s phone plays by taps', async () => {
  const boards = await paired(2);
  await Promise.all(boards.map(async (b) => {
    const seats = seatsOf(b);
    await playUntilMoved(b.game_id, seats, 'north');
    await resign(seats.south, b.game_id);
  }));
  await watcherShows(2);
});

await check('round 3: a draw offered and accepted on one board, a resignation on the other', async () => {
  const boards = await paired(3);
  const [drawn, resigned] = boards;
  await Promise.all([
    (async () => {
      const seats = seatsOf(drawn);
      await playUntilMoved(drawn.game_id, seats, 'south');
      await liveButton(seats.south, drawn.game_id, WORDS[seats.south.lang].offer);
      await until('the offer', async () => (await get(`/live/${drawn.game_id}`)).live.offers.draw === 'south', 10000);
      await liveButton(seats.north, drawn.game_id, WORDS[seats.north.lang].accept);
      await until('the draw', async () => (await get(`/live/${drawn.game_id}`)).live.result, 10000);
    })(),
    (async () => {
      const seats = seatsOf(resigned);
      await playUntilMoved(resigned.game_id, seats, 'south');
      await resign(seats.north, resigned.game_id);
    })(),
  ]);
  await watcherShows(3);
});

await check('the Swiss ends finished: no pair met twice, and the standings’ points, Buchholz and S-B equal a recount', async () => {
  const view = await until('the end', async () => {
    const v = await get(`/tournaments/${swiss}`);
    return v.state === 'finished' && v;
  }, 30000);
  const pairs = view.boards.map((b) => [b.south, b.north].sort().join(' '));
  equal(new Set(pairs).size, 6, `six boards, six pairs: ${pairs}`);
  equal(view.boards.length, 6, 'no bye among four');
  // The recount, from the boards alone.
  const got = {};
  for (const p of everyone) got[p.name] = 0;
  const share = (b, side) => (b.result === 'draw' ? 0.5 : b.result === side ? 1 : 0);
  for (const b of view.boards) { got[b.south] += share(b, 'south'); got[b.north] += share(b, 'north'); }
  const tie = {};
  for (const p of everyone) {
    const mine = view.boards.filter((b) => b.south === p.name || b.north === p.name);
    const opp = (b) => (b.south === p.name ? b.north : b.south);
    const side = (b) => (b.south === p.name ? 'south' : 'north');
    tie[p.name] = {
      buchholz: mine.reduce((s, b) => s + got[opp(b)], 0),
      sb: mine.reduce((s, b) => s + share(b, side(b)) * got[opp(b)], 0),
    };
  }
  const fmt = (n) => new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 }).format(n);
  await waitInPage(watcher, () => /^Finished /.test(document.querySelector('#tournament-when').textContent));
  const rows = await watcher.$$eval('#tournament-table tbody tr', (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent.trim())));
  equal(rows.length, 4, 'four rows');
  for (const [rank, name, points, buchholz, sb, games] of rows) {
    equal([points, buchholz, sb, games], [fmt(got[name]), fmt(tie[name].buchholz), fmt(tie[name].sb), '3'], `${name}’s line (rank ${rank})`);
  }
  const order = rows.map((r) => r[1]);
  const sorted = [...order].sort((a, b) => got[b] - got[a] || tie[b].buchholz - tie[a].buchholz || tie[b].sb - tie[a].sb);
  equal(order.map((n) => got[n]), sorted.map((n) => got[n]), 'best first');
  equal(await watcher.evaluate(() => performance.timeOrigin), watcherOrigin, 'the watcher’s page was never reloaded');
  // Cy's page (Spanish) says it ended.
  await cy.page.click('#tournament-bar-back');
  await cy.page.waitForSelector('#tournament-when');
  await waitInPage(cy.page, () => /^Terminó el /.test(document.querySelector('#tournament-when').textContent));
  assert((await cy.page.textContent('#tournament-boards')).includes('Emparejamientos') && (await cy.page.textContent('#tournament-boards')).includes('Ronda 3'),
    'the pairings in Spanish');
  equal(await cy.page.$$eval('#tournament-table th', (ths) => ths.map((th) => th.textContent)),
    ['#', 'Jugador', 'Puntos', 'Buch.', 'S-B', 'Partidas'], 'the columns in Spanish');
  equal(await cy.page.textContent('#tournament-you'), 'Jugaste en él.', 'Cy played in it');
});

await check('each player’s games: the watcher taps a name in the standings', async () => {
  await watcher.click(`#tournament-table button[data-name="${di.name}"]`);
  await watcher.waitForSelector('#tournament-player li');
  const lines = await watcher.$$eval('#tournament-player li .tournament-board-names', (els) => els.map((e) => e.textContent));
  equal(lines.length, 3, `three games: ${lines}`);
  for (const [i, line] of lines.entries()) assert(new RegExp(`^Round ${i + 1}: against \\S+, (South|North): (won|lost|drawn)$`).test(line), line);
  equal(await watcher.locator('#tournament-player a.tournament-game-link').count(), 3, 'each a link to the game');
  await bo.press('#tournament-bar-back');
  await bo.page.waitForSelector('#tournament-table');
  await fits(bo, 'on the finished Swiss with its standings and pairings');
  await tappable(bo, '#tournament-table button.tournament-player-button');
  await tappable(bo, '#tournament-boards a.tournament-game-link');
});

// ---------------------------------------------------------------- the arena

let arena = null;
let arenaStarts = 0;

await check('Bo makes a one-minute arena on the phone with the form; the others join from the list; Di pauses and comes back', async () => {
  await bo.press('#btn-tournaments');
  await bo.page.waitForSelector('#tournaments-index:not([hidden])');
  await bo.press('#tournaments-make');
  equal(ARENA_NAME.length, 32, 'a 32-character name');
  await bo.page.fill('#tf-name', ARENA_NAME);
  await bo.page.selectOption('#tf-clock', '60000+0');
  await bo.page.check('#tf-arena');
  await bo.page.fill('#tf-minutes', '1');
  arenaStarts = Date.now() + 30000;
  await bo.page.fill('#tf-at', await localTime(bo.page, arenaStarts));
  await fits(bo, 'with the form open');
  await tappable(bo, '#tf-make');
  await bo.press('#tf-make');
  await bo.page.waitForFunction(() => /^#tournament=\d+$/.test(location.hash));
  arena = Number((await bo.page.evaluate(() => location.hash)).split('=')[1]);
  await bo.page.waitForSelector('#tournament-join');
  await bo.press('#tournament-join');
  await bo.page.waitForSelector('#tournament-leave');
  for (const p of [ana, cy, di]) {
    await p.page.click('#btn-tournaments');
    const link = `#tournaments-upcoming li[data-tournament="${arena}"] a`;
    await p.page.waitForSelector(link);
    await p.page.click(link);
    await p.page.waitForSelector('#tournament-join');
    await p.page.click('#tournament-join');
    await p.page.waitForSelector('#tournament-leave');
  }
  equal(await di.page.textContent('#tournament-leave'), 'Pause', 'an arena pauses');
  await di.page.click('#tournament-leave');
  await di.page.waitForSelector('#tournament-you[data-status="paused"]');
  equal(await di.page.textContent('#tournament-join'), 'Come back', 'and comes back');
  await di.page.click('#tournament-join');
  await di.page.waitForSelector('#tournament-you[data-status="active"]');
  equal(await cy.page.textContent('#tournament-leave'), 'Pausa', 'Pause, in Spanish');
  const view = await get(`/tournaments/${arena}`);
  equal([view.kind, view.minutes, view.base_ms, view.players], ['arena', 1, 60000, 4], 'as stored');
});

let berserkGame = null;
let boSeat = null;

await check('the arena starts: Bo berserks his first game before his first move, and his clock halves', async () => {
  const me = await until('Bo’s first game', async () => {
    const v = await apiAs(bo.page, 'GET', `/tournaments/${arena}`);
    return v.me && v.me.game_id && v.me;
  }, 60000);
  berserkGame = me.game_id;
  boSeat = me.seat;
  await inGame(bo, berserkGame, boSeat);
  await bo.page.waitForSelector('#tournament-bar-berserk');
  await tappable(bo, '#tournament-bar-berserk');
  equal(await bo.page.textContent(`.live-clock[data-side="${boSeat}"]`), '1:00', 'a minute before');
  await bo.press('#tournament-bar-berserk');
  await waitInPage(bo.page, (s) => document.querySelector(`.live-clock[data-side="${s}"]`).textContent === '0:30', boSeat, { timeout: 5000 });
  const live = await get(`/live/${berserkGame}`);
  const ms = live.live.clock[`${boSeat}_ms`];
  assert(ms <= 30000 && ms > 25000, `Bo’s clock: ${ms} ms`);
  equal(live.live.clock[`${other(boSeat)}_ms`], 60000, 'his opponent keeps a minute');
  await bo.page.waitForSelector('#tournament-bar-berserk', { state: 'detached' });
  await fits(bo, 'in the berserked game');
});

// Each page plays the arena's games as they come, each opened by itself: whoever is to move
// moves until the game's winner has moved — Bo in the berserked game, else South — and then
// the loser resigns. Until the arena finishes.
async function playArena(p) {
  let played = 0;
  for (;;) {
    const v = await apiAs(p.page, 'GET', `/tournaments/${arena}`);
    if (v.state === 'finished') return played;
    const gid = v.me && v.me.game_id;
    if (gid) {
      const seat = v.me.seat;
      // The page opens it by itself — unless it ended as this was read, and the page is
      // already in the next.
      const where = await until(`game ${gid} on ${p.label}’s page`, async () => {
        const shown = await p.page.evaluate(([g, s]) => document.body.dataset.live === String(g)
          && document.body.dataset.liveConnected === '1' && document.body.dataset.liveSeat === s, [gid, seat]);
        return shown ? 'shown' : (await get(`/live/${gid}`)).live.result && 'over';
      });
      if (where === 'over') { await sleep(150); continue; }
      const live = await get(`/live/${gid}`);
      const winner = gid === berserkGame ? boSeat : 'south';
      const moved = live.game.history.some((h) => h.side === winner);
      if (!live.live.result && !moved && live.game.state.to_move === seat) await sow(p, gid);
      else if (!live.live.result && moved && seat !== winner) { await resign(p, gid); played += 1; }
    }
    await sleep(150);
  }
}

await check('every arena game is played to its end through the pages, and the arena finishes', async () => {
  const played = await Promise.all(everyone.map(playArena));
  assert(played.reduce((a, b) => a + b, 0) >= 2, `games resigned: ${played}`);
  const view = await get(`/tournaments/${arena}`);
  const won = view.boards.filter((b) => b.result === 'south' || b.result === 'north');
  assert(won.length >= 2, `games won: ${won.length}`);
  const first = view.boards.find((b) => b.game_id === berserkGame);
  equal([first.result, first[`berserk_${boSeat}`]], [boSeat, true], 'Bo won the game he berserked');
  const boLine = view.standings.find((s) => s.name === bo.name);
  assert(boLine.points >= 2 && boLine.sheet.length >= 1, `Bo’s line: ${JSON.stringify(boLine)}`);
});

await check('the arena’s page: finished, points, sheets and the berserk mark as the server counts them; in Spanish too', async () => {
  const view = await get(`/tournaments/${arena}`);
  await di.page.click('#tournament-bar-back');
  await di.page.waitForSelector('#tournament-table');
  await waitInPage(di.page, () => /^Finished /.test(document.querySelector('#tournament-when').textContent));
  const rows = await di.page.$$eval('#tournament-table tbody tr', (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent.trim())));
  equal(rows.map((r) => [r[1].replace(/ 🔥$/, ''), r[2].replace(/ 🔥$/, ''), r[3], r[5]]),
    view.standings.map((s) => [s.name, String(s.points), s.sheet.join(' '), String(s.games)]), 'the standings');
  const mark = di.page.locator(`#tournament-boards li[data-game="${berserkGame}"] .berserk-mark`);
  equal(await mark.count(), 1, 'Bo’s berserk is marked');
  equal(await di.page.locator('#tournament-boards li[data-game]').count(), view.boards.length, 'every game listed');
  await cy.page.click('#tournament-bar-back');
  await cy.page.waitForSelector('#tournament-table');
  await waitInPage(cy.page, () => /^Terminó el /.test(document.querySelector('#tournament-when').textContent));
  equal(await cy.page.$$eval('#tournament-table th', (ths) => ths.map((th) => th.textContent)),
    ['#', 'Jugador', 'Puntos', 'Hoja', 'Rend.', 'Partidas'], 'the columns in Spanish');
  equal(await cy.page.textContent('#tournament-boards h3'), 'Partidas', 'the games, in Spanish');
  await bo.press('#tournament-bar-back');
  await bo.page.waitForSelector('#tournament-table');
  await fits(bo, 'on the finished arena');
});

await check('no page error', async () => {
  equal(errors, [], 'page errors');
});

await browser.close();
finish();
