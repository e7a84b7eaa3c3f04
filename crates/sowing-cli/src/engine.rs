//! `sow engine`: the Universal Game Interface (UGI) on standard input and output, for
//! tournament runners and GUIs. docs/protocol.md documents it with a transcript.
//!
//! This file only parses commands and prints answers: the searching, the table kept from
//! one `go` to the next, the limits and the clock are [`sowing_engine::Engine`]'s. The
//! reader loop answers every command at once; `go` hands the engine to a thread of its
//! own, so `stop`, `isready` and `quit` are answered during a search. Bad input (a line
//! that is not even UTF-8 included) never stops the engine: it answers
//! `info string error: …` and carries on.

use std::io::{self, BufRead, Write};
use std::path::PathBuf;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use anyhow::Result;
use sowing::{Game, Move, Outcome, Position, RuleOption, Rules, Side, Variant};
use sowing_engine::{levels, Clock, Info, Limits, Score, SearchSettings, TableSet};

/// Speak UGI on standard input and output (for tournament runners such as cutegames).
#[derive(clap::Args)]
pub struct Args {
    /// Endgame tables to use (the `tables` option's start value; default: $SOWING_TABLES,
    /// else the user's data directory, when it holds tables for the game).
    #[arg(long, value_name = "DIR")]
    tables: Option<PathBuf>,
}

pub fn run(args: Args) -> Result<()> {
    let tables =
        TableSet::resolve(args.tables.as_deref()).map_err(|e| anyhow::anyhow!("--tables: {e}"))?;
    let out: Output = Arc::new(Mutex::new(Box::new(io::stdout())));
    serve_with_tables(io::stdin().lock(), out, tables)?;
    Ok(())
}

/// Where the engine writes; shared with the search thread.
pub type Output = Arc<Mutex<Box<dyn Write + Send>>>;

fn say(out: &Output, line: &str) {
    let mut out = out.lock().unwrap_or_else(|e| e.into_inner());
    // A closed output is the other side's business; nothing to do about it here.
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// The engine's settings and position.
struct Engine {
    out: Output,
    rules: Rules,
    level: u8,
    hash_mib: usize,
    game: Game,
    /// The search engine, here between searches (a search takes it to its thread); made at
    /// the first `go`.
    searcher: Option<sowing_engine::Engine>,
    search: Option<Search>,
    /// The endgame tables (option `tables`), used by levels 5 and 6.
    tables: Option<Arc<TableSet>>,
}

/// Reads commands from `input` until `quit` or the end of input, answering on `out`.
/// At the end of input a running search is finished (not stopped), then the engine exits.
#[cfg(test)]
pub fn serve(input: impl BufRead, out: Output) -> io::Result<()> {
    serve_with_tables(input, out, None)
}

/// [`serve`] with these endgame tables to start with.
pub fn serve_with_tables(
    mut input: impl BufRead,
    out: Output,
    tables: Option<Arc<TableSet>>,
) -> io::Result<()> {
    let rules = Rules::new(Variant::HoyitoII);
    let mut engine = Engine {
        out,
        rules,
        level: 6,
        hash_mib: 64,
        game: Game::new(rules),
        searcher: None,
        search: None,
        tables,
    };
    let mut bytes = Vec::new();
    loop {
        bytes.clear();
        if input.read_until(b'\n', &mut bytes)? == 0 {
            break;
        }
        let Ok(line) = std::str::from_utf8(&bytes) else {
            say(&engine.out, "info string error: the line is not UTF-8 text");
            continue;
        };
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, rest)) = words.split_first() else {
            continue;
        };
        if command == "quit" {
            engine.stop_search();
            return Ok(());
        }
        if let Err(message) = engine.command(command, rest) {
            say(&engine.out, &format!("info string error: {message}"));
        }
    }
    engine.wait_search();
    Ok(())
}

/// A search running on its own thread, which hands the engine back when it ends.
struct Search {
    handle: JoinHandle<sowing_engine::Engine>,
    /// Set to stop it.
    stop: Arc<AtomicBool>,
    /// Set by the search just before it sends `bestmove`: from then on the engine is ready
    /// for the next command, though the thread may take a moment more to end.
    answered: Arc<AtomicBool>,
}

impl Engine {
    fn searching(&mut self) -> bool {
        match &self.search {
            Some(search)
                if !search.answered.load(Ordering::Acquire) && !search.handle.is_finished() =>
            {
                true
            }
            Some(_) => {
                self.wait_search();
                false
            }
            None => false,
        }
    }

