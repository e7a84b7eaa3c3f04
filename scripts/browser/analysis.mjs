// Browser tests of the analysis after the game (docs/web.md, "Analysis"): a short game set
// up inside the server's endgame tables (Hoyito II to 8 seeds, scripts/browser-test.sh) is
// finished on the page, reviewed from its summary — progress, then the evaluation graph,
// the blunder marked (proven, with its exact loss) in the graph and the moves list, the
// better move drawn on the board, each player's accuracy — then opened from its link by
// someone else, from Saved games, and on a 390 px phone. SHOTS=DIR also saves screenshots
// of the review (desktop and phone) there. Run by scripts/browser-test.sh (SOW_URL).
import { BASE, api, assert, check, equal, finish, launch, waitInPage } from './common.mjs';

const browser = await launch();
const errors = [];

// South's E gives up 16 seeds against perfect play (B and F win by 8, E loses by 8); then
// both sides play perfectly to the end, which North's e reaches (North wins 28–20).
const START = 'hoyito-ii 0,2,0,0,1,1/3,0,0,0,0,1 20-20 S -';
const MOVES = 'E b B a C c A b B c A';
const LAST = 'e';

async function page(options = {}) {
  const context = await browser.newContext(options);
  await context.addInitScript(() => localStorage.setItem('sowing.speed', '10'));
  const p = await context.newPage();
  p.setDefaultTimeout(90000);
  p.on('pageerror', (e) => errors.push(e.message));
  return p;
}
const idle = (p) => p.waitForFunction(() => document.body.dataset.busy === '0' && document.body.dataset.animating === '0');
const reviewed = (p) => p.waitForFunction(() => document.body.dataset.analysis === 'done' && document.querySelector('#review .review-graph'));

const record = `[Game "hoyito-ii"]\n[Start "${START}"]\n\n${MOVES} *`;
const { id } = await api('POST', '/records', { record, south: 'human', north: 'human' });
const shots = process.env.SHOTS;

