//! The engine: one object that every front end drives — the UGI protocol (`sow engine`),
//! the web server and the players of `sow match` and `sow play` — to search a game within
//! [`Limits`].
//!
//! It owns the searcher and its transposition table, which it keeps from one search to the
//! next (a new game, other rules or other settings clear it), resolves the limits — a clock
//! with increment into a time for the move ([`crate::time`]), `infinite` into no limit but
//! the stop flag, none at all into [`SearchSettings::DEFAULT_TIME`] — and stops when the
//! limits' `stop` flag is set, from whatever thread.
//!
//! Given endgame tables ([`Engine::set_tables`]) and settings that allow them (levels 5–6,
//! `perfect`, `search:tables=on`), every node of the search with at most the tables' seeds
//! takes its exact value, and a root inside the tables plays a value-optimal move at once
//! ([`crate::tables::perfect_move`]).
//!
//! ```
//! use sowing::{Game, Rules, Variant};
//! use sowing_engine::{levels, Engine, Limits};
//!
//! let mut engine = Engine::new(levels::settings(4), 0);
//! let game = Game::new(Rules::new(Variant::Ayoayo));
//! let limits = Limits { depth: Some(3), ..Limits::default() };
//! let result = engine.go(&game, &limits, &mut |info| println!("depth {}", info.depth));
//! assert!(game.legal_moves().contains(&result.best));
//! ```

use std::sync::Arc;

use sowing::{Game, Rules};
use sowing_tables::Tables;

use crate::search::{Noise, SearchResult, Searcher};
use crate::tables::{self, TableSet};
use crate::{Info, Limits, Score, SearchSettings};

/// The search engine: settings, a searcher and its table, kept across searches.
pub struct Engine {
    settings: SearchSettings,
    searcher: Searcher,
    seed: u64,
    /// The rules of the positions in the table, if any.
    rules: Option<Rules>,
    /// The endgame tables, if any.
    tables: Option<Arc<TableSet>>,
}

impl Engine {
    /// An engine with these settings; `seed` decides the noise of weak settings.
    pub fn new(settings: SearchSettings, seed: u64) -> Engine {
        let mut searcher = Searcher::new(settings.hash_mib);
        searcher.quiescence = settings.quiescence;
        searcher.use_features = settings.features;
        Engine {
            settings,
            searcher,
            seed,
            rules: None,
            tables: None,
        }
    }

    /// Gives the engine endgame tables (or takes them away). It uses them when its settings
    /// allow ([`SearchSettings::tables`]).
    pub fn set_tables(&mut self, tables: Option<Arc<TableSet>>) {
        self.tables = tables;
    }

    /// The tables this engine would use for `rules`: none unless its settings allow them
    /// and the directory holds tables of that game (a file that cannot be read counts as
    /// none).
    pub fn tables_for(&self, rules: Rules) -> Option<Arc<Tables>> {
        if !self.settings.tables {
            return None;
        }
        self.tables.as_ref()?.tables(rules).ok().flatten()
    }

    /// The settings.
    pub fn settings(&self) -> &SearchSettings {
        &self.settings
    }

    /// Changes the settings. Changed settings start a new game (the table's values came
    /// from the old ones); a new table size allocates a new table.
    pub fn set_settings(&mut self, settings: SearchSettings) {
        if settings == self.settings {
            return;
        }
        if settings.hash_mib != self.settings.hash_mib {
            self.searcher = Searcher::new(settings.hash_mib);
        }
        self.searcher.quiescence = settings.quiescence;
        self.searcher.use_features = settings.features;
        self.settings = settings;
        self.new_game();
    }

    /// Changes the seed of the noise of weak settings.
    pub fn set_seed(&mut self, seed: u64) {
        self.seed = seed;
    }

    /// Forgets what earlier searches learnt (the table and the history): the next search
    /// gives what a fresh engine would.
    pub fn new_game(&mut self) {
        self.searcher.clear();
        self.rules = None;
    }

