// The dialogs' small board (the puzzles, the explorer, the practice): a position drawn as two
// rows of buttons, North's row above read right to left as on the main board (turned for a
// player of North), each legal pit pressable. Draws, never fetches.
import { T } from './i18n.js';
import { letter } from './words.js';

// `position` ({pits, captured, to_move, over, legal: [names]}) into `box`. `onMove(name)` is
// called when a legal pit (or the pass button) is pressed, none when `onMove` is null; the
// pit named `marked` is outlined (the right move after a miss); `flipped` puts North's row
// at the bottom.
export function drawSmallBoard(box, position, { onMove = null, marked = null, flipped = false } = {}) {
  const { pits, captured, to_move: toMove, over } = position;
  const n = pits.length / 2;
  const legal = new Set(position.legal);
  const playable = (name) => !!onMove && !over && legal.has(name);
  const pit = (i) => {
    const name = letter(i, n);
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'small-pit';
    b.dataset.name = name;
    b.textContent = String(pits[i]);
    b.title = name;
    b.disabled = !playable(name);
    if (playable(name)) {
      b.classList.add('legal');
      b.addEventListener('click', () => onMove(name));
    }
    if (name === marked) b.classList.add('right-move');
    return b;
  };
  const row = (indices, side) => {
    const r = document.createElement('div');
    r.className = `small-row ${side}`;
    r.style.gridTemplateColumns = `repeat(${n}, minmax(1.8rem, 3.2rem))`;
    for (const i of indices) r.append(pit(i));
    return r;
  };
  const south = [...Array(n).keys()];
  const north = south.map((i) => 2 * n - 1 - i);
  // Each row read left to right by its owner sitting at the bottom: turned, the far row.
  const rows = flipped
    ? [row([...south].reverse(), 'south'), row([...north].reverse(), 'north')]
    : [row(north, 'north'), row(south, 'south')];
  const stores = document.createElement('p');
  stores.className = 'small-stores';
  stores.textContent = T('small-board-captured', { south: captured[0], north: captured[1] });
  const turn = document.createElement('p');
  turn.className = 'small-turn';
  turn.textContent = over ? T('small-board-over') : T('small-board-to-move', { side: toMove });
  const parts = [...rows, stores, turn];
  // A pass (the only move when nothing can be sown) has no pit: a button of its own.
  if (playable('pass')) {
    const pass = document.createElement('button');
    pass.type = 'button';
    pass.className = 'small-pit legal small-pass';
    pass.dataset.name = 'pass';
    pass.textContent = T('small-board-pass');
    pass.addEventListener('click', () => onMove('pass'));
    parts.push(pass);
  }
  box.replaceChildren(...parts);
}

// The position of an answer of GET /api/explorer, as drawSmallBoard takes it.
export const explorerPosition = (e) => ({ ...e.board, over: e.over, legal: e.moves.map((m) => m.move) });
