// The page's modules (crates/sowing-web/static/**/*.js, docs/web.md "The page's files") keep
// their shape: every import names a file that exists, no module imports one that imports it
// back (no import circle, however long), none of the page's own is over 600 lines (the
// vendored ones are as published), and none shares anything through a global
// (`window.x =`, `globalThis.x =`): what modules share they export. Plain Node, no packages;
// run by scripts/browser-test.sh before the browser. Prints what it found and exits non-zero
// on any fault.
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const STATIC = resolve(dirname(fileURLToPath(import.meta.url)), '../../crates/sowing-web/static');
const MAX_LINES = 600;

function modules(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return modules(path);
    return name.endsWith('.js') ? [path] : [];
  });
}

// The modules a file imports (or re-exports from), as files: the static import and export
// statements, each at the start of a line; `/x.js` is the server's address of static/x.js.
function importsOf(file, text) {
  const found = [];
  const statements = [
    /^\s*(?:import|export)\s[^'";]*?\sfrom\s*(['"])(.+?)\1/gm,
    /^\s*import\s*(['"])(.+?)\1/gm,
  ];
  for (const pattern of statements) {
    for (const m of text.matchAll(pattern)) {
      const spec = m[2];
      if (spec.startsWith('/')) found.push({ spec, path: join(STATIC, spec) });
      else if (spec.startsWith('.')) found.push({ spec, path: resolve(dirname(file), spec) });
      else found.push({ spec, path: null }); // a bare name: no bundler, no import map
    }
  }
  return found;
}

const faults = [];
const name = (path) => relative(STATIC, path);
const graph = new Map();
const files = modules(STATIC).sort();
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const own = !name(file).startsWith('vendor/');
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  if (own && lines > MAX_LINES) faults.push(`${name(file)} has ${lines} lines, more than ${MAX_LINES}: split it by job`);
  if (own) {
    for (const m of text.matchAll(/^(?!\s*\/\/).*\b((?:window|globalThis|self)\.[A-Za-z_$][\w$]*)\s*=(?!=)/gm)) {
      faults.push(`${name(file)} sets the global ${m[1]}: export what other modules use instead`);
    }
  }
  const edges = [];
  for (const { spec, path } of importsOf(file, text)) {
    if (!path) faults.push(`${name(file)} imports '${spec}', which is no file of the page`);
    else if (!existsSync(path)) faults.push(`${name(file)} imports '${spec}': no such file`);
    else edges.push(path);
  }
  graph.set(file, edges);
}

// Depth first; a module met again while it is still open closes a circle.
const OPEN = 1, DONE = 2;
const state = new Map();
const stack = [];
function visit(file) {
  state.set(file, OPEN);
  stack.push(file);
  for (const next of graph.get(file) || []) {
    if (state.get(next) === OPEN) {
      const circle = stack.slice(stack.indexOf(next)).concat(next).map(name);
      faults.push(`an import circle: ${circle.join(' → ')}`);
    } else if (!state.has(next)) {
      visit(next);
    }
  }
  stack.pop();
  state.set(file, DONE);
}
for (const file of files) if (!state.has(file)) visit(file);

if (faults.length) {
  console.log(`imports: ${faults.length} fault${faults.length === 1 ? '' : 's'} in the page's modules:`);
  for (const f of faults) console.log(`FAILED  ${f}`);
  process.exit(1);
}
const own = files.filter((f) => !name(f).startsWith('vendor/'));
const longest = own.map((f) => [name(f), readFileSync(f, 'utf8').split('\n').length - 1]).sort((a, b) => b[1] - a[1])[0];
console.log(`ok      imports: ${files.length} modules (${own.length} the page's own), no import circle, `
  + `none over ${MAX_LINES} lines (the longest: ${longest[0]}, ${longest[1]}), no globals set`);