    fn wait_search(&mut self) {
        if let Some(search) = self.search.take() {
            // A search that panicked loses its engine: the next `go` makes another.
            self.searcher = search.handle.join().ok();
        }
    }

    fn stop_search(&mut self) {
        if let Some(search) = &self.search {
            search.stop.store(true, Ordering::Relaxed);
        }
        self.wait_search();
    }

    fn command(&mut self, command: &str, rest: &[&str]) -> Result<(), String> {
        match command {
            "ugi" => {
                self.identify();
                Ok(())
            }
            "isready" => {
                say(&self.out, "readyok");
                Ok(())
            }
            "setoption" => {
                self.busy()?;
                self.set_option(rest)
            }
            "uginewgame" => {
                self.busy()?;
                self.game = Game::new(self.rules);
                if let Some(searcher) = &mut self.searcher {
                    searcher.new_game();
                }
                Ok(())
            }
            "position" => {
                self.busy()?;
                self.position(rest)
            }
            "go" => {
                self.busy()?;
                self.go(rest)
            }
            "stop" => {
                self.stop_search();
                Ok(())
            }
            "query" => self.query(rest),
            _ => Err(format!("unknown command {command:?}")),
        }
    }

    fn busy(&mut self) -> Result<(), String> {
        if self.searching() {
            Err("a search is running; send stop first".to_owned())
        } else {
            Ok(())
        }
    }

    fn identify(&self) {
        let mut lines = vec![
            format!("id name sow {}", env!("CARGO_PKG_VERSION")),
            "id author the sowing project".to_owned(),
            "option name game type combo default hoyito-ii var hoyito-ii var hoyito-iii var ayoayo"
                .to_owned(),
            "option name pits type spin default 6 min 6 max 12".to_owned(),
        ];
        // The rule options, from the rules' table.
        for option in RuleOption::all() {
            let mut line = format!(
                "option name {} type combo default {}",
                option.name,
                option.default_value()
            );
            for value in option.values {
                line += &format!(" var {}", value.name);
            }
            lines.push(line);
        }
        lines.extend([
            "option name level type spin default 6 min 1 max 6".to_owned(),
            "option name hash type spin default 64 min 1 max 4096".to_owned(),
            "option name tables type string default <empty>".to_owned(),
            "ugiok".to_owned(),
        ]);
        for line in lines {
            say(&self.out, &line);
        }
    }

    /// `setoption name N value V`. A change of rules starts a new game from the start.
    fn set_option(&mut self, rest: &[&str]) -> Result<(), String> {
        let usage = "expected setoption name <name> value <value>";
        let ["name", name, "value", value @ ..] = rest else {
            return Err(usage.to_owned());
        };
        let value = value.join(" ");
        fn parse<T: FromStr>(value: &str) -> Result<T, String>
        where
            T::Err: std::fmt::Display,
        {
            value.parse::<T>().map_err(|e| e.to_string())
        }
        let mut rules = self.rules;
        match *name {
            "game" => {
                // The options the new game shares with the old one are kept.
                let variant: Variant = parse(&value)?;
                let mut next = Rules::new(variant);
                for (option, value) in rules.options() {
                    if option.belongs_to(variant) {
                        next.set_option(option.name, value)
                            .map_err(|e| e.to_string())?;
                    }
                }
                rules = next;
            }
            "pits" => {
                let pits: usize = parse(&value)?;
                rules = rules.with_pits(pits).map_err(|e| e.to_string())?;
            }
            "level" => {
                let level: u8 = parse(&value)?;
                if !levels::LEVELS.contains(&level) {
                    return Err(format!("level {level} is not in 1-6"));
                }
                self.level = level;
                return Ok(());
            }
            "hash" => {
                let mib: usize = parse(&value)?;
                if !(1..=4096).contains(&mib) {
                    return Err(format!("hash {mib} is not in 1-4096 MiB"));
                }
                self.hash_mib = mib;
                return Ok(());
            }
            "tables" => {
                // A directory of tables; empty (or `<empty>`) turns them off.
                self.tables = match value.as_str() {
                    "" | "<empty>" => None,
                    dir => Some(Arc::new(
                        TableSet::open(std::path::Path::new(dir)).map_err(|e| e.to_string())?,
                    )),
                };
                return Ok(());
            }
            other if RuleOption::named(other).is_some() => {
                rules.set_option(other, &value).map_err(|e| e.to_string())?
            }
            other => return Err(format!("unknown option {other:?}")),
        }
        if rules != self.rules {
            self.rules = rules;
            self.game = Game::new(rules);
        }
        Ok(())
    }

