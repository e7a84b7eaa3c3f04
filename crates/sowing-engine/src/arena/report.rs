//! The text report of a match, one copy for `sow match` and the Python package's
//! `python -m sowing.distributed match` (which runs the same games as Ray tasks).

use std::fmt::Write;

use sowing::Rules;

use super::{balance_nodes, Balance, Openings, Played, Summary, BALANCE_TRIES, SELF_PLAY};

/// The report `sow match` prints: the players (by their names as `sow match` writes
/// them), the openings, the score, the Elo difference,
/// the average length, the faults and where the records are (`records`). `rounds` tells
/// whether each entry of `games` is a match of rounds (H3.3) rather than a game.
pub fn report(
    rules: Rules,
    p1: &str,
    p2: &str,
    rounds: bool,
    openings: &Openings,
    games: &[Played],
    records: &str,
) -> String {
    let summary = Summary::of(games);
    let unit = if rounds { "matches" } else { "games" };
    let plies = openings.plies;
    let mut text = String::new();
    // Writing to a String cannot fail.
    let mut line = |args: std::fmt::Arguments<'_>| {
        let _ = text.write_fmt(args);
        text.push('\n');
    };
    line(format_args!("{p1} vs {p2}: {} {unit}", games.len()));
    match (openings.self_play, openings.balance) {
        (Some((min, max)), _) => line(format_args!(
            "openings: {plies} random plies, then {SELF_PLAY} self-play to the first position \
             with {min}-{max} seeds on the board"
        )),
        (None, Balance::Within(centiseeds)) => line(format_args!(
            "openings: {plies} random plies, valued within ±{} seeds by a {}-node search \
             ({} pairs had none in {BALANCE_TRIES} draws: the most even was played)",
            f64::from(centiseeds) / 100.0,
            balance_nodes(rules),
            openings.uneven
        )),
        (None, Balance::Any) => line(format_args!("openings: {plies} random plies")),
    }
    if openings.repeated > 0 {
        line(format_args!(
            "{} pairs repeat an earlier pair's opening (every draw had been played): \
             more --opening-plies give more openings",
            openings.repeated
        ));
    }
    line(format_args!(
        "p1 wins {}, draws {}, losses {}",
        summary.wins, summary.draws, summary.losses
    ));
    line(format_args!(
        "p1 score {:.1}% ({:.1} / {})",
        100.0 * summary.score,
        summary.score * summary.games as f64,
        summary.games
    ));
    let (elo, low, high) = summary.elo();
    line(format_args!(
        "Elo difference {elo:+.0} (95% interval {low:+.0} to {high:+.0})"
    ));
    line(format_args!("average length {:.1} plies", summary.length));
    if summary.faults > 0 {
        line(format_args!(
            "{} {unit} lost by an engine fault (crash, hang or illegal move)",
            summary.faults
        ));
    }
    line(format_args!("records in {records}"));
    text
}
