//! `sow play`: play in the terminal, people or computers on either side.

use std::io::{self, BufRead, Write};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};
use sowing::{End, Event, Game, Move, Outcome, Record, Report, Side, Variant};
use sowing_engine::{Limits, Player, PlayerSpec, TableSet};

use crate::board::draw;
use crate::options::{GameOptions, TablesOption};

/// Play in the terminal.
///
/// Each side is `human` (you type the moves) or a computer player. Type a pit letter to
/// sow it (A-F for South, a-f for North; A-L / a-l on 2×12 — your own pits in either
/// case), `pass` when you cannot move, or `undo`, `redo`, `save FILE`, `load FILE`, `board`,
/// `help`, `quit` (twice in an unfinished game, which is not saved).
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    options: GameOptions,
    /// Who plays South: human, random, greedy, level:1 (beginner) … level:6 (full strength),
    /// perfect (the endgame tables, else level 6),
    /// or search / mcts with settings (docs/engine.md).
    #[arg(long, default_value = "human")]
    south: String,
    /// Who plays North (same choices).
    #[arg(long, default_value = "level:3")]
    north: String,
    /// Time a computer may think about a move, in milliseconds.
    #[arg(long, default_value_t = 1000)]
    movetime: u64,
    /// Seed for the computer players' random choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Start from a saved game record.
    #[arg(long, value_name = "FILE")]
    load: Option<String>,
    #[command(flatten)]
    tables: TablesOption,
}

/// One side's player: a person at the keyboard, or a computer.
enum Seat {
    Human,
    Computer(Box<dyn Player>),
}

impl Seat {
    fn new(spec: &str, seed: u64, tables: Option<Arc<TableSet>>) -> Result<Seat> {
        if spec == "human" {
            return Ok(Seat::Human);
        }
        let spec: PlayerSpec = spec.parse()?;
        Ok(Seat::Computer(spec.build_with_tables(seed, tables)))
    }

    fn name(&self) -> String {
        match self {
            Seat::Human => "human".to_owned(),
            Seat::Computer(player) => player.name(),
        }
    }
}

pub fn run(args: Args) -> Result<()> {
    let rules = args.options.rules_or(Variant::HoyitoII)?;
    let tables = args.tables.resolve()?;
    let mut seats = [
        Seat::new(&args.south, args.seed, tables.clone())?,
        Seat::new(&args.north, args.seed.wrapping_add(1), tables)?,
    ];
    let mut game = match &args.load {
        Some(path) => load(path)?,
        None => Game::new(rules),
    };
    let limits = Limits {
        time: Some(Duration::from_millis(args.movetime)),
        ..Limits::default()
    };
    let stdin = io::stdin();
    let mut lines = stdin.lock().lines();

    println!(
        "{} on 2×{}: South ({}) against North ({}). Type help for commands.\n",
        game.rules().variant(),
        game.rules().pits_per_row(),
        seats[0].name(),
        seats[1].name()
    );
    print!("{}", draw(game.position()));
    // `quit` in an unfinished game asks first: a second `quit` in a row leaves.
    let mut quitting = false;
    loop {
        if game.is_over() {
            announce_end(&game);
            if seats.iter().all(|s| matches!(s, Seat::Computer(_))) {
                return Ok(());
            }
            println!("Type undo to take back moves, save FILE to keep the game, or quit.");
        }
        let side = game.position().to_move();
        if !game.is_over() {
            if let Seat::Computer(player) = &mut seats[side.index()] {
                let mv = player.choose(&game, &limits, &mut |_| {});
                play_and_show(&mut game, mv, &player.name())?;
                continue;
            }
        }
        print!("{} > ", prompt(&game));
        io::stdout().flush()?;
        let Some(line) = lines.next() else {
            println!();
            return Ok(());
        };
        let line = line?;
        let mut words = line.split_whitespace();
        let Some(command) = words.next() else {
            continue;
        };
        let argument = words.next();
        let asked = std::mem::take(&mut quitting);
        match command {
            "quit" | "exit" => {
                if asked || game.is_over() || game.moves().is_empty() {
                    return Ok(());
                }
                quitting = true;
                println!(
                    "The game is not over and is not saved. Type save FILE to keep it, or \
                     {command} again to leave without saving."
                );
            }
            "help" | "?" => print_help(&game),
            "board" => print!("{}", draw(game.position())),
            "undo" => {
                // Take back to the last position where a person is to move.
                let mut undone = 0;
                while game.undo().is_some() {
                    undone += 1;
                    let to_move = game.position().to_move();
                    if matches!(seats[to_move.index()], Seat::Human) {
                        break;
                    }
                }
                if undone == 0 {
                    println!("Nothing to undo.");
                }
                print!("{}", draw(game.position()));
            }
            "redo" => match game.redo() {
                Some(_) => print!("{}", draw(game.position())),
                None => println!("Nothing to redo."),
            },
            "save" => match argument {
                None => println!("save needs a file name: save FILE"),
                Some(path) => match save(&game, &seats, path) {
                    Ok(()) => println!("Saved to {path}."),
                    Err(error) => println!("Could not save: {error:#}"),
                },
            },
            "load" => match argument {
                None => println!("load needs a file name: load FILE"),
                Some(path) => match load(path) {
                    Ok(loaded) => {
                        game = loaded;
                        println!("Loaded {path}.");
                        print!("{}", draw(game.position()));
                    }
                    Err(error) => println!("Could not load, the game is unchanged: {error:#}"),
                },
            },
            token if !game.is_over() => match game.parse_move(&own_case(token, &game)) {
                Ok(mv) => {
                    if let Err(error) = play_and_show(&mut game, mv, "you") {
                        println!("{error}");
                    }
                }
                Err(error) => println!("{error}. Type help for commands."),
            },
            _ => println!("The game is over. Type undo, save FILE, load FILE or quit."),
        }
    }
}

