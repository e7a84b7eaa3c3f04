// The school's small board (docs/web.md, "The school"): a position drawn as two rows of
// buttons, North's row above read right to left as on the main board, each pit that is a
// legal move pressable. Shared by the explorer and the practice; draws, never fetches.
import { T } from './i18n.js';

// The board of `explored` (GET /api/explorer's answer) into `box`; `onMove(name)` is
// called when a legal pit is pressed (none when `onMove` is null). `flipped`: North's row at
// the bottom, for a player of North.
export function drawBoard(box, explored, onMove, flipped = false) {
  const { pits, captured, to_move: toMove } = explored.board;
  const n = pits.length / 2;
  const legal = new Set(explored.moves.map((m) => m.move));
  const letters = 'ABCDEFGHIJKL';
  const pit = (i) => {
    const south = i < n;
    const name = south ? letters[i] : letters[i - n].toLowerCase();
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'school-pit';
    b.dataset.name = name;
    b.textContent = String(pits[i]);
    b.title = name;
    const mine = legal.has(name) && onMove && !explored.over;
    b.disabled = !mine;
    if (mine) {
      b.classList.add('legal');
      b.addEventListener('click', () => onMove(name));
    }
    return b;
  };
  const row = (indices, cls) => {
    const r = document.createElement('div');
    r.className = 'school-row ' + cls;
    for (const i of indices) r.append(pit(i));
    return r;
  };
  const north = [];
  for (let i = 2 * n - 1; i >= n; i--) north.push(i);
  const south = [];
  for (let i = 0; i < n; i++) south.push(i);
  const stores = document.createElement('p');
  stores.className = 'school-stores';
  stores.textContent = T('school-captured', { south: captured[0], north: captured[1] });
  const turn = document.createElement('p');
  turn.className = 'school-turn';
  if (explored.over) turn.textContent = T('school-over');
  else if (toMove === 'south') turn.textContent = T('school-south-moves');
  else turn.textContent = T('school-north-moves');
  // Each row read left to right by its owner sitting at the bottom: turned, the far row.
  const rows = flipped
    ? [row([...south].reverse(), 'south'), row([...north].reverse(), 'north')]
    : [row(north, 'north'), row(south, 'south')];
  const parts = [...rows, stores, turn];
  // A pass (a legal move when nothing can be sown, in some rules) has no pit: a button.
  if (legal.has('pass') && onMove && !explored.over) {
    const pass = document.createElement('button');
    pass.type = 'button';
    pass.className = 'school-pit legal school-pass';
    pass.dataset.name = 'pass';
    pass.textContent = T('school-pass');
    pass.addEventListener('click', () => onMove('pass'));
    parts.push(pass);
  }
  box.replaceChildren(...parts);
}

// A value for people: "+8", "−4", "0".
export function signed(v) {
  if (v > 0) return `+${v}`;
  if (v < 0) return `−${-v}`;
  return '0';
}

// A side's name: South or North.
export function sideName(side) {
  return side === 'south' ? T('school-south') : T('school-north');
}
