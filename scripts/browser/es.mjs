// The page in Spanish (docs/web.md, "Languages"): a browser whose first language is Spanish
// (es-DO) gets the whole page in Spanish — a game against the computer with its moves told in
// sentences, Learn, a refusal of the server, numbers and dates as Intl writes them there — and
// the header's control switches to English and back, remembered across a reload. Run by
// scripts/browser-test.sh (SOW_URL).
import { BASE, api, assert, check, equal, finish, launch } from './common.mjs';

const browser = await launch();
const context = await browser.newContext({ locale: 'es-DO', viewport: { width: 1200, height: 860 } });
await context.addInitScript(() => localStorage.setItem('sowing.speed', '10'));
const page = await context.newPage();
page.setDefaultTimeout(60000);
const errors = [];
page.on('pageerror', (e) => errors.push(e.message));
const warnings = [];
page.on('console', (m) => { if (m.type() === 'warning' && /i18n/.test(m.text())) warnings.push(m.text()); });
const humanTurn = () => page.waitForFunction(() => ['human', 'over'].includes(document.body.dataset.turn)
  && document.body.dataset.busy === '0' && document.body.dataset.animating === '0');
const text = (selector) => page.textContent(selector);
// English words that no Spanish sentence of the page contains.
const ENGLISH = /\b(the|and|you|your|move|moves|seeds?|pits?|game|wins|Undo|Hint|Learn|Saved|to move)\b/;
let gameId = null; // the game against the computer
const visibleText = () => page.evaluate(() => document.body.innerText);

await check('a Spanish browser gets the page in Spanish', async () => {
  await page.goto(BASE + '/');
  await page.waitForSelector('#new-game[open]');
  equal(await page.evaluate(() => document.documentElement.lang), 'es', 'the page’s language');
  equal(await page.$eval('#lang', (s) => s.value), 'es', 'the control shows Spanish');
  equal(await text('#btn-new'), 'Partida nueva', 'the header');
  equal(await page.$eval('#btn-undo', (b) => b.title), 'Deshacer (u)', 'a title');
  equal(await text('#new-game-title'), 'Partida nueva', 'the dialog');
  equal(await text('#btn-start'), 'Empezar', 'its button');
  equal(await page.$eval('#f-south option[value="level:3"]', (o) => o.textContent), 'Computadora, nivel 3', 'a player');
  equal(await page.$eval('#f-time option[value="300"]', (o) => o.textContent), '0.3 s', 'a thinking time, as es-DO writes 0.3');
  await page.selectOption('#f-game', 'hoyito-ii:6');
  const option = await page.$eval('#new-form [data-option="casa_rows"] .option-name', (e) => e.textContent);
  equal(option, 'Casas regla H2.5', 'a rule option and its reference');
  assert(/puesto difícil/.test(await text('#about-seat')), `which seat is harder: ${await text('#about-seat')}`);
  assert(/casa/.test(await text('#about-text')), 'the game in a few words, with its own word');
  await page.selectOption('#f-game', 'hoyito-iii');
  await page.selectOption('#f-option-final_four', 'south');
  assert(/resuelto: con el mejor juego, Norte gana por 32 semillas/.test(await text('#about-seat')), `a proven result of an option set: ${await text('#about-seat')}`);
  await page.selectOption('#f-option-final_four', 'capturer');
  await page.selectOption('#f-game', 'hoyito-ii:6');
  await page.selectOption('#f-option-casa_rows', 'opponent');
  assert(/aún sin resolver, pero demostrado: con el mejor juego, Norte gana, por 4 a 32 semillas/.test(await text('#about-seat')), `the proven bounds of an open option set: ${await text('#about-seat')}`);
  await page.selectOption('#f-option-casa_rows', 'any');
});

