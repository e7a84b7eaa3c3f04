//! `sow backup`: a consistent copy of a server's SQLite database while it runs.

use std::path::PathBuf;

use sowing_web::store::Database;

/// Copy the games of a running (or stopped) `sow serve` to a file, through SQLite's online
/// backup: the database as it was at one commit, checked before it is named FILE.
#[derive(clap::Args)]
pub struct Args {
    /// The server's SQLite database.
    #[arg(long, default_value = "sowing.db")]
    db: Database,
    /// Where to write the copy (replaced if it exists).
    file: PathBuf,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let games = sowing_web::store::backup(&args.db, &args.file)
        .map_err(|e| anyhow::anyhow!("--db {}: {e}", args.db))?;
    println!(
        "sow backup: {games} games from {} to {}",
        args.db,
        args.file.display()
    );
    Ok(())
}