    /// The limits a search of `game` keeps to: the given ones capped by the settings, with
    /// the side to move's clock turned into a time for the move; `infinite` drops every
    /// given limit but `stop`; with no limit at all, [`SearchSettings::DEFAULT_TIME`].
    pub fn limits(&self, game: &Game, given: &Limits) -> Limits {
        fn min<T: Ord + Copy>(a: Option<T>, b: Option<T>) -> Option<T> {
            match (a, b) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            }
        }
        let settings = &self.settings;
        if given.infinite {
            return Limits {
                time: settings.time,
                nodes: settings.nodes,
                depth: settings.depth,
                stop: given.stop.clone(),
                ..Limits::default()
            };
        }
        let mut limits = Limits {
            time: min(settings.time, given.move_time(game.position().to_move())),
            nodes: min(settings.nodes, given.nodes),
            depth: min(settings.depth, given.depth),
            stop: given.stop.clone(),
            ..Limits::default()
        };
        if limits.time.is_none() && limits.nodes.is_none() && limits.depth.is_none() {
            limits.time = Some(SearchSettings::DEFAULT_TIME);
        }
        limits
    }

    /// Searches the current position of `game` (which must not be over) within `limits`
    /// ([`Engine::limits`]), reporting each completed iteration to `progress`, and returns
    /// the best move with its score and line. What the table learnt stays for the next
    /// search; a game under other rules starts a new game first.
    ///
    /// # Panics
    /// When the game is over.
    pub fn go(
        &mut self,
        game: &Game,
        limits: &Limits,
        progress: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        if self.rules != Some(game.rules()) {
            self.new_game();
            self.rules = Some(game.rules());
        }
        let tables = self.tables_for(game.rules());
        if let Some(perfect) = tables
            .as_deref()
            .and_then(|t| tables::perfect_move(t, game))
        {
            let c = game.position().captured();
            let me = game.position().to_move();
            let score = Score::Proven(i32::from(c[me]) - i32::from(c[!me]) + perfect.value);
            let info = Info {
                depth: 1,
                score,
                nodes: perfect.nodes,
                nps: 0,
                pv: vec![perfect.mv],
            };
            progress(&info);
            return SearchResult {
                best: perfect.mv,
                score,
                depth: 1,
                nodes: perfect.nodes,
                pv: info.pv,
            };
        }
        self.searcher.tables = tables;
        let limits = self.limits(game, limits);
        let noise = Noise {
            amplitude: self.settings.noise,
            seed: self.seed,
        };
        self.searcher.search_warm(game, &limits, noise, progress)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    use std::time::Duration;

    use sowing::{BySide, Variant};

    use super::*;
    use crate::levels;
    use crate::time::Clock;

    /// Hoyito II after a few moves: far from a proven result at the depths used here.
    fn middle_game() -> Game {
        let mut game = Game::new(Rules::new(Variant::HoyitoII));
        for pick in [2, 0, 4, 3, 1, 5] {
            let legal = game.legal_moves();
            game.play(legal[pick % legal.len()]).unwrap();
        }
        assert!(!game.is_over());
        game
    }

    fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    #[test]
    fn the_table_is_kept_from_one_search_to_the_next() {
        let game = middle_game();
        let mut engine = Engine::new(levels::settings(6), 0);
        let first = engine.go(&game, &depth(7), &mut |_| {});
        let again = engine.go(&game, &depth(7), &mut |_| {});
        assert_eq!((again.best, again.depth), (first.best, first.depth));
        assert!(
            again.nodes * 2 < first.nodes,
            "the second search should be cut short by the table: {} then {} nodes",
            first.nodes,
            again.nodes
        );
    }

    #[test]
    fn a_new_game_searches_as_a_fresh_engine() {
        let game = middle_game();
        let mut engine = Engine::new(levels::settings(6), 0);
        let fresh = engine.go(&game, &depth(6), &mut |_| {});
        engine.go(&game, &depth(8), &mut |_| {});
        engine.new_game();
        assert_eq!(engine.go(&game, &depth(6), &mut |_| {}), fresh);
        // So do other settings, and other rules.
        let mut other = Engine::new(levels::settings(6), 0);
        other.go(&game, &depth(8), &mut |_| {});
        other.set_settings(levels::settings(4));
        other.set_settings(levels::settings(6));
        assert_eq!(other.go(&game, &depth(6), &mut |_| {}), fresh);
        let ayoayo = Game::new(Rules::new(Variant::Ayoayo));
        let mut mixed = Engine::new(levels::settings(6), 0);
        let clean = Engine::new(levels::settings(6), 0).go(&ayoayo, &depth(6), &mut |_| {});
        mixed.go(&game, &depth(8), &mut |_| {});
        assert_eq!(mixed.go(&ayoayo, &depth(6), &mut |_| {}), clean);
    }

    #[test]
    fn depth_and_node_limits_are_kept() {
        let game = middle_game();
        let mut engine = Engine::new(levels::settings(6), 0);
        let mut reported = Vec::new();
        let result = engine.go(&game, &depth(5), &mut |info| reported.push(info.depth));
        assert_eq!(result.depth, 5);
        assert_eq!(reported, [1, 2, 3, 4, 5]);
        engine.new_game();
        let nodes = Limits {
            nodes: Some(20_000),
            ..Limits::default()
        };
        let result = engine.go(&game, &nodes, &mut |_| {});
        assert_eq!(result.nodes, 20_000);
        // The settings cap the limits: level 5 searches at most 50,000 nodes, level 4 at
        // most 6 plies deep.
        let more = Limits {
            nodes: Some(80_000),
            ..Limits::default()
        };
        let mut level5 = Engine::new(levels::settings(5), 0);
        assert_eq!(level5.go(&game, &more, &mut |_| {}).nodes, 50_000);
        let mut level4 = Engine::new(levels::settings(4), 0);
        assert_eq!(level4.go(&game, &depth(9), &mut |_| {}).depth, 6);
    }

    #[test]
    fn stop_ends_an_infinite_search() {
        let game = middle_game();
        let mut engine = Engine::new(levels::settings(6), 0);
        let stop = Arc::new(AtomicBool::new(false));
        let limits = Limits {
            infinite: true,
            // Ignored by `infinite`.
            depth: Some(1),
            nodes: Some(1),
            stop: Some(stop.clone()),
            ..Limits::default()
        };
        let mut stopped_at = None;
        let result = engine.go(&game, &limits, &mut |info| {
            // Told to stop after depth 4, from the search's own thread: the same flag any
            // other thread would set.
            if info.depth == 4 {
                stop.store(true, Ordering::Relaxed);
                stopped_at = Some(info.nodes);
            }
        });
        let stopped_at = stopped_at.expect("an infinite search reaches depth 4");
        assert!(result.depth >= 4, "{result:?}");
        // The flag is read every 1,024 nodes.
        assert!(result.nodes <= stopped_at + 1024, "{result:?}");
        assert!(game.legal_moves().contains(&result.best));
    }

    #[test]
    fn limits_resolve_clocks_infinite_and_the_default_time() {
        let game = middle_game();
        assert_eq!(game.position().to_move(), sowing::Side::South);
        let engine = Engine::new(levels::settings(6), 0);
        let clock = |secs| {
            Some(Clock {
                left: Duration::from_secs(secs),
                increment: Duration::ZERO,
            })
        };
        let given = Limits {
            time: Some(Duration::from_secs(9)),
            clock: BySide::new(clock(40), clock(1)),
            depth: Some(12),
            ..Limits::default()
        };
        let limits = engine.limits(&game, &given);
        assert_eq!(limits.time, Some(Duration::from_secs(2)));
        assert_eq!(limits.depth, Some(12));
        let infinite = Limits {
            infinite: true,
            ..given
        };
        let limits = engine.limits(&game, &infinite);
        assert_eq!(
            (limits.time, limits.depth, limits.nodes),
            (None, None, None)
        );
        let limits = engine.limits(&game, &Limits::default());
        assert_eq!(limits.time, Some(SearchSettings::DEFAULT_TIME));
        // A weak level keeps its own caps even when told to search until stopped.
        let level2 = Engine::new(levels::settings(2), 0);
        let limits = level2.limits(&game, &infinite);
        assert_eq!((limits.depth, limits.nodes), (Some(2), Some(1_000)));
    }
}
