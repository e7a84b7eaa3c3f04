// A page on another origin tries to act on the server (issue 23, point 1): it sends what a
// browser lets any page send without asking (no-cors text/plain posts, a form), and what it
// must ask first for (JSON, DELETE). Nothing may change, and the form's answer is a JSON 403
// that says why. Run by scripts/browser-test.sh (SOW_URL).
import { BASE, api, assert, check, equal, finish, launch } from './common.mjs';
import { createServer } from 'node:http';

const { id } = await api('POST', '/games', { game: 'hoyito-ii' });
const gamesBefore = (await api('GET', '/games?limit=1000')).games.length;
const lobbyBefore = JSON.stringify(await api('GET', '/lobby'));

// The attacker's page: served by this script on another port, opened as http://localhost:…
// while the server is http://127.0.0.1:… — another origin and another site.
const target = BASE;
const attackPage = `<!doctype html><meta charset="utf-8"><title>free seeds</title>
<form id="form" method="post" action="${target}/api/games/${id}/moves" enctype="text/plain">
  <input name='{"move":"A","x":"' value='"}'>
</form>
<script>
  const plain = (path, body) => fetch('${target}/api' + path, { method: 'POST', mode: 'no-cors', headers: { 'Content-Type': 'text/plain' }, body })
    .then(() => 'sent', (e) => 'failed: ' + e.message);
  const asking = (method, path, body) => fetch('${target}/api' + path, { method, headers: { 'Content-Type': 'application/json' }, body })
    .then((r) => 'answered ' + r.status, (e) => 'blocked: ' + e.message);
  window.attack = async () => [
    await plain('/games/${id}/moves', '{"move":"A"}'),
    await plain('/games/${id}/undo', ''),
    await plain('/games', '{"game":"hoyito-ii"}'),
    await plain('/records', '{"record":"[Game \\\\"hoyito-ii\\\\"]\\\\n\\\\n*"}'),
    await plain('/live', '{"game":"hoyito-ii","lobby":true}'),
    await asking('POST', '/games/${id}/moves', '{"move":"A"}'),
    await asking('DELETE', '/games/${id}'),
  ];
</script>`;
const server = createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(attackPage);
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const attackUrl = `http://localhost:${server.address().port}/`;

const browser = await launch();
const page = await browser.newPage();
page.setDefaultTimeout(30000);

await check('a page on another origin cannot move, undo, create or delete', async () => {
  await page.goto(attackUrl);
  const outcomes = await page.evaluate(() => window.attack());
  assert(outcomes.slice(0, 5).every((o) => o === 'sent'), `the simple requests left the browser: ${outcomes}`);
  const view = await api('GET', `/games/${id}`);
  equal(view.ply, 0, 'no move was played in the game');
  const games = (await api('GET', '/games?limit=1000')).games.length;
  equal(games, gamesBefore, 'no game was created');
  equal(JSON.stringify(await api('GET', '/lobby')), lobbyBefore, 'no challenge was posted');
});

await check('a form posted from another origin gets a JSON 403 that says why', async () => {
  await page.goto(attackUrl);
  const [response] = await Promise.all([
    page.waitForNavigation(),
    page.evaluate(() => document.getElementById('form').submit()),
  ]);
  equal(response.status(), 403, 'the status');
  const body = JSON.parse(await page.textContent('body'));
  assert(/another (site|origin)/.test(body.error), `the reason: ${body.error}`);
  equal((await api('GET', `/games/${id}`)).ply, 0, 'still no move');
});

await check('the server’s own page still plays (same origin)', async () => {
  const own = await browser.newPage();
  await own.goto(`${BASE}/#game=${id}`);
  await own.waitForFunction((g) => Number(document.body.dataset.game) === g, id);
  await own.waitForFunction(() => document.body.dataset.busy === '0');
  await own.click('#board .pit.legal >> nth=0');
  await own.waitForFunction(() => Number(document.body.dataset.ply) >= 1);
  await own.close();
});

await browser.close();
server.close();
finish();
