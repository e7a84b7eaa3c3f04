//! `sow analyze`: each move of a game record with the engine's value and best move, and
//! mistakes marked.

use anyhow::{bail, Context, Result};
use sowing::{Game, Record};
use sowing_engine::{PlayerSpec, Score};

use crate::options::LimitOptions;

/// Show each move of a game record with the engine's evaluation and best move.
///
/// Values are for the player who moved, in seeds (an expected final margin, or a proven
/// result). A move that loses 2 seeds or more against the best is marked `?`, 5 or more `??`.
#[derive(clap::Args)]
pub struct Args {
    /// The game record to analyse.
    record: String,
    /// The engine: level:1..6 or search[:settings].
    #[arg(long, default_value = "level:6")]
    engine: String,
    #[command(flatten)]
    limits: LimitOptions,
}

pub fn run(args: Args) -> Result<()> {
    let text = std::fs::read_to_string(&args.record)
        .with_context(|| format!("reading {}", args.record))?;
    let record = Record::parse(&text)?;
    let spec: PlayerSpec = args.engine.parse()?;
    let Some(mut engine) = spec.build_engine(0) else {
        bail!("--engine must be level:1..6 or search[:settings]");
    };
    let limits = args.limits.limits(200);
    let full = &record.game;
    let n = full.rules().pits_per_row();
    let mut game = Game::from_position(*full.start());
    println!(
        "{:>4}  {:<6} {:<5} {:>10}  {:<5} {:>10}  mark",
        "ply", "side", "move", "played", "best", "best value"
    );
    let (mut mistakes, mut blunders) = (0, 0);
    for (ply, &mv) in full.moves().iter().enumerate() {
        let mover = game.position().to_move();
        let best = engine.go(&game, &limits, &mut |_| {});
        let mut after = game.clone();
        after
            .play(mv)
            .with_context(|| format!("move {}", ply + 1))?;
        // The played move's value for the mover: the value of the position it leads to.
        let played = if after.is_over() {
            let c = after.position().captured();
            Score::Proven(i32::from(c[mover]) - i32::from(c[!mover]))
        } else {
            let reply = engine.go(&after, &limits, &mut |_| {});
            if after.position().to_move() == mover {
                reply.score
            } else {
                -reply.score
            }
        };
        let loss = if mv == best.best {
            0
        } else {
            (best.score.centiseeds() - played.centiseeds()).max(0)
        };
        let mark = if loss >= 500 {
            blunders += 1;
            "??"
        } else if loss >= 200 {
            mistakes += 1;
            "?"
        } else {
            ""
        };
        println!(
            "{:>4}  {:<6} {:<5} {:>10}  {:<5} {:>10}  {mark}",
            ply + 1,
            mover.name(),
            mv.name(n).to_string(),
            played.to_string(),
            best.best.name(n).to_string(),
            best.score.to_string()
        );
        game = after;
    }
    if let Some(outcome) = game.outcome() {
        println!("result: {}", outcome.name());
    }
    println!("{mistakes} mistakes (?), {blunders} blunders (??)");
    Ok(())
}