await check('a game against the computer, each move told in a Spanish sentence', async () => {
  await page.selectOption('#f-south', 'human');
  await page.selectOption('#f-north', 'greedy');
  await page.selectOption('#f-time', '300');
  await page.click('#btn-start');
  await page.waitForFunction(() => Number(document.body.dataset.game) > 0);
  await humanTurn();
  assert(/^Hoyito II 2×6 · partida \d+$/.test(await text('#title')), `the title: ${await text('#title')}`);
  equal(await text('#status'), 'Le toca a Sur: haz clic en un hoyo marcado o escribe su letra.', 'whose turn');
  equal(await page.$eval('#board .pit[data-name="A"]', (g) => g.getAttribute('aria-label')), 'Hoyo A, 4 semillas: juégalo', 'a pit, in words');
  assert(/^Sur\s*—\s*persona · lleva 0/.test(await text('#player-bottom')), `the player line: ${await text('#player-bottom')}`);
  gameId = await page.evaluate(() => Number(document.body.dataset.game));
  await page.click('#board .pit[data-name="C"]');
  await page.waitForFunction(() => /^Norte sembró|^Turno de Norte/.test(document.querySelector('#commentary').textContent));
  await humanTurn();
  const view = await api('GET', `/games/${await page.evaluate(() => Number(document.body.dataset.game))}`);
  const first = view.history[0];
  equal(first.move, 'C', 'South sowed C');
  const said = await text('#commentary');
  assert(/\.$/.test(said) && !ENGLISH.test(said), `the computer's move told in Spanish: ${said}`);
  const told = await page.evaluate(async (h) => (await import('/words.js')).describeMove(h.side, h.move, h.trace || [], 'hoyito-ii'), { ...first, trace: [] });
  equal(told, 'Sur sembró C: terminó en un hoyo vacío.', 'a move with no capture, in words');
  const words = await page.evaluate(async () => [
    (await import('/words.js')).describeMove('north', 'c', [
      { kind: 'lift', relay: false }, { kind: 'lift', relay: true }, { kind: 'lift', relay: true },
      { kind: 'take', why: 'capture', name: 'E', seeds: 4, by: 'north' }, { kind: 'extra-turn' }], 'hoyito-ii'),
    (await import('/words.js')).describeMove('south', 'pass', [], 'hoyito-ii'),
    (await import('/words.js')).hintWords('A', { kind: 'estimate', south: -1.2 }, 'south'),
    (await import('/words.js')).hintWords('pass', { kind: 'proven', south: 0 }, 'south'),
    (await import('/words.js')).movesAndTurns({ ply: 1, history: [{ side: 'south' }] }),
    (await import('/words.js')).movesAndTurns({ ply: 3, history: [{ side: 'south' }, { side: 'south' }, { side: 'north' }] }),
  ]);
  equal(words, [
    'Norte sembró c: hizo 2 relevos y hizo casa en E — Norte se lleva 4 y vuelve a jugar.',
    'Sur no tenía ninguna siembra posible y pasó.',
    'Lo mejor: A — sigues más o menos una semilla por detrás.',
    'Lo mejor: pasar — empate con el mejor juego.',
    '1 jugada',
    '3 jugadas en 2 turnos',
  ], 'sentences, with their plurals');
  assert(/Le toca a Sur/.test(await text('#status')), `the status: ${await text('#status')}`);
  await page.evaluate(() => { document.querySelector('#eval-on').checked = true; document.querySelector('#eval-on').dispatchEvent(new Event('change')); });
  await page.waitForFunction(() => document.querySelector('#eval-words').textContent !== '');
  const visible = await visibleText();
  const english = visible.split('\n').filter((line) => ENGLISH.test(line));
  equal(english, [], 'no English line on the page');
});