    /// `position startpos|fen <text> [moves M…]`: refused whole if anything is wrong.
    fn position(&mut self, rest: &[&str]) -> Result<(), String> {
        let split = rest.iter().position(|&w| w == "moves");
        let (setup, moves) = match split {
            Some(at) => (&rest[..at], &rest[at + 1..]),
            None => (rest, &rest[rest.len()..]),
        };
        let mut game = match setup {
            ["startpos"] => Game::new(self.rules),
            ["fen", text @ ..] if !text.is_empty() => {
                let position: Position = text.join(" ").parse().map_err(|e| format!("{e}"))?;
                Game::from_position(position)
            }
            _ => return Err("expected position startpos|fen <position text> [moves M…]".into()),
        };
        for (i, token) in moves.iter().enumerate() {
            let mv = game
                .parse_move(token)
                .map_err(|e| format!("move {}: {e}; position unchanged", i + 1))?;
            game.play(mv)
                .map_err(|e| format!("move {}: {e}; position unchanged", i + 1))?;
        }
        self.rules = game.rules();
        self.game = game;
        Ok(())
    }

    /// The limits of `go …`, as given: the engine resolves them.
    fn limits(rest: &[&str]) -> Result<Limits, String> {
        let mut limits = Limits::default();
        let mut clock = [None::<u64>; 4];
        let mut words = rest.iter();
        while let Some(&word) = words.next() {
            if word == "infinite" {
                limits.infinite = true;
                continue;
            }
            let value = words
                .next()
                .ok_or_else(|| format!("go {word}: missing its number"))?;
            let number: u64 = value
                .parse()
                .map_err(|_| format!("go {word} {value}: not a whole number"))?;
            match word {
                "movetime" => limits.time = Some(Duration::from_millis(number.max(1))),
                "nodes" => limits.nodes = Some(number.max(1)),
                "depth" => limits.depth = Some(number.clamp(1, 240) as u32),
                "p1time" => clock[0] = Some(number),
                "p2time" => clock[1] = Some(number),
                "p1inc" => clock[2] = Some(number),
                "p2inc" => clock[3] = Some(number),
                _ => return Err(format!("unknown go parameter {word:?}")),
            }
        }
        for side in [Side::South, Side::North] {
            let i = side.index();
            limits.clock[side] = clock[i].map(|left| Clock {
                left: Duration::from_millis(left),
                increment: Duration::from_millis(clock[2 + i].unwrap_or(0)),
            });
        }
        Ok(limits)
    }

    /// The level's search settings, with a table no larger than the `hash` option (level 6
    /// takes the option's size).
    fn settings(&self) -> SearchSettings {
        let mut settings = levels::settings(self.level);
        settings.hash_mib = if self.level == 6 {
            self.hash_mib
        } else {
            settings.hash_mib.min(self.hash_mib)
        };
        settings
    }

    fn go(&mut self, rest: &[&str]) -> Result<(), String> {
        let mut limits = Engine::limits(rest)?;
        if self.game.is_over() {
            say(&self.out, "info string error: the game is over");
            say(&self.out, "bestmove none");
            return Ok(());
        }
        let stop = Arc::new(AtomicBool::new(false));
        limits.stop = Some(stop.clone());
        let settings = self.settings();
        let mut searcher = self
            .searcher
            .take()
            .unwrap_or_else(|| sowing_engine::Engine::new(settings.clone(), 0));
        searcher.set_settings(settings);
        searcher.set_tables(self.tables.clone());
        let game = self.game.clone();
        let out = self.out.clone();
        let answered = Arc::new(AtomicBool::new(false));
        let answer = answered.clone();
        let handle = std::thread::spawn(move || {
            let n = game.rules().pits_per_row();
            // A root the tables would hold but for its layer not being built (a set-up
            // position between the layers play reaches): say so, then search.
            let seeds = game.position().seeds_on_board();
            if let Some(tables) = searcher.tables_for(game.rules()) {
                if seeds <= tables.max_seeds() && !tables.built(seeds) {
                    say(
                        &out,
                        &format!(
                            "info string tables: layer {seeds} (seeds on the board) is not \
                             built, so this position is searched; add it with `sow tables \
                             build --layer {seeds}`"
                        ),
                    );
                }
            }
            let result = searcher.go(&game, &limits, &mut |info: &Info| {
                say(&out, &info_line(info, n));
            });
            answer.store(true, Ordering::Release);
            say(&out, &format!("bestmove {}", result.best.name(n)));
            searcher
        });
        self.search = Some(Search {
            handle,
            stop,
            answered,
        });
        Ok(())
    }

