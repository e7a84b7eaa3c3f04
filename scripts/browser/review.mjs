// Browser tests of the review on a phone (issue 40, part 4): a long game (random play, over
// a hundred turns, whose graph points are too narrow for a finger) is reviewed on a 390 px
// phone, in English and in Spanish, by the stepping bar at the foot of the screen: the next
// mistake, a turn back and on, the slider. At every step the board stays on the screen,
// above the bar, and the evaluation bar shows the reviewed position's value. A live game
// between two 32-character names is reviewed by those names on a Spanish phone. On a desktop the
// same bar steps the review under the graph. SHOTS=DIR saves the phone's review at the first
// mistake there. Run by scripts/browser-test.sh (SOW_URL).
import { BASE, api, assert, check, equal, finish, launch } from './common.mjs';

const browser = await launch();
const errors = [];
const STOPS = ['mistake', 'blunder'];

// A game of random moves (a fixed seed: the same game every run) played through the API.
async function randomGame(turnsAtLeast) {
  for (let seed = 1; seed < 50; seed += 1) {
    let x = seed;
    const next = () => { x = (x * 1103515245 + 12345) % 2147483648; return x / 2147483648; };
    let view = await api('POST', '/games', { game: 'hoyito-ii', south: 'human', north: 'human' });
    while (!view.state.over) {
      const legal = view.state.legal;
      const move = legal[Math.floor(next() * legal.length)];
      view = (await api('POST', `/games/${view.id}/moves`, { move, ply: view.ply })).game;
    }
    const turns = view.history.filter((h, i) => i === 0 || h.side !== view.history[i - 1].side).length;
    if (turns >= turnsAtLeast) return { id: view.id, turns };
  }
  throw new Error(`no random game of ${turnsAtLeast} turns`);
}

const long = await randomGame(100);
// The analysis is asked for once here: both languages' pages review it then.
await api('POST', `/games/${long.id}/analysis`);
for (let i = 0; i < 600; i += 1) {
  if ((await api('GET', `/games/${long.id}/analysis`)).status === 'done') break;
  await new Promise((r) => setTimeout(r, 500));
}
const analysis = (await api('GET', `/games/${long.id}/analysis`)).analysis;
equal(analysis.turns.length, long.turns, 'the analysis has every turn');
// The points (0 = the start, t = after turn t) whose turn has a mistake or a blunder.
const RANK = { best: 0, inaccuracy: 1, mistake: 2, blunder: 3 };
const worst = (t) => t.moves.reduce((w, m) => (RANK[m.class] > RANK[w] ? m.class : w), 'best');
const mistakes = analysis.turns.map((t, k) => (STOPS.includes(worst(t)) ? k + 1 : null)).filter((k) => k !== null);
assert(mistakes.length >= 3, `random play makes mistakes: ${mistakes.length}`);

async function page(options) {
  const context = await browser.newContext(options);
  await context.addInitScript(() => localStorage.setItem('sowing.speed', '10'));
  const p = await context.newPage();
  p.setDefaultTimeout(60000);
  p.on('pageerror', (e) => errors.push(e.message));
  return p;
}
const reviewed = (p) => p.waitForFunction(() => document.body.dataset.analysis === 'done' && document.querySelector('#review .review-graph'));

