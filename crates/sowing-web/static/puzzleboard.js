// The puzzles' board (puzzles.js): a machine state (docs/notation.md) drawn as two rows of
// buttons, North's row above read right to left as on the main board, each legal pit
// pressable while it is the player's turn. Draws, never fetches.
import { T } from './i18n.js';

const LETTERS = 'ABCDEFGHIJKL';

// `state` into `box`; `onMove(name)` is called when a legal pit is pressed (none when
// `onMove` is null); the pit named `marked` is outlined (the right move after a miss).
export function drawPuzzleBoard(box, state, onMove, marked) {
  const { pits, captured, to_move: toMove } = state;
  const n = pits.length / 2;
  const legal = new Set(state.legal);
  const pit = (i) => {
    const name = i < n ? LETTERS[i] : LETTERS[i - n].toLowerCase();
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'puzzle-pit';
    b.dataset.name = name;
    b.textContent = String(pits[i]);
    b.title = name;
    const mine = onMove && !state.over && legal.has(name);
    b.disabled = !mine;
    if (mine) {
      b.classList.add('legal');
      b.addEventListener('click', () => onMove(name));
    }
    if (name === marked) b.classList.add('puzzle-right');
    return b;
  };
  const row = (indices, side) => {
    const r = document.createElement('div');
    r.className = `puzzle-row ${side}`;
    r.style.gridTemplateColumns = `repeat(${n}, minmax(1.8rem, 3.2rem))`;
    for (const i of indices) r.append(pit(i));
    return r;
  };
  const north = [];
  for (let i = 2 * n - 1; i >= n; i--) north.push(i);
  const south = [];
  for (let i = 0; i < n; i++) south.push(i);
  const stores = document.createElement('p');
  stores.className = 'puzzle-stores';
  stores.textContent = T('puzzles-captured', { south: captured[0], north: captured[1] });
  const turn = document.createElement('p');
  turn.className = 'puzzle-turn';
  if (state.over) turn.textContent = T('puzzles-over');
  else turn.textContent = toMove === 'south' ? T('puzzles-south-moves') : T('puzzles-north-moves');
  box.replaceChildren(row(north, 'north'), row(south, 'south'), stores, turn);
}
