// Browser tests of the school (docs/web.md, "The school"), on a desktop and a 390 px phone,
// in English and Spanish: the explorer opened from the header at the start shows, for each
// game solved, the opening values docs/solve.md states (read here from the file) marked
// proven; a move pressed goes one deeper and back; a practice position (inside the server's
// tables, Hoyito II to 8 seeds: scripts/browser-test.sh) is converted against the tables'
// defence, one move giving seeds away when that still wins, and the page tells the seeds
// given up. Run by scripts/browser-test.sh (SOW_URL).
import { readFileSync } from 'node:fs';
import { BASE, api, assert, check, equal, finish, launch } from './common.mjs';

const browser = await launch();
const errors = [];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// docs/solve.md's table of every option set: the default rows of each game, A … F.
const solveMd = readFileSync(new URL('../../docs/solve.md', import.meta.url), 'utf8');
function documented(words) {
  const row = solveMd.split('\n').find((l) => l.startsWith('| ') && l.includes(words));
  assert(row, `docs/solve.md has no row ${words}`);
  return row.split('|')[3].split(',').map((v) => Number(v.trim().replace('−', '-')));
}
const ayoayo = (() => {
  const at = solveMd.indexOf('valued every opening move exactly');
  const text = solveMd.slice(solveMd.indexOf('): A ', at) + 3);
  return text.split(',').slice(0, 6).map((part) => Number(part.trim().split(/\s+/)[1].replace('−', '-').replace('+', '')));
})();
const OPENINGS = {
  'hoyito-ii': documented('Hoyito II, `casa-rows=any`'),
  'hoyito-iii': documented('Hoyito III, `final-four=capturer`'),
  ayoayo,
};

async function page(kind, lang) {
  const phone = kind === 'phone';
  const context = await browser.newContext({
    locale: lang === 'es' ? 'es-ES' : 'en-US',
    viewport: phone ? { width: 390, height: 844 } : { width: 1280, height: 900 },
    ...(phone ? { deviceScaleFactor: 2, isMobile: true, hasTouch: true } : {}),
  });
  await context.addInitScript((l) => { localStorage.setItem('sowing.lang', l); localStorage.setItem('sowing.speed', '10'); }, lang);
  const p = await context.newPage();
  p.setDefaultTimeout(60000);
  p.on('pageerror', (e) => errors.push(`${kind} ${lang}: ${e.message}`));
  await p.goto(`${BASE}/`);
  await p.waitForSelector('#new-game[open]');
  await p.click('#new-game button[value="cancel"]');
  return p;
}

// The explorer's rows: [move, status, value].
const rows = (p) => p.$$eval('#explorer tbody tr', (trs) => trs.map((tr) => [tr.dataset.move, tr.dataset.status, Number(tr.dataset.value)]));
const ready = (p) => p.waitForSelector('#explorer[data-ready="1"]');

async function fits(p) {
  const width = await p.evaluate(() => document.documentElement.scrollWidth);
  const screen = p.viewportSize().width;
  assert(width <= screen, `the page is ${width} px wide on a ${screen} px screen`);
  const box = await p.$eval('#school', (d) => { const r = d.getBoundingClientRect(); return [r.left, r.right]; });
  assert(box[0] >= 0 && box[1] <= screen, `the school's dialog spans ${box} on a ${screen} px screen`);
}

const WORDS = {
  en: { proven: 'proven', converted: 'Converted', given: 'given up' },
  es: { proven: 'probado', converted: 'Convertido', given: 'regalad' },
};

