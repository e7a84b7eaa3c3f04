// Browser tests of quick pairing (docs/api.md, "Quick pairing"): a desktop in English and a
// 390 px phone in Spanish, each a player of its own, press the same clock of the grid and
// land in one live game, one seat each, and exchange a quick phrase (each in its language,
// until muted); a cancelled search and a page left are taken out of the pool (a third
// player is not paired with them). Run by scripts/browser-test.sh
// (SOW_URL).
import { assert, check, equal, finish, launch, playerPage, waitInPage } from './common.mjs';

const browser = await launch();
const errors = [];
let players = 0;

// A player of its own (its own player key: a player is never paired with itself).
async function player(label, options) {
  players += 1;
  const key = players.toString(16).padStart(2, '0').repeat(16);
  const page = await playerPage(browser, label, key, options, errors);
  await page.waitForSelector('#new-game[open]');
  await page.keyboard.press('Escape');
  await page.waitForSelector('#pair-grid button[data-clock]');
  return page;
}

const desk = await player('desktop', { viewport: { width: 1200, height: 900 } });
const phone = await player('phone', { viewport: { width: 390, height: 844 }, locale: 'es-ES', hasTouch: true, isMobile: true });

const LONG_NAME = 'W'.repeat(32);
const status = (p) => p.locator('#pair-status').textContent();
const inGame = (p) => waitInPage(p, () => document.body.dataset.live && document.body.dataset.liveConnected === '1'
  && { id: document.body.dataset.live, seat: document.body.dataset.liveSeat });

await check('the grid shows the usual clocks and Custom, in each reader’s language, and fits a phone', async () => {
  const labels = await desk.locator('#pair-grid button').allTextContents();
  equal(labels, ['1 min', '3 + 2', '5 + 3', '10 + 5', '15 + 10', '30 min', 'Custom'], 'the desktop’s grid');
  equal(await phone.locator('#pairing-title').textContent(), 'Partida rápida', 'the title in Spanish');
  equal(await phone.locator('#pair-custom').textContent(), 'Otro', 'Custom in Spanish');
  const width = await phone.evaluate(() => document.documentElement.scrollWidth);
  assert(width <= 390, `the phone page does not scroll sideways: ${width} px wide`);
  // Rated and the rating range are for signed-in players only.
  equal(await desk.locator('#pair-rated').isVisible(), false, 'no rated box signed out');
});

await check('two players pressing the same clock land in one live game, one seat each', async () => {
  // The desktop player goes by a 32-character name: the phone must still fit it.
  await desk.evaluate((name) => localStorage.setItem('sowing.name', name), LONG_NAME);
  await desk.selectOption('#pair-game', 'hoyito-ii');
  await desk.click('#pair-grid button[data-clock="180000+2000"]');
  await waitInPage(desk, () => document.querySelector('#pair-status').textContent.startsWith('Looking for an opponent'));
  assert(await desk.locator('#pair-cancel').isVisible(), 'a Cancel button while seeking');
  await phone.selectOption('#pair-game', 'hoyito-ii');
  await phone.locator('#pair-grid button[data-clock="180000+2000"]').tap();
  const [a, b] = await Promise.all([inGame(desk), inGame(phone)]);
  equal(a.id, b.id, 'the same game');
  equal([a.seat, b.seat].sort(), ['north', 'south'], 'one seat each');
  equal(await desk.locator('#pair-cancel').isVisible(), false, 'no Cancel once paired');
});

await check('a phrase said on the desktop shows on the phone in Spanish, until the phone mutes them', async () => {
  await desk.click('#live-phrases button[data-phrase="good-luck"]');
  await waitInPage(phone, (name) => document.querySelector('#live-said').textContent === `${name}: ¡Suerte!`, LONG_NAME);
  assert((await desk.locator('#live-said').textContent()).includes('Good luck!'), 'the sayer sees it said');
  await phone.locator('#phrases-mute').check();
  await desk.click('#live-phrases button[data-phrase="hello"]');
  await waitInPage(desk, () => document.querySelector('#live-said').textContent.includes('Hello!'));
  await new Promise((resolve) => setTimeout(resolve, 1000));
  assert(!(await phone.locator('#live-said').textContent()).includes('¡Hola!'), 'muted: not shown');
  const width = await phone.evaluate(() => document.documentElement.scrollWidth);
  assert(width <= 390, `the phone's live game does not scroll sideways: ${width} px wide`);
});

await check('a cancelled search and a page left are taken out of the pool', async () => {
  await desk.click('#pair-grid button[data-clock="60000+0"]');
  await waitInPage(desk, () => document.querySelector('#pair-status').textContent.startsWith('Looking'));
  await desk.click('#pair-cancel');
  equal(await status(desk), 'Search cancelled.', 'said');
  // The phone seeks 1 min: the cancelled search does not take it.
  await phone.locator('#pair-grid button[data-clock="60000+0"]').tap();
  await waitInPage(phone, () => document.querySelector('#pair-status').textContent.startsWith('Buscando rival'));
  await new Promise((resolve) => setTimeout(resolve, 1500));
  equal(await phone.locator('#pair-cancel').isVisible(), true, 'the phone still seeks');
  // The phone's page goes away: its seek goes with its socket; a third player seeking 1 min
  // waits rather than being paired with nobody.
  await phone.close();
  const third = await player('third', { viewport: { width: 1200, height: 900 } });
  await new Promise((resolve) => setTimeout(resolve, 500));
  await third.click('#pair-grid button[data-clock="60000+0"]');
  await waitInPage(third, () => document.querySelector('#pair-status').textContent.startsWith('Looking'));
  await new Promise((resolve) => setTimeout(resolve, 1500));
  equal(await third.locator('#pair-cancel').isVisible(), true, 'the third player still waits');
  await third.click('#pair-cancel');
});

await check('no page error', async () => equal(errors, [], 'page errors'));
await browser.close();
finish();
