// Browser tests on a 390×844 phone (issue 23, points 4, 5 and 11): the board holds still
// while a tapped pit sows, a live game with names and clocks fits the screen, saved games fit
// their box, the perfect-play values overlap no count and are explained, and a link to a
// game that is gone says so. Run by scripts/browser-test.sh (SOW_URL).
import { BASE, api, assert, check, equal, finish, launch } from './common.mjs';

const browser = await launch();
const errors = [];
async function phone() {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true,
  });
  await context.addInitScript(() => localStorage.setItem('sowing.speed', '6'));
  const page = await context.newPage();
  page.setDefaultTimeout(60000);
  page.on('pageerror', (e) => errors.push(e.message));
  return page;
}
const idle = (p) => p.waitForFunction(() => document.body.dataset.busy === '0' && document.body.dataset.animating === '0');

for (const pits of [6, 12]) {
  await check(`2×${pits}: tapping a pit leaves the board where it is while the sowing plays`, async () => {
    const p = await phone();
    const { id } = await api('POST', '/games', { game: 'hoyito-ii', pits, south: 'human', north: 'greedy' });
    await p.goto(`${BASE}/#game=${id}`);
    await p.waitForFunction((g) => Number(document.body.dataset.game) === g, id);
    await idle(p);
    // The pit in the middle of the screen, as a player would have it before tapping.
    await p.$eval('#board .pit[data-name="A"]', (e) => e.scrollIntoView({ block: 'center' }));
    const before = await p.evaluate(() => ({ y: window.scrollY, top: document.querySelector('#board .pit[data-name="A"]').getBoundingClientRect().top }));
    await p.tap('#board .pit[data-name="A"]');
    await p.waitForTimeout(200);
    const during = await p.evaluate(() => ({ y: window.scrollY, top: document.querySelector('#board .pit[data-name="A"]').getBoundingClientRect().top }));
    equal(Math.round(during.y), Math.round(before.y), `scrollY 0.2 s after the tap (pit A at ${Math.round(during.top)} px)`);
    await idle(p);
    const after = await p.evaluate(() => window.scrollY);
    equal(Math.round(after), Math.round(before.y), 'scrollY once the move and the reply are played');
    await p.context().close();
  });
}

await check('a live game with names and a clock fits a 390 px phone', async () => {
  const p = await phone();
  const seated = await api('POST', '/live', {
    game: 'hoyito-ii', name: 'Guillermina Altagracia', clock: { base_ms: 600000, increment_ms: 5000 }, lobby: true,
  });
  const id = seated.live.id;
  await api('POST', `/live/${id}/accept`, { name: 'Bartolomé Encarnación' });
  await p.goto(`${BASE}/#live=${id}&seat=${seated.token}`);
  await p.waitForFunction(() => document.body.dataset.liveConnected === '1' && document.querySelectorAll('.live-clock').length === 2);
  const fit = await p.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    screen: window.innerWidth,
    clocks: [...document.querySelectorAll('.live-clock')].map((c) => c.getBoundingClientRect().right),
  }));
  assert(fit.page <= fit.screen, `the page is ${fit.page} px wide on a ${fit.screen} px screen`);
  for (const right of fit.clocks) assert(right <= fit.screen, `a clock ends at ${right} px, past the ${fit.screen} px screen`);
  await p.context().close();
});

await check('saved games fit their box on a phone, a card each', async () => {
  const p = await phone();
  await p.goto(`${BASE}/`);
  await p.waitForSelector('#new-game[open]');
  await p.click('#new-game button[value="cancel"]');
  await p.click('#btn-saved');
  await p.waitForFunction(() => document.querySelectorAll('#saved-body tr[data-game]').length > 0);
  const fit = await p.evaluate(() => {
    const box = document.querySelector('.saved-list');
    return { content: box.scrollWidth, box: box.clientWidth, labels: getComputedStyle(document.querySelector('#saved-body td[data-label]'), '::before').content };
  });
  assert(fit.content <= fit.box, `saved games are ${fit.content} px wide in a ${fit.box} px box`);
  assert(/:/.test(fit.labels), `each line says what it is: ${fit.labels}`);
  await p.context().close();
});

