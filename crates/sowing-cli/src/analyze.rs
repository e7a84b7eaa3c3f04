//! `sow analyze`: each move of a game record with the engine's value and best move, and
//! mistakes marked; inside the endgame tables, each move's exact loss against the best.

use anyhow::{bail, Context, Result};
use sowing::{BySide, Game, Record, Side};
use sowing_engine::analysis;
use sowing_engine::tables::perfect_move;
use sowing_engine::PlayerSpec;
use sowing_tables::Tables;

use crate::options::{LimitOptions, TablesOption};

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
    #[command(flatten)]
    tables: TablesOption,
    /// Print the analysis as JSON instead (the web server's: each turn with its values
    /// before and after, each move classed best, inaccuracy, mistake or blunder, exact
    /// inside the tables, and each player's accuracy; docs/web.md, "Analysis").
    #[arg(long)]
    json: bool,
}

/// A player's moves inside the tables.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Exact {
    /// Moves made inside the tables.
    pub inside: usize,
    /// Of those, moves that lost value against the best.
    pub lost_value: usize,
    /// Seeds given up by them, with perfect play after.
    pub seeds_lost: i32,
    /// Moves made in a position no larger than the tables reach but in a layer that is not
    /// built (a set-up position between the layers play reaches): no exact loss for them.
    pub not_built: usize,
}

/// The exact loss of each move of `full` against the best (`None` outside the tables), and
/// the sums per player. A move that repeats a position of the game counts as the end it is.
pub fn exact_losses(tables: &Tables, full: &Game) -> (Vec<Option<i32>>, BySide<Exact>) {
    let mut game = Game::from_position(*full.start());
    let mut losses = Vec::new();
    let mut sums = BySide::<Exact>::default();
    for &mv in full.moves() {
        let mover = game.position().to_move();
        let loss = perfect_move(tables, &game).map(|perfect| {
            let played = perfect
                .moves
                .iter()
                .find(|m| m.0 == mv)
                .map_or(perfect.value, |m| m.1);
            perfect.value - played
        });
        let seeds = game.position().seeds_on_board();
        if loss.is_none() && seeds <= tables.max_seeds() && !tables.built(seeds) {
            sums[mover].not_built += 1;
        }
        if let Some(loss) = loss {
            let sum = &mut sums[mover];
            sum.inside += 1;
            if loss > 0 {
                sum.lost_value += 1;
                sum.seeds_lost += loss;
            }
        }
        losses.push(loss);
        if game.play(mv).is_err() {
            break;
        }
    }
    (losses, sums)
}

pub fn run(args: Args) -> Result<()> {
    let text = std::fs::read_to_string(&args.record)
        .with_context(|| format!("reading {}", args.record))?;
    let record = Record::parse(&text)?;
    let spec: PlayerSpec = args.engine.parse()?;
    let tables = args.tables.resolve()?;
    let Some(mut engine) = spec.build_engine_with_tables(0, tables.clone()) else {
        bail!("--engine must be level:1..6, perfect or search[:settings]");
    };
    let limits = args.limits.limits(200);
    let full = &record.game;
    let n = full.rules().pits_per_row();
    let game_tables = match &tables {
        Some(set) => set
            .tables(full.rules())
            .with_context(|| format!("the tables in {}", set.dir().display()))?,
        None => None,
    };
    let looks = analysis::look(
        full,
        &mut engine,
        &limits,
        game_tables.as_deref(),
        &mut |_| {},
    )
    .expect("no stop flag was given");
    if args.json {
        let mut analysis = analysis::summarise(full, &looks);
        analysis.engine = spec.to_string();
        analysis.limits = analysis::describe_limits(&limits);
        analysis.tables = game_tables.as_ref().map(|t| t.max_seeds());
        println!("{}", serde_json::to_string_pretty(&analysis)?);
        return Ok(());
    }
    let exact = game_tables.map(|t| exact_losses(&t, full));
    println!(
        "{:>4}  {:<6} {:<5} {:>10}  {:<5} {:>10}  {:>5}  mark",
        "ply", "side", "move", "played", "best", "best value", "exact"
    );
    let (mut mistakes, mut blunders) = (0, 0);
    for (ply, &mv) in full.moves().iter().enumerate().take(looks.len() - 1) {
        let (before, after) = (&looks[ply], &looks[ply + 1]);
        let mover = before.to_move;
        let (best, _) = before.search.expect("the game went on before a move");
        // The played move's value for the mover: the value of the position it leads to.
        let played = after.for_mover(mover);
        let loss = if mv == best {
            0
        } else {
            (before.score.centiseeds() - played.centiseeds()).max(0)
        };
        let mark = if loss >= analysis::BLUNDER {
            blunders += 1;
            "??"
        } else if loss >= analysis::MISTAKE {
            mistakes += 1;
            "?"
        } else {
            ""
        };
        let loss = exact
            .as_ref()
            .and_then(|(losses, _)| losses.get(ply).copied().flatten())
            .map_or(String::new(), |loss| (-loss).to_string());
        println!(
            "{:>4}  {:<6} {:<5} {:>10}  {:<5} {:>10}  {loss:>5}  {mark}",
            ply + 1,
            mover.name(),
            mv.name(n).to_string(),
            played.to_string(),
            best.name(n).to_string(),
            before.score.to_string()
        );
    }
    if let Some(outcome) = full.outcome() {
        println!("result: {}", outcome.name());
    }
    println!("{mistakes} mistakes (?), {blunders} blunders (??)");
    if let Some((_, sums)) = &exact {
        for side in [Side::South, Side::North] {
            let sum = sums[side];
            println!(
                "tables, {}: {} moves inside the tables, {} lost value, {} seeds lost",
                side.name(),
                sum.inside,
                sum.lost_value,
                sum.seeds_lost
            );
            if sum.not_built > 0 {
                println!(
                    "tables, {}: {} moves in layers not built (a set-up position's seeds on \
                     the board; add a layer with `sow tables build --layer N`)",
                    side.name(),
                    sum.not_built
                );
            }
        }
    }
    Ok(())
}