// Where the board and the stepping bar are on the screen, and what is shown.
const look = (p) => p.evaluate(async () => {
  const board = document.getElementById('board').getBoundingClientRect();
  const nav = document.querySelector('#review .review-nav').getBoundingClientRect();
  return {
    board: { top: board.top, bottom: board.bottom, height: board.height },
    nav: { top: nav.top, bottom: nav.bottom },
    screen: window.innerHeight,
    point: Number(document.body.dataset.reviewPoint),
    ply: (await import('/state.js')).S.viewPly,
    where: document.querySelector('#review .review-where').textContent,
    cls: document.querySelector('#review .review-where').dataset.class,
    bar: document.getElementById('eval-text').textContent,
    slider: Number(document.querySelector('#review .review-slider').value),
  };
});
const inView = (l, what) => {
  assert(l.board.top >= 0 && l.board.bottom <= l.nav.top + 1, `${what}: the board (${Math.round(l.board.top)}–${Math.round(l.board.bottom)} px) is above the bar (${Math.round(l.nav.top)} px)`);
  assert(l.nav.bottom <= l.screen + 1, `${what}: the bar ends at ${Math.round(l.nav.bottom)} px on a ${l.screen} px screen`);
};
// The evaluation bar's number for a point, as the analysis has it (South's side).
const barFor = (i) => {
  const v = i === 0 ? analysis.turns[0].before : analysis.turns[i - 1].after;
  const s = Math.round(v.south);
  return s === 0 ? '0' : `${s > 0 ? '+' : '−'}${Math.abs(s)}`;
};
const lastPly = (i) => (i === 0 ? 0 : analysis.turns[i - 1].moves.at(-1).ply);

for (const [locale, words] of [['en-US', { next: 'Next mistake', turn: 'Turn' }], ['es-ES', { next: 'Siguiente error', turn: 'Turno' }]]) {
  await check(`${locale}: a ${long.turns}-turn game's review steps by next mistake on a 390 px phone, the board in view`, async () => {
    const p = await page({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, locale });
    await p.goto(`${BASE}/#game=${long.id}&analysis`);
    await reviewed(p);
    equal(await p.textContent('#review .review-mistake'), words.next, 'the button in the page’s language');
    // Three mistakes in a row, by the button at the foot of the screen.
    for (const k of [0, 1, 2]) {
      await p.tap('#review .review-mistake');
      await p.waitForFunction((i) => Number(document.body.dataset.reviewPoint) === i, mistakes[k]);
      const l = await look(p);
      inView(l, `mistake ${k + 1}`);
      assert(STOPS.includes(l.cls), `the turn told is a mistake or a blunder: ${l.cls} (${l.where})`);
      assert(l.where.startsWith(`${words.turn} ${mistakes[k]} `), `the bar tells the turn: ${l.where}`);
      equal(l.slider, mistakes[k], 'the slider follows');
      // The board shows the position before the flawed move (analysis.js, showPoint).
      const turn = analysis.turns[mistakes[k] - 1];
      const flawed = turn.moves.find((m) => m.class !== 'best' && m.best);
      equal(l.ply, flawed ? flawed.ply - 1 : lastPly(mistakes[k]), 'the board shows the position of the mistake');
      if (k === 0 && process.env.SHOTS) await p.screenshot({ path: `${process.env.SHOTS}/review-phone${locale === 'es-ES' ? '-es' : ''}.png` });
    }
    // A turn on and back: the board after each whole turn, the bar with its value.
    const at = mistakes[2];
    await p.tap('#review .review-next');
    await p.waitForFunction((i) => Number(document.body.dataset.reviewPoint) === i, at + 1);
    let l = await look(p);
    inView(l, 'a turn on');
    if (!STOPS.includes(worst(analysis.turns[at])) && worst(analysis.turns[at]) === 'best') {
      equal(l.ply, lastPly(at + 1), 'the position after the turn');
      await p.waitForFunction((b) => document.getElementById('eval-text').textContent === b, barFor(at + 1));
    }
    await p.tap('#review .review-prev');
    await p.tap('#review .review-prev');
    await p.waitForFunction((i) => Number(document.body.dataset.reviewPoint) === i, at - 1);
    inView(await look(p), 'two turns back');
    // The slider, to a turn without a flaw: the board after it, the bar with its value.
    const plain = analysis.turns.findIndex((t, k) => k > 5 && worst(t) === 'best') + 1;
    assert(plain > 0, 'a turn played without a flaw');
    await p.$eval('#review .review-slider', (s, v) => { s.value = String(v); s.dispatchEvent(new Event('input', { bubbles: true })); }, plain);
    await p.waitForFunction((i) => Number(document.body.dataset.reviewPoint) === i, plain);
    l = await look(p);
    inView(l, 'the slider');
    equal(l.ply, lastPly(plain), 'the slider shows the position after its turn');
    await p.waitForFunction((b) => document.getElementById('eval-text').textContent === b, barFor(plain));
    const fit = await p.evaluate(() => document.documentElement.scrollWidth);
    assert(fit <= 390, `the page is ${fit} px wide`);
    await p.context().close();
  });
}

