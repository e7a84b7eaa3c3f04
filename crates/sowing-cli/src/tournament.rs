//! `sow tournament create`: the operator schedules a tournament in the server's database
//! (docs/web.md, "Tournaments"); the servers sharing it direct it from its start.

use sowing_web::requests::{ClockRequest, TournamentRequest};
use sowing_web::store::Database;

/// Tournaments run by the site.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand)]
enum Command {
    /// Schedule a tournament; prints its id.
    Create(Create),
}

/// A tournament to schedule: an arena (`--minutes`) or a Swiss (`--rounds`).
#[derive(clap::Args)]
struct Create {
    /// The server's database: an SQLite file, or a postgres:// URL.
    #[arg(long, default_value = "sowing.db")]
    db: Database,
    /// Its name (1 to 60 characters).
    #[arg(long)]
    name: String,
    /// `arena` or `swiss`.
    #[arg(long)]
    kind: String,
    /// `hoyito-ii`, `hoyito-iii` or `ayoayo`.
    #[arg(long)]
    game: String,
    /// Pits per row (default: the game's own).
    #[arg(long)]
    pits: Option<usize>,
    /// Every game's clock: minutes + seconds added per move (`3+2`).
    #[arg(long, default_value = "3+2", value_parser = clock)]
    clock: ClockRequest,
    /// Rated games.
    #[arg(long)]
    rated: bool,
    /// Minutes from now to the start.
    #[arg(long, default_value_t = 5)]
    starts_in: i64,
    /// An arena's length, minutes (1 to 720).
    #[arg(long)]
    minutes: Option<i64>,
    /// A Swiss's rounds (1 to 30).
    #[arg(long)]
    rounds: Option<i64>,
    /// The least rating to join.
    #[arg(long)]
    min_rating: Option<i64>,
}

/// `3+2`: 3 minutes each, 2 seconds added after each move.
fn clock(text: &str) -> Result<ClockRequest, String> {
    let bad = || format!("{text}: expected minutes+seconds, such as 3+2");
    let (minutes, seconds) = text.split_once('+').ok_or_else(bad)?;
    let minutes: f64 = minutes.trim().parse().map_err(|_| bad())?;
    let seconds: i64 = seconds.trim().parse().map_err(|_| bad())?;
    Ok(ClockRequest {
        base_ms: (minutes * 60_000.0).round() as i64,
        increment_ms: seconds * 1000,
    })
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let Command::Create(create) = args.command;
    let now_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)?
        .as_millis() as i64;
    let request = TournamentRequest {
        name: create.name,
        kind: create.kind,
        game: create.game,
        pits: create.pits,
        clock: create.clock,
        rated: create.rated,
        starts_ms: Some(now_ms + create.starts_in.max(0) * 60_000),
        minutes: create.minutes,
        rounds: create.rounds,
        min_rating: create.min_rating,
        options: serde_json::Map::new(),
    };
    let id = sowing_web::create_tournament(&create.db, request)?;
    println!("{id}");
    Ok(())
}