for (const lang of ['en', 'es']) {
  for (const kind of ['desktop', 'phone']) {
    await check(`${kind}, ${lang}: the explorer at each start shows the proven values of docs/solve.md`, async () => {
      const p = await page(kind, lang);
      await p.click('#btn-school');
      await p.waitForSelector('#school[open]');
      for (const game of ['hoyito-ii', 'hoyito-iii', 'ayoayo']) {
        await p.selectOption('#explorer .explorer-game', game);
        await p.waitForFunction((g) => document.querySelector('#explorer').dataset.ready === '1'
          && document.querySelector('#explorer .explorer-board .small-pit') !== null
          && document.querySelectorAll('#explorer tbody tr').length === 6
          && document.querySelector('#explorer .explorer-game').value === g, game);
        const shown = await rows(p);
        equal(shown, ['A', 'B', 'C', 'D', 'E', 'F'].map((m, i) => [m, 'proven', OPENINGS[game][i]]), `${game}'s openings`);
        const text = await p.$eval('#explorer tbody tr td:nth-child(2)', (td) => td.textContent);
        assert(text.includes(WORDS[lang].proven), `the value says proven in ${lang}: ${text}`);
      }
      // A move pressed goes one deeper, and back.
      await p.click('#explorer tbody tr[data-move="C"] button');
      await p.waitForFunction(() => document.querySelector('#explorer').dataset.ready === '1'
        && document.querySelector('#explorer .explorer-line').textContent.includes('C'));
      equal((await rows(p)).length > 0, true, 'moves after C');
      await p.click('#explorer .explorer-back');
      await p.waitForFunction(() => document.querySelector('#explorer').dataset.ready === '1'
        && document.querySelectorAll('#explorer tbody tr[data-status="proven"]').length === 6);
      await fits(p);
      await p.context().close();
    });

    await check(`${kind}, ${lang}: a practice position is converted against perfect defence, the seeds given up told`, async () => {
      const p = await page(kind, lang);
      await p.click('#btn-school');
      await p.click('#school-tab-practice');
      // The tab opens a position of its own; then an easy one is asked for.
      await p.waitForFunction(() => document.querySelector('#practice').dataset.ready === '1');
      await p.selectOption('#practice .practice-difficulty', 'easy');
      await p.click('#practice .practice-new');
      await p.waitForFunction(() => document.querySelector('#practice').dataset.difficulty === 'easy');
      let given = 0;
      for (let step = 0; step < 60; step++) {
        await p.waitForFunction(() => document.querySelector('#practice').dataset.ready === '1'
          || document.querySelector('#practice-error').textContent);
        const failed = await p.$eval('#practice-error', (e) => e.textContent);
        assert(!failed, `the practice failed: ${failed}`);
        const state = await p.$eval('#practice', (b) => ({ ...b.dataset }));
        if (state.result) break;
        // The tables' values of the player's moves, asked as anyone may.
        const query = new URLSearchParams({ start: state.start });
        if (state.line) query.set('moves', state.line);
        const e = await api('GET', `/explorer?${query}`);
        const c = e.board.captured;
        const margin = e.board.to_move === 'south' ? c[0] - c[1] : c[1] - c[0];
        const best = e.moves.find((m) => m.value === e.value);
        // Once, a move that gives seeds away but still wins.
        const worse = given === 0 && e.moves.find((m) => m.value < e.value && margin + m.value > 0);
        const move = worse || best;
        if (worse) given = e.value - worse.value;
        const pit = `#practice .practice-board .small-pit.legal[data-name="${move.move}"]`;
        if (!await p.$(pit)) {
          const shown = await p.$eval('#practice', (b) => [b.dataset.start, b.dataset.line, b.querySelector('.practice-board').innerHTML]);
          throw new Error(`no legal pit ${move.move} on the page: ${JSON.stringify(shown)}; asked: ${JSON.stringify(e)}`);
        }
        await p.click(pit);
        // Each step costs this address about three requests of the acting rate (this test's
        // and the page's explorer answers): paced under its refill of 5 a second, as a person
        // is, or a fast machine drains the burst and is told to wait.
        await sleep(700);
      }
      const result = await p.$eval('#practice', (b) => b.dataset.result);
      equal(result, 'converted', 'the practice ends converted');
      const status = await p.$eval('#practice .practice-status', (s) => s.textContent);
      assert(status.includes(WORDS[lang].converted), `the page says converted in ${lang}: ${status}`);
      const lost = await p.$$eval('#practice .practice-moves li', (lis) => lis.map((li) => Number(li.dataset.lost)));
      equal(lost.reduce((a, b) => a + b, 0), given, 'the seeds given up, move by move');
      if (given > 0) {
        const told = await p.$eval('#practice .practice-moves li:not([data-lost="0"])', (li) => li.textContent);
        assert(told.includes(WORDS[lang].given), `the move that gave seeds away says so: ${told}`);
      }
      await fits(p);
      await p.context().close();
    });
  }
}

await check('the explorer opens from the board at the position shown, one move back too', async () => {
  const record = '[Game "hoyito-ii"]\n\nC d a *';
  const { id } = await api('POST', '/records', { record, south: 'human', north: 'human' });
  const p = await page('desktop', 'en');
  await p.goto(`${BASE}/#game=${id}`);
  await p.waitForFunction((g) => Number(document.body.dataset.game) === g && document.body.dataset.busy === '0', id);
  await p.click('#btn-explore');
  await p.waitForFunction(() => document.querySelector('#explorer').dataset.ready === '1'
    && document.querySelector('#explorer .explorer-line').textContent.includes('C d a'));
  await p.click('#explorer .explorer-back');
  await p.waitForFunction(() => document.querySelector('#explorer').dataset.ready === '1'
    && /C d$/.test(document.querySelector('#explorer .explorer-line').textContent));
  await p.context().close();
});