// The server has tables of Hoyito II to 8 seeds (scripts/browser-test.sh).
await check('perfect-play values overlap no seed count, and the legend explains them', async () => {
  const p = await phone();
  await p.addInitScript(() => localStorage.setItem('sowing.tables', '1'));
  const start = 'hoyito-ii 2,1,0,0,0,1/0,0,3,1,0,0 20-20 S -';
  const { id } = await api('POST', '/records', { record: `[Game "hoyito-ii"]\n[Start "${start}"]\n\n*` });
  await p.goto(`${BASE}/#game=${id}`);
  await p.waitForFunction(() => document.querySelectorAll('#board .table-value').length === 3);
  const overlaps = await p.evaluate(() => {
    const boxes = (sel) => [...document.querySelectorAll(sel)].map((e) => e.getBoundingClientRect());
    const values = boxes('#board .table-value rect');
    const counts = boxes('#board .pit .badge circle');
    const meet = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    return values.reduce((n, v) => n + counts.filter((c) => meet(v, c)).length, 0);
  });
  equal(overlaps, 0, 'value labels over seed counts');
  const key = await p.locator('.legend .key-values');
  assert(await key.isVisible(), 'the legend explains the values while they are shown');
  assert(/perfect play/.test(await key.textContent()), 'in words');
  await p.context().close();
});

await check('a link to a game that is gone says so and shows no other game', async () => {
  const p = await phone();
  const { id } = await api('POST', '/games', { game: 'hoyito-ii' });
  await p.goto(`${BASE}/#game=${id}`);
  await p.waitForFunction((g) => Number(document.body.dataset.game) === g, id);
  const title = await p.textContent('#title');
  await p.evaluate(() => { location.hash = '#game=999999'; });
  await p.waitForFunction(() => /999999 could not be opened/.test(document.querySelector('#status').textContent));
  assert((await p.textContent('#title')) !== title, `the title of game ${id} is gone: ${await p.textContent('#title')}`);
  equal(await p.$$eval('#board .pit', (g) => g.length), 0, 'no board of the game before');
  // A fresh tab on the gone game says why the new-game dialog opened.
  const fresh = await phone();
  await fresh.goto(`${BASE}/#game=999999`);
  await fresh.waitForSelector('#new-game[open]');
  await fresh.waitForFunction(() => /999999 could not be opened/.test(document.querySelector('#new-error').textContent));
  await p.context().close();
  await fresh.context().close();
});

// Where a long name's text sits against every box around it (issue 38, part 7): the names of
// `selector` that run out of a box, as "name: right edge past box's"; a name cut with an
// ellipsis is measured by its own box.
const overflowingNames = (p, selector) => p.$$eval(selector, (els) => {
  const out = [];
  for (const e of els) {
    const cs = getComputedStyle(e);
    const clipped = cs.textOverflow === 'ellipsis' && cs.overflowX === 'hidden';
    const range = document.createRange();
    range.selectNodeContents(e);
    const r = clipped ? e.getBoundingClientRect() : range.getBoundingClientRect();
    for (let a = clipped ? e.parentElement : e; a && a !== document.documentElement; a = a.parentElement) {
      const box = a.getBoundingClientRect();
      if (!box.width || getComputedStyle(a).display === 'contents') continue;
      if (r.right > box.right + 1 || r.left < box.left - 1) {
        out.push(`${e.className || e.tagName} ends at ${Math.round(r.right)} px, past ${a.id || a.className || a.tagName} (${Math.round(box.right)} px)`);
        break;
      }
    }
  }
  return out;
});