    fn query(&self, rest: &[&str]) -> Result<(), String> {
        let answer = match rest {
            ["gameover"] => self.game.is_over().to_string(),
            ["p1turn"] => (self.game.position().to_move() == Side::South).to_string(),
            ["result"] => match self.game.outcome() {
                None => "none",
                Some(Outcome::Win(Side::South)) => "p1win",
                Some(Outcome::Win(Side::North)) => "p2win",
                Some(Outcome::Draw) => "draw",
            }
            .to_owned(),
            _ => return Err("expected query gameover|p1turn|result".to_owned()),
        };
        say(&self.out, &format!("response {answer}"));
        Ok(())
    }
}

/// `info depth D score cp X|proven M nodes N nps N pv …`.
pub fn info_line(info: &Info, pits_per_row: usize) -> String {
    let score = match info.score {
        Score::Estimate(centi) => format!("cp {centi}"),
        Score::Proven(margin) => format!("proven {margin}"),
    };
    let pv: Vec<String> = info
        .pv
        .iter()
        .map(|mv: &Move| mv.name(pits_per_row).to_string())
        .collect();
    format!(
        "info depth {} score {score} nodes {} nps {} pv {}",
        info.depth,
        info.nodes,
        info.nps,
        pv.join(" ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The engine's output, shared with the test.
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().write(bytes)
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    fn lines_of(buffer: &Mutex<Vec<u8>>) -> Vec<String> {
        let text = String::from_utf8(buffer.lock().unwrap().clone()).unwrap();
        text.lines().map(str::to_owned).collect()
    }

    /// Runs the engine on `input` and returns its output lines.
    fn session(input: &str) -> Vec<String> {
        let buffer = Arc::new(Mutex::new(Vec::<u8>::new()));
        let out: Output = Arc::new(Mutex::new(Box::new(Shared(buffer.clone()))));
        serve(io::Cursor::new(input.to_owned()), out).unwrap();
        lines_of(&buffer)
    }

    /// Input that gives each command only once the engine has answered `bestmove` to every
    /// `go` before it, as a tournament runner does.
    struct Runner {
        commands: Vec<String>,
        output: Arc<Mutex<Vec<u8>>>,
        sent_go: usize,
    }

    impl io::Read for Runner {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let patience = std::time::Instant::now() + Duration::from_secs(20);
            while lines_of(&self.output)
                .iter()
                .filter(|l| l.starts_with("bestmove"))
                .count()
                < self.sent_go
            {
                if std::time::Instant::now() > patience {
                    // No answer coming: end the input, and the test reads what there is.
                    return Ok(0);
                }
                std::thread::sleep(Duration::from_millis(1));
            }
            if self.commands.is_empty() {
                return Ok(0);
            }
            let line = format!("{}\n", self.commands.remove(0));
            self.sent_go += usize::from(line.starts_with("go"));
            buf[..line.len()].copy_from_slice(line.as_bytes());
            Ok(line.len())
        }
    }

    /// Runs `commands` as a tournament runner would (each after the `bestmove` of the `go`
    /// before it) and returns the output lines.
    fn run(commands: &[&str]) -> Vec<String> {
        let output = Arc::new(Mutex::new(Vec::<u8>::new()));
        let out: Output = Arc::new(Mutex::new(Box::new(Shared(output.clone()))));
        let runner = Runner {
            commands: commands.iter().map(|&c| c.to_owned()).collect(),
            output: output.clone(),
            sent_go: 0,
        };
        serve(io::BufReader::new(runner), out).unwrap();
        lines_of(&output)
    }

    /// The node count of the last `info` line before each `bestmove`.
    fn nodes_per_go(lines: &[String]) -> Vec<u64> {
        let mut nodes = Vec::new();
        let mut last = 0;
        for line in lines {
            if let Some(rest) = line.split(" nodes ").nth(1) {
                last = rest.split(' ').next().unwrap().parse().unwrap();
            }
            if line.starts_with("bestmove") {
                nodes.push(last);
            }
        }
        nodes
    }

    #[test]
    fn the_table_is_kept_from_one_go_to_the_next_until_uginewgame() {
        let lines = run(&[
            "position startpos moves C",
            "go depth 7",
            "go depth 7",
            "uginewgame",
            "position startpos moves C",
            "go depth 7",
        ]);
        assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
        let nodes = nodes_per_go(&lines);
        assert_eq!(nodes.len(), 3, "{lines:?}");
        assert!(
            nodes[1] < nodes[0],
            "the second go uses the table: {nodes:?}"
        );
        assert_eq!(nodes[2], nodes[0], "uginewgame clears it: {nodes:?}");
    }

    #[test]
    fn a_line_that_is_not_utf8_is_an_error_and_the_engine_carries_on() {
        let buffer = Arc::new(Mutex::new(Vec::<u8>::new()));
        let out: Output = Arc::new(Mutex::new(Box::new(Shared(buffer.clone()))));
        let input: &[u8] = b"isready\nposition startpos moves \xff\nisready\n";
        serve(io::Cursor::new(input), out).unwrap();
        let lines = lines_of(&buffer);
        assert_eq!(lines.len(), 3, "{lines:?}");
        assert_eq!(lines[0], "readyok");
        assert!(lines[1].starts_with("info string error: "), "{lines:?}");
        assert_eq!(lines[2], "readyok");
    }

    #[test]
    fn the_next_command_right_after_bestmove_is_taken() {
        // The search thread still hands the engine back after `bestmove`; a `position`
        // sent at once must not be refused as "a search is running".
        let mut commands = vec!["setoption name hash value 256"];
        for _ in 0..6 {
            commands.extend(["position startpos", "go depth 1"]);
        }
        let lines = run(&commands);
        assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
        assert_eq!(
            lines.iter().filter(|l| l.starts_with("bestmove")).count(),
            6
        );
    }

    fn bestmove(lines: &[String]) -> &str {
        lines
            .iter()
            .find_map(|l| l.strip_prefix("bestmove "))
            .expect("a bestmove line")
    }

    #[test]
    fn handshake_lists_every_option() {
        let lines = session("ugi\nisready\n");
        assert!(lines[0].starts_with("id name sow"));
        for option in [
            "game",
            "pits",
            "casa-rows",
            "leftover",
            "final-four",
            "level",
            "hash",
            "tables",
        ] {
            assert!(
                lines
                    .iter()
                    .any(|l| l.starts_with(&format!("option name {option} type"))),
                "{option} missing: {lines:?}"
            );
        }
        assert_eq!(lines[lines.len() - 2], "ugiok");
        assert_eq!(lines[lines.len() - 1], "readyok");
        // The rule options' lines, as docs/protocol.md gives them.
        for line in [
            "option name casa-rows type combo default any var any var opponent",
            "option name leftover type combo default last-mover var last-mover var holder",
            "option name final-four type combo default capturer var capturer var south var north",
        ] {
            assert!(lines.iter().any(|l| l == line), "{line} missing: {lines:?}");
        }
    }

    #[test]
    fn an_option_of_another_game_is_refused() {
        let lines = session(
            "setoption name leftover value holder\nsetoption name game value ayoayo\n\
             setoption name leftover value holder\nsetoption name final-four value north\n\
             setoption name leftover value nobody\nisready\n",
        );
        assert_eq!(
            lines,
            [
                "info string error: leftover is not an option of hoyito-ii (it is for ayoayo); \
                 hoyito-ii has casa-rows only",
                "info string error: final-four is not an option of ayoayo (it is for \
                 hoyito-iii); ayoayo has leftover only",
                "info string error: unknown leftover \"nobody\" (expected last-mover or holder)",
                "readyok",
            ]
        );
    }

    #[test]
    fn go_depth_answers_a_legal_move_with_info() {
        let lines =
            session("setoption name game value ayoayo\nposition startpos moves C a\ngo depth 3\n");
        let mv = bestmove(&lines);
        let mut game = Game::new(Rules::new(Variant::Ayoayo));
        for token in ["C", "a"] {
            game.play(game.parse_move(token).unwrap()).unwrap();
        }
        assert!(
            game.legal_moves().contains(&game.parse_move(mv).unwrap()),
            "{lines:?}"
        );
        let info = lines
            .iter()
            .find(|l| l.starts_with("info depth 3 "))
            .expect("depth 3 info");
        assert!(info.contains(" score ") && info.contains(" nodes ") && info.contains(" pv "));
    }

    #[test]
    fn the_tables_option_plays_value_optimal_moves_and_refuses_a_bad_directory() {
        let dir = std::env::temp_dir().join(format!("sow-ugi-tables-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let rules = Rules::new(Variant::HoyitoII);
        sowing_tables::build::build(&dir, rules, 7, &sowing_tables::build::Options::all_layers())
            .unwrap();
        let tables = sowing_tables::Tables::open(&dir, rules).unwrap();
        let family = tables.family();
        let mut checked = 0;
        for index in (0..family.layer_len(7)).step_by(311) {
            let pos = family.position(7, index);
            let probe = tables.probe(&pos).unwrap();
            if pos.is_over() || probe.moves.iter().all(|m| m.1 == probe.value) {
                continue;
            }
            let lines = session(&format!(
                "setoption name tables value /nonexistent/sow-tables\n\
                 setoption name tables value {}\nposition fen {pos}\ngo depth 1\n",
                dir.display()
            ));
            assert!(
                lines[0].starts_with("info string error: /nonexistent/sow-tables"),
                "{lines:?}"
            );
            let mv = Move::parse(bestmove(&lines), 6).unwrap();
            let played = probe.moves.iter().find(|m| m.0 == mv).unwrap().1;
            assert_eq!(played, probe.value, "{pos}: {lines:?}");
            let proven = format!(" score proven {} ", probe.value);
            assert!(lines.iter().any(|l| l.contains(&proven)), "{lines:?}");
            checked += 1;
        }
        assert!(checked > 20, "{checked}");
        // Turned off again, the same engine searches (no proven answer at depth 1 here).
        let pos = family.position(7, 4242);
        let lines = session(&format!(
            "setoption name tables value {}\nsetoption name tables value <empty>\n\
             position fen {pos}\ngo depth 1\n",
            dir.display()
        ));
        assert!(
            lines.iter().any(|l| l.starts_with("info depth 1 score cp")),
            "{lines:?}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn stop_and_isready_are_answered_during_an_infinite_search() {
        let lines = session("go infinite\nisready\nstop\nquery p1turn\n");
        assert!(lines.iter().any(|l| l == "readyok"));
        bestmove(&lines);
        assert_eq!(lines.last().unwrap(), "response true");
    }

    #[test]
    fn quit_stops_a_search() {
        let lines = session("go infinite\nquit\nisready\n");
        bestmove(&lines);
        assert!(
            !lines.iter().any(|l| l == "readyok"),
            "nothing is read after quit"
        );
    }

    #[test]
    fn malformed_lines_get_an_error_and_the_engine_carries_on() {
        let input = "hello\nsetoption name game value chess\nsetoption name level value 9\n\
                     setoption name pits\nsetoption name colour value red\ngo movetime\n\
                     go nodes x\ngo sideways 3\nposition\nposition fen hoyito-ii 4,4\n\
                     query\nquery weather\nisready\n";
        let lines = session(input);
        let errors = lines
            .iter()
            .filter(|l| l.starts_with("info string error: "))
            .count();
        assert_eq!(errors, 12, "{lines:?}");
        assert_eq!(lines.last().unwrap(), "readyok");
    }

    #[test]
    fn an_illegal_move_refuses_the_whole_position() {
        // From a fen with North to move, a refused `position` must leave North to move.
        let lines = session(
            "position fen hoyito-ii 1,2,0,0,0,3/0,1,0,2,0,0 20-20 N -\nquery p1turn\n\
             position startpos moves C pass\nquery p1turn\n\
             position startpos moves C Z\nquery p1turn\n",
        );
        let errors: Vec<&String> = lines.iter().filter(|l| l.contains("error")).collect();
        assert_eq!(errors.len(), 2, "{lines:?}");
        assert!(
            errors[0].contains("move 2") && errors[1].contains("move 2"),
            "{errors:?}"
        );
        let responses: Vec<&String> = lines.iter().filter(|l| l.starts_with("response")).collect();
        assert_eq!(responses, ["response false"; 3]);
    }

    #[test]
    fn fen_positions_and_results() {
        let lines = session(
            "position fen hoyito-ii 0,0,0,1,3,1/3,0,0,0,0,5 20-16 S -\nquery result\ngo depth 2\n",
        );
        assert_eq!(lines[0], "response none");
        assert!(["D", "F"].contains(&bestmove(&lines)), "{lines:?}");
        let over = session(
            "position fen ayoayo 0,0,0,0,0,0/0,0,0,0,0,0 30-18 S N\nquery gameover\nquery result\n",
        );
        assert_eq!(over, ["response true", "response p1win"]);
    }
}