await check('the server’s refusal is said in Spanish, by its code', async () => {
  const view = await api('GET', `/games/${await page.evaluate(() => Number(document.body.dataset.game))}`);
  // A move sent for a ply the game has left: the server answers 409 with code stale-ply.
  const said = await page.evaluate(async (id) => {
    const { api } = await import('/api.js');
    try { await api('POST', `/games/${id}/moves`, { move: 'A', ply: 0 }); return 'accepted'; } catch (e) { return `${e.code}: ${e.message}`; }
  }, view.id);
  equal(said, 'stale-ply: La partida ha avanzado desde la última vez que esta página la vio: vuelve a cargarla.', 'the refusal');
  // North's pit on South's turn: 422, code illegal-move, with the legal moves listed.
  const illegal = await page.evaluate(async (v) => {
    const { api } = await import('/api.js');
    try { await api('POST', `/games/${v.id}/moves`, { move: 'a', ply: v.ply }); return 'accepted'; } catch (e) { return `${e.code}: ${e.message}`; }
  }, { id: view.id, ply: view.ply });
  assert(/^illegal-move: Esa jugada no se puede hacer ahora; las jugadas posibles son ([A-F], )*[A-F] y [A-F]\.$/.test(illegal), `the refusal: ${illegal}`);
  // Refusals whose code names a kind (issue 38, part 7): the code's Spanish sentence, never the
  // server's English detail inside it.
  const kinds = await page.evaluate(async (id) => {
    const { api } = await import('/api.js');
    const said = async (...call) => { try { await api(...call); return 'accepted'; } catch (e) { return `${e.code}: ${e.message}`; } };
    return [
      await said('POST', '/live', { game: 'hoyito-ii', name: 'A' + '\u202e' + 'B' }),
      await said('PUT', '/accounts/nadie', { about: 'hola' }),
      await said('POST', '/account/signin', { name: 'nadie', password: 'incorrecta-del-todo' }),
      await said('POST', `/games/${id}/engine`, { engine: 'level:6', colour: 1 }),
    ];
  }, view.id);
  equal(kinds, [
    'unprocessable: El servidor no aceptó la petición: algún dato no es válido.',
    'signed-out: Tienes que iniciar sesión, o el nombre o la contraseña no son correctos.',
    'signed-out: Tienes que iniciar sesión, o el nombre o la contraseña no son correctos.',
    'unprocessable: El servidor no aceptó la petición: algún dato no es válido.',
  ], 'refusals by their codes');
  // A link to a game that is not there: followed on the page, then opened afresh.
  await page.goto(BASE + '/#game=987654');
  await page.waitForFunction(() => /987654/.test(document.querySelector('#status').textContent));
  equal(await text('#status'), 'No se pudo abrir la partida 987654: Esa partida no existe: quizá se borró.', 'the link followed');
  await page.reload();
  await page.waitForSelector('#new-game[open]');
  await page.waitForFunction(() => document.querySelector('#new-error').textContent !== '');
  equal(await text('#new-error'), 'No se pudo abrir la partida 987654: Esa partida no existe: quizá se borró. ¿Empiezas una nueva?',
    'the link opened');
  await page.click('#new-form button[value="cancel"]');
  await page.goto(`${BASE}/#game=${gameId}`);
  await page.waitForFunction((g) => Number(document.body.dataset.game) === g && document.body.dataset.busy === '0', gameId);
});

await check('Learn in Spanish: every lesson’s words, the example told, the try praised', async () => {
  await page.click('#btn-learn');
  await page.waitForFunction(() => document.body.dataset.lesson === 'hoyito-ii:0' && document.body.dataset.busy === '0');
  equal(await text('#learn-title'), 'Aprender Hoyito II', 'the title');
  equal(await text('#lesson-title'), '1. Sembrar y relevos', 'the first lesson');
  assert(/^En tu turno, levanta todas las semillas/.test(await text('#lesson-words')), 'its words');
  equal(await text('#lesson-rule'), 'regla H2.1, H2.2, H2.3', 'its rule');
  const titles = await page.$$eval('#lesson-list button', (bs) => bs.map((b) => b.textContent));
  assert(titles.every((t) => !ENGLISH.test(t)), `the lessons: ${titles}`);
  await page.click('#lesson-watch');
  await page.waitForFunction(() => /Ese fue el ejemplo/.test(document.querySelector('#lesson-say').textContent) && document.body.dataset.busy === '0');
  equal(await text('#commentary'), 'Sur sembró C: hizo un relevo y terminó en un hoyo vacío.', 'the example, told');
  await page.click('#lesson-try');
  await page.waitForFunction(() => /^Ahora tú: siembra C/.test(document.querySelector('#lesson-say').textContent) && document.body.dataset.busy === '0');
  await page.click('#board .pit[data-name="C"]');
  await page.waitForFunction(() => /^¡Muy bien!/.test(document.querySelector('#lesson-say').textContent));
  // The number in a lesson's words as Intl writes it for the reader's locale.
  await page.click('#lesson-list button[data-lesson="6"]');
  await page.waitForFunction(() => document.body.dataset.lesson === 'hoyito-ii:6' && document.body.dataset.busy === '0');
  const laps = await page.evaluate(() => new Intl.NumberFormat('es-DO').format(65536));
  assert((await text('#lesson-words')).includes(`después de ${laps} vueltas`), `65536 written ${laps}: ${await text('#lesson-words')}`);
  // Every lesson of every game has its words (no id shown in their place).
  for (const variant of ['hoyito-ii', 'hoyito-iii', 'ayoayo']) {
    await page.click(`#learn-games button[data-learn="${variant}"]`);
    await page.waitForFunction((v) => document.body.dataset.lesson === `${v}:0` && document.body.dataset.busy === '0', variant);
    const count = await page.$$eval('#lesson-list button', (bs) => bs.length);
    for (let k = 0; k < count; k++) {
      await page.click(`#lesson-list button[data-lesson="${k}"]`);
      await page.waitForFunction((tag) => document.body.dataset.lesson === tag && document.body.dataset.busy === '0', `${variant}:${k}`);
      const lesson = await page.evaluate(() => [document.querySelector('#lesson-title').textContent, document.querySelector('#lesson-words').textContent, document.querySelector('#lesson-say').textContent]);
      assert(lesson.every((t) => t.length > 5 && !/lesson-|\.title|\.words|\.ask/.test(t) && !ENGLISH.test(t)), `${variant} ${k + 1}: ${lesson}`);
    }
  }
  await page.click('#lesson-close');
  await page.waitForFunction(() => document.body.dataset.busy === '0' && !document.body.dataset.learn);
});

