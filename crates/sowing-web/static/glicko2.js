// Glicko-2 in the browser, for the puzzle rating of a player without an account (docs/
// puzzles.md): Mark Glickman, "Example of the Glicko-2 system" (2013), steps 1-8, with the
// server's constants (crates/sowing-web/src/ratings.rs: τ = 0.5, the volatility found by
// the Illinois algorithm to 0.000001, a new player 1500 / 350 / 0.06), so that a result
// moves this rating as the server moves an account's. A short module rather than a
// package: the formulas are a page of the paper, and the browser tests check them against
// the paper's worked example and the server's own answers.

const SCALE = 173.7178;
const TAU = 0.5;
const TOLERANCE = 0.000001;

/** A new player's rating. */
export const NEW_PLAYER = Object.freeze({ rating: 1500, deviation: 350, volatility: 0.06 });

const g = (phi) => 1 / Math.sqrt(1 + (3 * phi * phi) / (Math.PI * Math.PI));
const expected = (mu, muJ, gJ) => 1 / (1 + Math.exp(-gJ * (mu - muJ)));

// Step 5: the new volatility.
function volatility(sigma, phi, v, delta) {
  const a0 = Math.log(sigma * sigma);
  const f = (x) => {
    const ex = Math.exp(x);
    const d = phi * phi + v + ex;
    return (ex * (delta * delta - phi * phi - v - ex)) / (2 * d * d) - (x - a0) / (TAU * TAU);
  };
  let a = a0;
  let b;
  if (delta * delta > phi * phi + v) {
    b = Math.log(delta * delta - phi * phi - v);
  } else {
    let k = 1;
    while (f(a0 - k * TAU) < 0) k += 1;
    b = a0 - k * TAU;
  }
  let fa = f(a);
  let fb = f(b);
  while (Math.abs(b - a) > TOLERANCE) {
    const c = a + ((a - b) * fa) / (fb - fa);
    const fc = f(c);
    if (fc * fb <= 0) {
      a = b;
      fa = fb;
    } else {
      fa /= 2;
    }
    b = c;
    fb = fc;
  }
  return Math.exp(a / 2);
}

/**
 * The rating of `player` after a rating period of `results`, each `[opponent, score]`
 * (score 1 a win, ½ a draw, 0 a loss); ratings are `{rating, deviation, volatility}`.
 */
export function ratePeriod(player, results) {
  const mu = (player.rating - 1500) / SCALE;
  const phi = player.deviation / SCALE;
  if (results.length === 0) {
    const grown = Math.sqrt(phi * phi + player.volatility * player.volatility);
    return { ...player, deviation: grown * SCALE };
  }
  let vInverse = 0;
  let sum = 0;
  for (const [opponent, score] of results) {
    const muJ = (opponent.rating - 1500) / SCALE;
    const gJ = g(opponent.deviation / SCALE);
    const e = expected(mu, muJ, gJ);
    vInverse += gJ * gJ * e * (1 - e);
    sum += gJ * (score - e);
  }
  const v = 1 / vInverse;
  const sigma = volatility(player.volatility, phi, v, v * sum);
  const before = Math.sqrt(phi * phi + sigma * sigma);
  const phiNew = 1 / Math.sqrt(1 / (before * before) + 1 / v);
  const muNew = mu + phiNew * phiNew * sum;
  return { rating: muNew * SCALE + 1500, deviation: phiNew * SCALE, volatility: sigma };
}

/** `player`'s rating after one game against `opponent`, scoring `score`. */
export function rate(player, opponent, score) {
  return ratePeriod(player, [[opponent, score]]);
}