/// A single pit letter read as one of the mover's own pits, in either case (`d` is South's
/// `D` when South is to move), as the page reads them; anything else as typed.
fn own_case(token: &str, game: &Game) -> String {
    let mut chars = token.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_ascii_alphabetic() => match game.position().to_move() {
            Side::South => c.to_ascii_uppercase().to_string(),
            Side::North => c.to_ascii_lowercase().to_string(),
        },
        _ => token.to_owned(),
    }
}

fn prompt(game: &Game) -> String {
    if game.is_over() {
        "game over".to_owned()
    } else {
        format!(
            "{} to move [{}]",
            game.position().to_move(),
            game.legal_names().join(" ")
        )
    }
}

/// Plays a move and says what happened: laps, relays, captures, extra turn, pass.
fn play_and_show(game: &mut Game, mv: Move, who: &str) -> Result<()> {
    let n = game.rules().pits_per_row();
    let side = game.position().to_move();
    let mut trace = Vec::new();
    let report = game.play_traced(mv, &mut trace)?;
    println!("\n{}", describe(side, mv, n, &report, &trace, who));
    print!("{}", draw(game.position()));
    Ok(())
}

fn describe(side: Side, mv: Move, n: usize, report: &Report, trace: &[Event], who: &str) -> String {
    let name = mv.name(n);
    if mv == Move::Pass {
        return format!("{side} ({who}) passes: no sowing move.");
    }
    let relays: Vec<String> = trace
        .iter()
        .filter_map(|e| match e {
            Event::Lift {
                pit, relay: true, ..
            } => Some(pit.letter(n).to_string()),
            _ => None,
        })
        .collect();
    let mut text = format!(
        "{side} ({who}) plays {name}: {} lap{}",
        report.laps,
        plural(report.laps)
    );
    if !relays.is_empty() {
        text += &format!(" (relays at {})", relays.join(", "));
    }
    if report.captured > 0 {
        let pits: Vec<String> = trace
            .iter()
            .filter_map(|e| match e {
                Event::Take {
                    pit,
                    why: sowing::TakeReason::Capture,
                    ..
                } => Some(pit.letter(n).to_string()),
                _ => None,
            })
            .collect();
        text += &format!(", captures {} from {}", report.captured, pits.join(", "));
    }
    text.push('.');
    if report.extra_turn {
        text += &format!(" {side} moves again.");
    }
    text
}

fn plural(count: u32) -> &'static str {
    if count == 1 {
        ""
    } else {
        "s"
    }
}

fn announce_end(game: &Game) {
    let captured = game.position().captured();
    let reason = match game.end() {
        Some(End::Repetition) => {
            "a position recurred; the seeds on the board go to nobody".to_owned()
        }
        Some(end) => end.describe(),
        None => return,
    };
    let result = match game.outcome() {
        Some(Outcome::Win(side)) => format!("{side} wins"),
        _ => "a draw".to_owned(),
    };
    println!(
        "\nGame over: {reason}. {result}, {}-{} (South-North).",
        captured.south, captured.north
    );
}

fn print_help(game: &Game) {
    let n = game.rules().pits_per_row();
    let last = (b'A' + n as u8 - 1) as char;
    println!(
        "Moves: A-{last} sow one of South's pits, a-{} one of North's; pass when you have no move.\n\
         Commands: undo, redo, board, save FILE, load FILE, help, quit.\n\
         The rules: docs/rules.md.",
        last.to_ascii_lowercase()
    );
}

fn save(game: &Game, seats: &[Seat; 2], path: &str) -> Result<()> {
    let mut record = Record::new(game.clone());
    record.set_tag("South", seats[0].name());
    record.set_tag("North", seats[1].name());
    std::fs::write(path, record.to_string()).with_context(|| format!("writing {path}"))
}

fn load(path: &str) -> Result<Game> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {path}"))?;
    Ok(Record::parse(&text)?.game)
}