await check('a position past the tables is solved in the background from the explorer, its progress shown', async () => {
  // Twelve seeds, past the tables to 8: estimated until solved (a second or two).
  const start = 'hoyito-ii 1,2,1,0,0,0/1,0,3,0,2,2 18-18 S -';
  const { id } = await api('POST', '/records', { record: `[Game "hoyito-ii"]\n[Start "${start}"]\n\n*`, south: 'human', north: 'human' });
  const p = await page('phone', 'es');
  await p.goto(`${BASE}/#game=${id}`);
  await p.waitForFunction((g) => Number(document.body.dataset.game) === g && document.body.dataset.busy === '0', id);
  await p.click('#btn-explore');
  await p.waitForFunction(() => document.querySelector('#explorer').dataset.ready === '1'
    && document.querySelectorAll('#explorer tbody tr').length > 0);
  const before = await rows(p);
  assert(before.some(([, status]) => status !== 'proven'), `something to solve: ${JSON.stringify(before)}`);
  const text = await p.$eval('#explorer tbody tr[data-status="estimated"] td:nth-child(2)', (td) => td.textContent);
  assert(/estimado \(profundidad \d+\)/.test(text), `an estimate with its depth, in Spanish: ${text}`);
  // Every progress line the page writes, kept by the test as it is written.
  await p.evaluate(() => {
    const progress = document.querySelector('#explorer .explorer-progress');
    progress.dataset.seen = '';
    new MutationObserver(() => { if (progress.textContent) progress.dataset.seen += progress.textContent + '\n'; })
      .observe(progress, { childList: true, characterData: true, subtree: true });
  });
  await p.click('#explorer .explorer-solve');
  await p.waitForFunction(() => document.querySelectorAll('#explorer tbody tr').length > 0
    && [...document.querySelectorAll('#explorer tbody tr')].every((tr) => tr.dataset.status === 'proven'), null, { timeout: 60000 });
  const seen = await p.$eval('#explorer .explorer-progress', (e) => e.dataset.seen);
  assert(/Resolviendo \((en espera|en curso)\): [\d.,\s]+ posiciones examinadas, como mucho 30 s/.test(seen), `the progress shown: ${seen}`);
  const after = await p.$$eval('#explorer tbody td:nth-child(2)', (tds) => tds.map((td) => td.textContent));
  assert(after.some((t) => t.includes('resuelto en este servidor')), `solved here: ${after}`);
  // The solve's values are the tables' of a larger build: the server's own answer to anyone.
  const e = await api('GET', `/explorer?${new URLSearchParams({ start })}`);
  equal((await rows(p)).map(([m, , v]) => [m, v]), e.moves.map((m) => [m.move, m.value]), 'the page shows the server\'s values');
  await fits(p);
  await p.context().close();
});

await check('the review opens the explorer at the turn reviewed, and the practice of its endgame', async () => {
  // analysis.mjs's game, inside the tables: South's E gives up 16 seeds, North wins 28–20.
  const start = 'hoyito-ii 0,2,0,0,1,1/3,0,0,0,0,1 20-20 S -';
  const record = `[Game "hoyito-ii"]\n[Start "${start}"]\n\nE b B a C c A b B c A e 0-1`;
  const { id } = await api('POST', '/records', { record, south: 'human', north: 'human' });
  await api('POST', `/games/${id}/analysis`);
  const p = await page('desktop', 'en');
  await p.goto(`${BASE}/#game=${id}&analysis`);
  await p.waitForFunction(() => document.body.dataset.analysis === 'done' && document.querySelector('#review .review-graph'));
  await p.click('#review .hit[data-point="1"]');
  const ply = await p.evaluate(async () => (await import('/state.js')).S.viewPly);
  await p.click('#review-explore');
  await p.waitForFunction(() => document.querySelector('#explorer').dataset.ready === '1' && !document.querySelector('#explorer').hidden);
  const line = await p.$eval('#explorer .explorer-line', (l) => l.textContent);
  const expected = ply === 0 ? 'At the start.' : `Line: ${'E b B a C c A b B c A e'.split(' ').slice(0, ply).join(' ')}`;
  equal(line, expected, `the explorer at ply ${ply}`);
  // The position before E: E's row says it gives up 16 against B's and F's.
  const values = Object.fromEntries((await rows(p)).map(([m, , v]) => [m, v]));
  if (ply === 0) equal([values.B - values.E, values.F - values.E], [16, 16], 'E gives up 16');
  await p.click('#school-close');
  await p.click('#review-practise');
  await p.waitForFunction(() => document.querySelector('#practice').dataset.difficulty === 'game'
    && document.querySelector('#practice').dataset.ready === '1' && !document.querySelector('#practice').hidden);
  equal(await p.$eval('#practice', (b) => b.dataset.start), start, 'the practice starts at the game\'s first won position');
  await p.context().close();
});

await check('no errors in the pages', async () => equal(errors, [], 'errors'));
await browser.close();
finish();