await check('a game finished on the page is reviewed from its summary: progress, graph, the blunder proven', async () => {
  const p = await page({ viewport: { width: 1280, height: 1000 } });
  await p.goto(`${BASE}/#game=${id}`);
  await p.waitForFunction((g) => Number(document.body.dataset.game) === g, id);
  await idle(p);
  await p.click(`#board .pit.legal[data-name="${LAST}"]`);
  await p.waitForSelector('#summary:not([hidden]) #btn-analysis');
  await idle(p);
  await p.click('#btn-analysis');
  // While the server works: a progress bar (or it was quick enough to be done at once).
  await p.waitForFunction(() => document.querySelector('#review progress') || document.body.dataset.analysis === 'done');
  await reviewed(p);
  assert(/[#&]analysis\b/.test(await p.evaluate(() => location.hash)), 'the address carries the review');
  // The graph: the start and one point per turn, the blunder marked.
  const graph = await p.evaluate(() => ({
    hits: document.querySelectorAll('#review .hit').length,
    blunders: document.querySelectorAll('#review .pt.blunder').length,
    line: document.querySelector('#review .value').getAttribute('d').split(/[ML]/).filter(Boolean).length,
  }));
  equal(graph.hits, 13, 'points: the start and 12 turns');
  equal(graph.line, 13, 'the line goes through every point');
  assert(graph.blunders >= 1, `a blunder marked in the graph (${graph.blunders})`);
  // The moves list: move 1 (E) marked as a blunder.
  const first = await p.$eval('#moves button[data-ply="1"]', (b) => ({ cls: b.dataset.class, text: b.textContent, title: b.title }));
  equal(first.cls, 'blunder', 'move 1 is classed');
  assert(first.text.includes('??'), `move 1 carries its mark: ${first.text}`);
  assert(/16 seeds against perfect play \(proven\)/.test(first.title), `its exact loss: ${first.title}`);
  // Each player's accuracy: South's one blunder of 16 seeds among 6 moves.
  const server = await api('GET', `/games/${id}/analysis`);
  const shown = await p.$$eval('#review .review-player .accuracy', (a) => a.map((e) => Number(e.dataset.accuracy)));
  equal(shown, [server.analysis.players.south.accuracy, server.analysis.players.north.accuracy], 'accuracies');
  assert(shown[0] < 100 && shown[1] === 100, `South erred, North played perfectly: ${shown}`);
  // Clicking the first turn's point: the position before E, E ringed red, a better move green.
  await p.click('#review .hit[data-point="1"]');
  await p.waitForFunction(() => document.querySelector('#board .pit.better') && document.querySelector('#board .pit.worse'));
  const board = await p.evaluate(async () => ({
    better: document.querySelector('#board .pit.better').dataset.name,
    worse: document.querySelector('#board .pit.worse').dataset.name,
    ply: (await import('/state.js')).S.viewPly,
    said: document.querySelector('#review .review-turn').textContent,
  }));
  equal(board.worse, 'E', 'the move played');
  assert(['B', 'F'].includes(board.better), `a better move: ${board.better}`);
  equal(board.ply, 0, 'the board shows the position before the move');
  assert(/blunder/.test(board.said) && /proven/.test(board.said), board.said);
  // Hovering another point shows that position.
  await p.hover('#review .hit[data-point="6"]');
  await waitInPage(p, async () => (await import('/state.js')).S.viewPly !== 0, undefined, { timeout: 90000 });
  if (shots) {
    await p.click('#review .hit[data-point="1"]');
    await p.screenshot({ path: `${shots}/analysis-desktop.png`, fullPage: true });
  }
  await p.context().close();
});

await check('the game\'s link opens the review for someone else, and Saved games opens it too', async () => {
  const p = await page({ viewport: { width: 1280, height: 900 } });
  await p.addInitScript(() => localStorage.setItem('sowing.player', 'ffffffffffffffffffffffffffffffff'));
  await p.goto(`${BASE}/#game=${id}&analysis`);
  await reviewed(p);
  equal(await p.$eval('#moves button[data-ply="1"]', (b) => b.dataset.class), 'blunder', 'marked for a watcher');
  await p.context().close();
  const q = await page({ viewport: { width: 1280, height: 900 } });
  await q.goto(`${BASE}/`);
  await q.waitForSelector('#new-game[open]');
  await q.click('#new-game button[value="cancel"]');
  await q.click('#btn-saved');
  await q.click(`#saved-body tr[data-game="${id}"] button.analyse`);
  await reviewed(q);
  equal(await q.evaluate(() => Number(document.body.dataset.game)), id, 'the game opened');
  await q.context().close();
});

await check('the review in Spanish: its words from the catalogue, numbers as the reader\'s locale writes them', async () => {
  const p = await page({ viewport: { width: 1280, height: 1000 }, locale: 'es-DO' });
  await p.addInitScript(() => localStorage.setItem('sowing.lang', 'es'));
  await p.goto(`${BASE}/#game=${id}&analysis`);
  await reviewed(p);
  const words = await p.evaluate(async () => {
    const { I18N } = await import('/i18n.js');
    return {
      title: document.querySelector('#review-title').textContent,
      legend: document.querySelector('#review .review-legend').textContent,
      accuracy: document.querySelector('#review .review-player.south .accuracy').textContent,
      // As the reader's locale writes it (es-DO writes 81.3, es-ES 81,3).
      expected: `${new Intl.NumberFormat(I18N.locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 })
        .format(Number(document.querySelector('#review .review-player.south .accuracy').dataset.accuracy))} %`,
      locale: I18N.locale,
      tooltip: document.querySelector('#moves button[data-ply="1"]').title,
      engine: document.querySelector('#review .review-engine').textContent,
    };
  });
  equal(words.title, 'Análisis', 'the title');
  assert(words.legend.includes('error grave'), `the legend: ${words.legend}`);
  equal(words.locale, 'es-DO', 'the locale');
  equal(words.accuracy, words.expected, 'the accuracy as the locale writes it');
  assert(words.tooltip.includes('frente al mejor juego (demostrado)'), words.tooltip);
  // The engine in words (issue 38, part 7: it was `level:6`).
  assert(/^Analizada por la computadora, nivel \d /.test(words.engine) && !/level:/.test(words.engine), `the engine: ${words.engine}`);
  await p.click('#review .hit[data-point="1"]');
  await p.waitForFunction(() => document.querySelector('#board .pit.better'));
  if (shots) await p.screenshot({ path: `${shots}/analysis-desktop-es.png`, fullPage: true });
  await p.context().close();
});

// In both languages: the Spanish words are longer.
for (const lang of ['en', 'es']) {
  await check(`the review fits a 390 px phone (${lang})`, async () => {
    const p = await page({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
    await p.addInitScript((l) => localStorage.setItem('sowing.lang', l), lang);
    await p.goto(`${BASE}/#game=${id}&analysis`);
    await reviewed(p);
    await p.tap('#review .hit[data-point="1"]');
    await p.waitForFunction(() => document.querySelector('#board .pit.better'));
    const fit = await p.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      screen: window.innerWidth,
      graph: document.querySelector('#review .review-graph').getBoundingClientRect().right,
    }));
    assert(fit.page <= fit.screen, `the page is ${fit.page} px wide on a ${fit.screen} px screen`);
    assert(fit.graph <= fit.screen, `the graph ends at ${fit.graph} px`);
    if (shots) {
      await p.screenshot({ path: `${shots}/analysis-phone-full${lang === 'en' ? '' : '-es'}.png`, fullPage: true });
      await p.$eval('#review', (e) => e.scrollIntoView());
      await p.screenshot({ path: `${shots}/analysis-phone${lang === 'en' ? '' : '-es'}.png` });
    }
    await p.context().close();
  });
}

await check('no script errors', async () => equal(errors, [], 'page errors'));

await browser.close();
finish();
