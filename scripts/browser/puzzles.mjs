// Browser tests of the puzzles (docs/puzzles.md, docs/web.md "Puzzles"), on a desktop and
// a 390 px phone, in English and Spanish: *Puzzles* in the header opens a puzzle near the
// player's rating; three are solved (each move of the line pressed, the replies played by
// the page), one is missed (told at once, the right move shown and played), the daily
// puzzle is the server's, and a streak is run until its first miss. The browser's own
// Glicko-2 (glicko2.js) is checked against Glickman's worked example and against the
// server's rating of the same result. The server mines its puzzles from the tables
// scripts/browser-test.sh gives it (Hoyito II to 8 seeds). Run by scripts/browser-test.sh
// (SOW_URL).
import { BASE, api, assert, check, equal, finish, launch } from './common.mjs';

const browser = await launch();
const errors = [];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// The server mines its first set in the background at start: wait for it.
for (let i = 0; ; i++) {
  const r = await fetch(`${BASE}/api/puzzles/next?game=hoyito-ii`);
  if (r.ok) break;
  if (i > 600) throw new Error('no puzzle mined after 60 s');
  await sleep(100);
}

async function page(kind, lang) {
  const phone = kind === 'phone';
  const context = await browser.newContext({
    locale: lang === 'es' ? 'es-ES' : 'en-US',
    viewport: phone ? { width: 390, height: 844 } : { width: 1280, height: 900 },
    ...(phone ? { deviceScaleFactor: 2, isMobile: true, hasTouch: true } : {}),
  });
  await context.addInitScript((l) => { localStorage.setItem('sowing.lang', l); }, lang);
  const p = await context.newPage();
  p.setDefaultTimeout(30000);
  p.on('pageerror', (e) => errors.push(`${kind} ${lang}: ${e.message}`));
  await p.goto(`${BASE}/`);
  await p.waitForSelector('#new-game[open]');
  await p.click('#new-game button[value="cancel"]');
  return p;
}

// The dialog settled on a puzzle: its id.
async function shown(p, not) {
  await p.waitForFunction((old) => {
    const d = document.querySelector('#puzzles');
    return d && d.open && d.dataset.ready === '1' && d.dataset.puzzle && d.dataset.puzzle !== old
      && d.dataset.at === '0' && d.dataset.result === '';
  }, not || '');
  return Number(await p.$eval('#puzzles', (d) => d.dataset.puzzle));
}

const settledAt = (p, at) => p.waitForFunction((n) => {
  const d = document.querySelector('#puzzles');
  return d.dataset.at === String(n) && d.dataset.ready === '1';
}, at);

async function fits(p) {
  const screen = p.viewportSize().width;
  const width = await p.evaluate(() => document.documentElement.scrollWidth);
  assert(width <= screen, `the page is ${width} px wide on a ${screen} px screen`);
  const box = await p.$eval('#puzzles', (d) => { const r = d.getBoundingClientRect(); return [r.left, r.right]; });
  assert(box[0] >= 0 && box[1] <= screen, `the puzzles' dialog spans ${box} on a ${screen} px screen`);
  const pits = await p.$$eval('#puzzle-board .small-pit', (bs) => bs.map((b) => { const r = b.getBoundingClientRect(); return [r.left, r.right, r.width]; }));
  assert(pits.length === 12 && pits.every(([l, r, w]) => l >= 0 && r <= screen && w >= 24), `pits off the screen or too small: ${JSON.stringify(pits)}`);
}

// Plays the whole line of puzzle `id`: presses each of the player's moves, waits for the
// replies; the page says it is solved.
async function solve(p, id, words) {
  const { puzzle } = await api('GET', `/puzzles/${id}`);
  for (let i = 0; i < puzzle.moves.length; i++) {
    if (puzzle.states[i].to_move !== puzzle.mover) continue;
    await settledAt(p, i);
    await p.click(`#puzzle-board .small-pit[data-name="${puzzle.moves[i]}"]`);
    if (i + 1 < puzzle.moves.length) {
      // Right is told at once, before the replies are played.
      await p.waitForFunction((w) => document.querySelector('#puzzle-status').textContent.includes(w), words.right);
    }
  }
  await p.waitForFunction(() => document.querySelector('#puzzles').dataset.result === 'solved');
  return puzzle;
}