await check('saved games: words in Spanish, the time as Intl writes it in es-DO', async () => {
  await page.click('#btn-saved');
  await page.waitForFunction((g) => document.querySelector(`#saved-body tr[data-game="${g}"]`), gameId);
  equal(await text('#saved-title'), 'Partidas guardadas', 'the title');
  const row = await page.$eval(`#saved-body tr[data-game="${gameId}"]`, (tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent));
  assert(/^Hoyito II 2×6$/.test(row[1]) && row[2] === 'persona' && row[3] === 'computadora, glotona', `the row: ${row}`);
  assert(row[5] === 'en juego' || /^ganó|^empate/.test(row[5]), `the result: ${row[5]}`);
  const { games } = await api('GET', '/games?limit=200');
  const updated = games.find((g) => g.id === gameId).updated;
  const expected = await page.evaluate((utc) => new Date(`${utc.replace(' ', 'T')}Z`).toLocaleString('es-DO', {
    year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'short',
  }), updated);
  equal(row[6], expected, 'the last-played time');
  await page.click('#saved form button');
});

await check('the control switches to English and back, and the choice is remembered', async () => {
  await page.selectOption('#lang', 'en');
  equal(await text('#btn-new'), 'New game', 'the header, in English at once');
  equal(await page.evaluate(() => document.documentElement.lang), 'en', 'the page’s language');
  assert(/^South to move: click a marked pit/.test(await text('#status')), `the status, redrawn: ${await text('#status')}`);
  equal(await text('[data-store="south"] .store-label'), 'South took', 'the board’s words, in English at once');
  await page.waitForFunction(() => /^(South|North) is about|^About level|^Unclear/.test(document.querySelector('#eval-words').textContent));
  equal(await page.evaluate(() => localStorage.getItem('sowing.lang')), 'en', 'kept in this browser');
  await page.reload();
  await page.waitForFunction(() => document.body.dataset.game && document.body.dataset.busy === '0');
  equal(await text('#btn-new'), 'New game', 'still English after a reload, though the browser prefers Spanish');
  await page.selectOption('#lang', 'es');
  equal(await text('#btn-new'), 'Partida nueva', 'back to Spanish');
  assert(/^Le toca a Sur/.test(await text('#status')), `the status: ${await text('#status')}`);
  equal(await text('[data-store="north"] .store-label'), 'Norte lleva', 'the board’s words');
  await page.waitForFunction(() => /^(Sur|Norte) va|^Más o menos|^Incierto/.test(document.querySelector('#eval-words').textContent));
});

await check('no page errors and no message missing', async () => {
  equal(errors, [], 'page errors');
  equal(warnings, [], 'i18n warnings');
});

if (process.env.SHOTS) {
  // Screenshots of the Spanish page for the report (not committed): desktop and phone.
  await page.screenshot({ path: `${process.env.SHOTS}/es-desktop.png`, fullPage: true });
  const phone = await browser.newContext({ locale: 'es-DO', viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  const p = await phone.newPage();
  await p.goto(page.url());
  await p.waitForFunction(() => document.body.dataset.game && document.body.dataset.busy === '0');
  await p.screenshot({ path: `${process.env.SHOTS}/es-phone.png`, fullPage: true });
  await p.click('#btn-learn');
  await p.waitForFunction(() => document.body.dataset.lesson && document.body.dataset.busy === '0');
  await p.screenshot({ path: `${process.env.SHOTS}/es-phone-learn.png`, fullPage: false });
  await phone.close();
}

await browser.close();
finish();
