// What the page's modules share about the game shown, and the parts that change how it is
// shown. It imports nothing: every module may import it, and no import circle goes through it.

// The game shown (game.js draws it and changes it; the others read it, and Learn, Play a
// friend and the review set it when they open a game of their own).
export const S = {
  view: null,          // the game as the server last gave it
  viewPly: null,       // the ply being looked at, or null for the game as it stands
  flipped: false,
  busy: false,         // a request or animation is running
  note: null,          // what the last action left on the status line: {text, error}
  hint: null,          // pit index the engine suggested
  thinkMs: 1000,
  evalSeq: 0,
  turn: null,          // the turn being told: {id, side, ply, moves, taken, again}
};

// The parts of the page above game.js that change how a game is shown, each set once by its
// own module when it loads (game.js calls them and imports none of them):
//   live    live.js, Play a friend: active(), mayMove(v), decorate(v), playerLabel(side),
//           play(move), leave(), fromAddress()
//   lesson  learn.js: showing(v) (the board shows a lesson's game), title(v), check(),
//           leave()
//   review  analysis.js, the review after the game: open(), decorate(v, ply),
//           summaryButton(), savedLabel(), fromAddress()
export const parts = { live: null, lesson: null, review: null };