// Presses a legal move that is not the right one: the page says wrong at once, naming the
// right move, shows it and plays it.
async function miss(p, id, words) {
  const { puzzle } = await api('GET', `/puzzles/${id}`);
  const wrong = puzzle.states[0].legal.find((m) => m !== puzzle.moves[0]);
  await p.click(`#puzzle-board .small-pit[data-name="${wrong}"]`);
  const told = await p.$eval('#puzzle-status', (s) => s.textContent);
  assert(told.includes(words.wrong) && told.includes(puzzle.moves[0]), `a miss is told at once with the right move: ${told}`);
  await p.waitForSelector(`#puzzle-board .small-pit.right-move[data-name="${puzzle.moves[0]}"]`);
  await p.waitForFunction(() => document.querySelector('#puzzles').dataset.result === 'missed');
  await settledAt(p, 1);
  const pits = await p.$$eval('#puzzle-board .small-pit', (bs) => bs.map((b) => Number(b.textContent)));
  const after = puzzle.states[1].pits;
  const drawn = [...after.slice(6, 12).reverse(), ...after.slice(0, 6)];
  equal(pits, drawn, 'the board shows the right move played');
  return puzzle;
}

const WORDS = {
  en: { nav: 'Puzzles', right: 'Right', wrong: 'Wrong', solved: 'Solved', over: 'streak ends' },
  es: { nav: 'Problemas', right: 'Correcto', wrong: 'Incorrecto', solved: 'Resuelto', over: 'racha termina' },
};

await check('glicko2.js gives Glickman\'s worked example', async () => {
  const p = await page('desktop', 'en');
  const r = await p.evaluate(async () => {
    const { ratePeriod } = await import('/glicko2.js');
    return ratePeriod({ rating: 1500, deviation: 200, volatility: 0.06 }, [
      [{ rating: 1400, deviation: 30 }, 1], [{ rating: 1550, deviation: 100 }, 0], [{ rating: 1700, deviation: 300 }, 0]]);
  });
  assert(Math.abs(r.rating - 1464.06) < 0.01 && Math.abs(r.deviation - 151.52) < 0.01 && Math.abs(r.volatility - 0.05999) < 0.00001,
    `1464.06, 151.52, 0.05999 expected: ${JSON.stringify(r)}`);
  await p.close();
});