await check('es-ES: a resigned live game between two 32-character names is reviewed by their names on a phone', async () => {
  const names = { south: 'Guillermina Altagracia Encarnaci', north: 'Bartolomé Encarnación Rodríguezz' };
  equal([...names.south].length + [...names.north].length, 64, 'two names of the longest, 32 characters');
  const seated = await api('POST', '/live', { game: 'hoyito-ii', name: names.south, seat: 'south', lobby: true });
  const id = seated.live.id;
  const taken = await api('POST', `/live/${id}/accept`, { name: names.north });
  let game = seated.game;
  for (let ply = 0; ply < 6 && !game.state.over; ply += 1) {
    const token = game.state.to_move === 'south' ? seated.token : taken.token;
    game = (await api('POST', `/live/${id}/moves`, { move: game.state.legal[0], ply }, token)).game;
  }
  await api('POST', `/live/${id}/resign`, {}, seated.token);
  const p = await page({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, locale: 'es-ES' });
  await p.goto(`${BASE}/#game=${game.id}&analysis`);
  await reviewed(p);
  equal(await p.$$eval('#review .review-player .name', (e) => e.map((x) => x.textContent)), [names.south, names.north], 'the names, not the sides');
  await p.tap('#review .review-next');
  await p.waitForFunction(() => Number(document.body.dataset.reviewPoint) >= 0);
  const l = await look(p);
  assert(l.where.includes(names.south) || l.where.includes(names.north), `the bar names the mover: ${l.where}`);
  inView(l, 'long names');
  const fit = await p.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    cards: [...document.querySelectorAll('#review .review-player')].map((c) => c.getBoundingClientRect().right),
  }));
  assert(fit.page <= 390, `the page is ${fit.page} px wide`);
  for (const right of fit.cards) assert(right <= 390, `a player's card ends at ${right} px`);
  await p.context().close();
});

await check('desktop: the stepping bar sits under the graph and the evaluation bar follows the review', async () => {
  const p = await page({ viewport: { width: 1280, height: 1000 } });
  await p.goto(`${BASE}/#game=${long.id}&analysis`);
  await reviewed(p);
  const placed = await p.evaluate(() => ({
    position: getComputedStyle(document.querySelector('#review .review-nav')).position,
    below: document.querySelector('#review .review-nav').getBoundingClientRect().top
      > document.querySelector('#review .review-graph').getBoundingClientRect().bottom,
  }));
  equal(placed.position, 'static', 'in the review’s flow');
  assert(placed.below, 'under the graph');
  await p.click('#review .review-mistake');
  await p.waitForFunction((i) => Number(document.body.dataset.reviewPoint) === i, mistakes[0]);
  // From the start on, one turn at a time: the bar shows each turn's value.
  await p.$eval('#review .review-slider', (s) => { s.value = '0'; s.dispatchEvent(new Event('input', { bubbles: true })); });
  for (let i = 1; i <= 4; i += 1) {
    await p.click('#review .review-next');
    await p.waitForFunction((k) => Number(document.body.dataset.reviewPoint) === k, i);
    if (worst(analysis.turns[i - 1]) === 'best') {
      await p.waitForFunction((b) => document.getElementById('eval-text').textContent === b, barFor(i));
    }
  }
  await p.click('#review .review-close');
  await p.waitForSelector('#review', { state: 'hidden' });
  equal(await p.evaluate(() => document.body.dataset.reviewing), '0', 'the stepping bar goes with the review');
  await p.context().close();
});

await check('no script errors', async () => equal(errors, [], 'page errors'));

await browser.close();
finish();
