//! `sow`: play Hoyito II, Hoyito III and Ayoayo in the terminal, and drive the rules from
//! other programs (`replay`, `perft`, `bench`).

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod analyze;
mod backup;
mod bench;
mod board;
mod engine;
mod external;
mod legality;
mod matches;
mod options;
mod perft;
mod play;
mod puzzles;
mod replay;
mod solve;
mod strength;
mod table_sets;
mod tables;
mod tables_bench;
mod tables_compress;
mod tournament;

/// Hoyito II, Hoyito III and Ayoayo: two-row mancala games with relay sowing.
///
/// Start with `sow play` to play in the terminal; `sow play --help` lists the games and
/// options. The rules are in docs/rules.md.
#[derive(Parser)]
#[command(name = "sow", version, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Play(play::Args),
    Replay(replay::Args),
    Perft(perft::Args),
    Bench(bench::Args),
    Engine(engine::Args),
    Match(matches::Args),
    Analyze(analyze::Args),
    Serve(sowing_web::ServeArgs),
    Backup(backup::Args),
    Tables(tables::Args),
    Solve(solve::Args),
    Tournament(tournament::Args),
    Puzzles(puzzles::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Play(args) => play::run(args),
        Command::Replay(args) => replay::run(args),
        Command::Perft(args) => perft::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Engine(args) => engine::run(args),
        Command::Match(args) => matches::run(args),
        Command::Analyze(args) => analyze::run(args),
        Command::Serve(args) => sowing_web::run(args).map_err(Into::into),
        Command::Backup(args) => backup::run(args),
        Command::Tables(args) => tables::run(args),
        Command::Solve(args) => solve::run(args),
        Command::Tournament(args) => tournament::run(args),
        Command::Puzzles(args) => puzzles::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("sow: {error:#}");
            ExitCode::from(2)
        }
    }
}