for (const lang of ['en', 'es']) {
  for (const kind of ['desktop', 'phone']) {
    const words = WORDS[lang];
    await check(`${kind}, ${lang}: three puzzles solved, one missed, rated here as on the server`, async () => {
      const p = await page(kind, lang);
      const label = await p.$eval('#btn-puzzles', (b) => b.textContent);
      equal(label, words.nav, 'the header names the puzzles');
      await p.click('#btn-puzzles');
      let id = await shown(p);
      if (kind === 'phone') await fits(p);
      const rating = () => p.evaluate(() => JSON.parse(localStorage.getItem('sowing.puzzles.rating.hoyito-ii') || 'null'));
      for (let n = 0; n < 3; n++) {
        const before = await rating();
        await solve(p, id, words);
        const text = await p.$eval('#puzzle-status', (s) => s.textContent);
        assert(text.includes(words.solved), `solved is told: ${text}`);
        await p.waitForFunction((b) => JSON.stringify(JSON.parse(localStorage.getItem('sowing.puzzles.rating.hoyito-ii') || 'null')) !== b, JSON.stringify(before));
        const after = await rating();
        assert(after.rating > (before || { rating: 1500 }).rating, `a solve raises the rating: ${JSON.stringify([before, after])}`);
        await p.click('#puzzle-next');
        id = await shown(p, String(id));
      }
      // The miss: the browser's rating and the puzzle's, as the server rates the same result.
      const player = await rating();
      const { puzzle: before } = await api('GET', `/puzzles/${id}`);
      await miss(p, id, words);
      await p.waitForFunction((b) => JSON.parse(localStorage.getItem('sowing.puzzles.rating.hoyito-ii')).rating !== b, player.rating);
      const mine = await rating();
      const { puzzle: after } = await api('GET', `/puzzles/${id}`);
      const expected = await p.evaluate(async ([pl, pz]) => {
        const { rate } = await import('/glicko2.js');
        return { mine: rate(pl, pz, 0), puzzle: rate(pz, pl, 1) };
      }, [player, before.rating]);
      assert(Math.abs(expected.mine.rating - mine.rating) < 1e-6 && mine.rating < player.rating, `the miss lowers the browser's rating by Glicko-2: ${JSON.stringify([player, mine, expected.mine])}`);
      assert(Math.abs(expected.puzzle.rating - after.rating.rating) < 1e-6 && Math.abs(expected.puzzle.deviation - after.rating.deviation) < 1e-6,
        `the server rates the puzzle as glicko2.js does: ${JSON.stringify([after.rating, expected.puzzle])}`);
      if (kind === 'phone') await fits(p);
      // The daily puzzle is the server's, the same for everyone.
      await p.click('#puzzle-daily');
      const daily = await shown(p, String(id));
      const { puzzle: today, daily: day } = await api('GET', '/puzzles/daily?game=hoyito-ii');
      equal(daily, today.id, 'the daily puzzle');
      const info = await p.$eval('#puzzle-info', (e) => e.textContent);
      assert(info.includes(day), `the daily puzzle names its day: ${info}`);
      await p.close();
    });

    await check(`${kind}, ${lang}: a streak gets harder until the first miss`, async () => {
      const p = await page(kind, lang);
      const asked = [];
      p.on('request', (r) => {
        const m = /\/api\/puzzles\/next\?.*rating=(\d+)/.exec(r.url());
        if (m) asked.push(Number(m[1]));
      });
      await p.click('#btn-puzzles');
      await shown(p);
      asked.length = 0;
      await p.click('#puzzle-streak');
      let id = await shown(p);
      for (let n = 1; n <= 2; n++) {
        await solve(p, id, words);
        equal(await p.$eval('#puzzles', (d) => d.dataset.streak), String(n), 'the streak counts');
        await p.click('#puzzle-next');
        id = await shown(p, String(id));
      }
      await miss(p, id, words);
      const text = await p.$eval('#puzzle-status', (s) => s.textContent);
      assert(text.includes(words.over) && text.includes('2'), `the streak ends at 2: ${text}`);
      equal(await p.evaluate(() => localStorage.getItem('sowing.puzzles.best-streak')), '2', 'the best streak kept');
      equal(asked, [1000, 1150, 1300], 'each puzzle of the streak is asked for harder');
      if (kind === 'phone') await fits(p);
      await p.close();
    });
  }
}

await check('desktop, en: a signed-in player\'s puzzle rating is the server\'s', async () => {
  const p = await page('desktop', 'en');
  const name = `Puz${Date.now() % 1000000}`;
  await p.click('#btn-account');
  await p.waitForSelector('#account[open]');
  await p.fill('#signup-name', name);
  await p.fill('#signup-password', 'correct horse battery');
  await p.click('#signup-go');
  await p.waitForFunction((n) => document.body.dataset.account === n, name);
  await p.keyboard.press('Escape');
  const asked = [];
  p.on('request', (r) => { if (r.url().includes('/api/puzzles/next')) asked.push(r.url()); });
  await p.click('#btn-puzzles');
  const id = await shown(p);
  assert(!asked[0].includes('rating='), `a signed-in page asks by the server's rating: ${asked[0]}`);
  await solve(p, id, WORDS.en);
  await p.waitForFunction(() => !document.querySelector('#puzzle-rating').textContent.includes('1500 '));
  const shownRating = await p.$eval('#puzzle-rating', (e) => e.textContent);
  const mine = await p.evaluate(async () => (await (await fetch('/api/puzzles/next?game=hoyito-ii')).json()).player);
  assert(shownRating.replace(/[^0-9]/g, '').startsWith(String(Math.round(mine.rating))) && mine.rating > 1500, `the server's rating shown: ${shownRating} ${JSON.stringify(mine)}`);
  equal(await p.evaluate(() => localStorage.getItem('sowing.puzzles.rating.hoyito-ii')), null, 'the browser keeps no rating of its own for an account');
  await p.close();
});

await check('no page error', async () => equal(errors, [], 'page errors'));
await browser.close();
finish();
