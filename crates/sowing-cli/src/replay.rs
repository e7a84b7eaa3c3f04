//! `sow replay`: the machine interface. Moves in, one line of JSON state out.

use std::io::Read;

use anyhow::{bail, Context, Result};
use sowing::{Game, State};

use crate::options::GameOptions;

/// Play moves from the start (or from a JSON state) and print the JSON state reached.
///
/// Moves are space-separated tokens (A-F for South's pits, a-f for North's, pass), in one
/// argument or several. On an illegal move or malformed input nothing is printed on standard
/// output; standard error says what and where, and the exit code is 2.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    options: GameOptions,
    /// Read the JSON state to start from in FILE, or standard input for '-'.
    #[arg(long, value_name = "FILE|-")]
    from: Option<String>,
    /// The moves to play.
    moves: Vec<String>,
}

pub fn run(args: Args) -> Result<()> {
    let rules = args.options.rules()?;
    let mut game = match &args.from {
        None => Game::new(rules),
        Some(source) => {
            let text = if source == "-" {
                let mut text = String::new();
                std::io::stdin()
                    .read_to_string(&mut text)
                    .context("reading the state from standard input")?;
                text
            } else {
                std::fs::read_to_string(source).with_context(|| format!("reading {source}"))?
            };
            let game = State::from_json(&text)?.to_game(rules)?;
            let from = game.rules();
            if from.variant() != rules.variant() {
                bail!(
                    "the state is a {} game, but --game is {}",
                    from.variant(),
                    rules.variant()
                );
            }
            if args.options.pits.is_some() && from.pits_per_row() != rules.pits_per_row() {
                bail!(
                    "the state has {} pits per row, but --pits is {}",
                    from.pits_per_row(),
                    rules.pits_per_row()
                );
            }
            game
        }
    };
    let tokens = args.moves.iter().flat_map(|arg| arg.split_whitespace());
    for (index, token) in tokens.enumerate() {
        let ply = index + 1;
        let mv = match game.parse_move(token) {
            Ok(mv) => mv,
            Err(error) => bail!(
                "ply {ply}, token {token:?}: {error}; legal moves: {}",
                legal(&game)
            ),
        };
        if let Err(error) = game.play(mv) {
            bail!(
                "ply {ply}, token {token:?}: {error}; legal moves: {}",
                legal(&game)
            );
        }
    }
    println!("{}", State::of(&game).to_json());
    Ok(())
}

/// The legal moves, for error messages.
fn legal(game: &Game) -> String {
    if game.is_over() {
        "none, the game is over".to_owned()
    } else {
        game.legal_names().join(" ")
    }
}
