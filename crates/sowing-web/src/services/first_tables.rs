//! `sow serve` at first start, with no tables given: small endgame tables (each game with
//! its default options, up to [`FIRST_SEEDS`] seeds) are built in the background into the
//! default directory, so that the page's per-pit values and the engines' exact endgames
//! work without a separate step. The server answers meanwhile; the engines take the tables
//! when the build is done. A build cut short resumes at the next start (layers on disk are
//! kept).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use sowing::{Rules, Variant};
use sowing_engine::TableSet;
use sowing_tables::build::{build, Options};
use sowing_tables::Tables;

use crate::services::games::Games;

/// The seeds on the board the first-start tables reach: a few seconds of one core.
pub const FIRST_SEEDS: u8 = 12;

/// The games (default options) the first-start tables are built for.
pub fn first_games() -> [Rules; 3] {
    [
        Rules::new(Variant::HoyitoII),
        Rules::new(Variant::HoyitoIII),
        Rules::new(Variant::Ayoayo),
    ]
}

/// The games among [`first_games`] whose tables in `dir` stop short of `seeds` seeds (or
/// cannot be read: the build replaces a corrupt layer).
pub fn missing(dir: &Path, seeds: usize) -> Vec<Rules> {
    first_games()
        .into_iter()
        .filter(|&rules| {
            Tables::open_up_to(dir, rules, seeds).map_or(true, |t| t.max_seeds() < seeds)
        })
        .collect()
}

/// Builds the tables of `games` to `seeds` seeds in `dir` on a background thread (one
/// core: the server keeps the others), logging its start and end on standard output, and
/// then hands the directory's tables to the engines of `app`. While it runs, `app` reports
/// the tables as being built.
pub fn spawn(app: Arc<Games>, dir: PathBuf, games: Vec<Rules>, seeds: usize) {
    if games.is_empty() {
        return;
    }
    app.set_tables_building(true);
    let names: Vec<String> = games.iter().map(|r| r.variant().to_string()).collect();
    println!(
        "sow serve: no endgame tables found: building small ones ({}, up to {seeds} seeds) \
         in {} in the background",
        names.join(", "),
        dir.display()
    );
    std::thread::spawn(move || {
        let started = Instant::now();
        // The layers play from the start reaches (Options' default): in Hoyito every
        // fourth, all that games from the start need, in a third of the time.
        let options = Options {
            threads: Some(1),
            ..Options::default()
        };
        let result = std::fs::create_dir_all(&dir)
            .map_err(|e| e.to_string())
            .and_then(|()| {
                games.iter().try_for_each(|&rules| {
                    build(&dir, rules, seeds, &options)
                        .map(|_| ())
                        .map_err(|e| e.to_string())
                })
            })
            .and_then(|()| TableSet::open(&dir).map_err(|e| e.to_string()));
        match result {
            Ok(set) => {
                app.replace_tables(Some(Arc::new(set)));
                println!(
                    "sow serve: endgame tables up to {seeds} seeds built in {:.1} s in {}; \
                     the engines use them now",
                    started.elapsed().as_secs_f64(),
                    dir.display()
                );
            }
            Err(e) => eprintln!(
                "sow serve: could not build endgame tables in {}: {e}",
                dir.display()
            ),
        }
        app.set_tables_building(false);
    });
}