await check('a 32-character name wraps or is cut: the lobby and the name plates fit, phone and desktop', async () => {
  const long = 'W'.repeat(32);
  const posted = await api('POST', '/live', { game: 'hoyito-ii', name: long, clock: { base_ms: 600000, increment_ms: 5000 }, lobby: true });
  const id = posted.live.id;
  const desktop = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  desktop.on('pageerror', (e) => errors.push(e.message));
  for (const p of [await phone(), desktop]) {
    await p.goto(`${BASE}/`);
    await p.waitForSelector(`#lobby-list li[data-challenge="${id}"]`);
    const width = { page: await p.evaluate(() => document.documentElement.scrollWidth), screen: p.viewportSize().width };
    assert(width.page <= width.screen, `with the challenge in the lobby the page is ${width.page} px wide on a ${width.screen} px screen`);
    equal(await overflowingNames(p, `#lobby-list li[data-challenge="${id}"] span`), [], `the lobby's challenge on a ${width.screen} px screen`);
  }
  // Taken by another long name: both name plates, each on its own page.
  const taken = await api('POST', `/live/${id}/accept`, { name: 'M'.repeat(32) });
  for (const [p, token] of [[await phone(), posted.token], [desktop, taken.token]]) {
    await p.goto(`${BASE}/#live=${id}&seat=${token}`);
    await p.waitForFunction(() => document.body.dataset.liveConnected === '1' && document.querySelectorAll('.player .live-name').length === 2);
    const width = { page: await p.evaluate(() => document.documentElement.scrollWidth), screen: p.viewportSize().width };
    assert(width.page <= width.screen, `in the game the page is ${width.page} px wide on a ${width.screen} px screen`);
    equal(await overflowingNames(p, '.player .live-name'), [], `the name plates on a ${width.screen} px screen`);
    const titles = await p.$$eval('.player .live-name', (els) => els.map((e) => e.title));
    assert(titles.some((t) => t.includes(long)), `a plate cut short says the whole name in its title: ${titles}`);
  }
  for (const p of browser.contexts().flatMap((c) => c.pages())) await p.context().close();
});

// Learn on a touch screen (issue 38, part 7).
async function firstLesson(locale) {
  const p = locale ? await (async () => {
    const context = await browser.newContext({ locale, viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
    await context.addInitScript(() => localStorage.setItem('sowing.speed', '6'));
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    return page;
  })() : await phone();
  await p.goto(`${BASE}/`);
  await p.waitForSelector('#new-game[open]');
  await p.click('#new-game button[value="cancel"]');
  await p.click('#btn-learn');
  await p.waitForFunction(() => document.body.dataset.lesson === 'hoyito-ii:0' && document.body.dataset.busy === '0');
  return p;
}

await check('Learn on a touch screen says tap, not click or type, in both languages', async () => {
  for (const [locale, tap, click] of [[null, /: tap a marked pit\.$/, /click|type/], ['es-DO', /: toca un hoyo marcado\.$/, /clic|escribe/]]) {
    const p = await firstLesson(locale);
    const status = await p.textContent('#status');
    assert(tap.test(status) && !click.test(status), `the status on a touch screen: ${status}`);
    await p.context().close();
  }
});

await check('Learn: a pit tapped before Watch the example is answered in words', async () => {
  const p = await firstLesson();
  const before = await p.textContent('#lesson-say');
  await p.tap('#board .pit[data-name="C"]');
  await idle(p);
  const said = await p.textContent('#lesson-say');
  assert(said !== before && /^You played C before watching the example/.test(said), `the lesson says: ${said}`);
  // A wrong pit is told as such.
  await p.click('#lesson-list button[data-lesson="1"]');
  await p.waitForFunction(() => document.body.dataset.lesson === 'hoyito-ii:1' && document.body.dataset.busy === '0');
  await p.tap('#board .pit[data-name="F"]');
  await idle(p);
  assert(/^You played F before watching the example: this lesson shows another move/.test(await p.textContent('#lesson-say')),
    `the lesson says: ${await p.textContent('#lesson-say')}`);
  await p.context().close();
});

await check('Learn: the board stays where it is when a tried move\'s animation ends', async () => {
  const p = await firstLesson();
  await p.click('#lesson-try');
  await idle(p);
  await p.$eval('#board .pit[data-name="C"]', (e) => e.scrollIntoView({ block: 'center' }));
  const top = () => p.evaluate(() => Math.round(document.querySelector('#board').getBoundingClientRect().top + window.scrollY));
  const before = await top();
  await p.tap('#board .pit[data-name="C"]');
  await idle(p);
  assert(/^Well done/.test(await p.textContent('#lesson-say')), `the try is judged: ${await p.textContent('#lesson-say')}`);
  equal(await top(), before, 'the board\'s top on the page once the animation ended');
  await p.context().close();
});

await check('no script errors on the phone pages', async () => {
  equal(errors, [], 'page errors');
});

await browser.close();
finish();
