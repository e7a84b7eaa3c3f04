//! The game and rule options shared by every subcommand.

use anyhow::{bail, Context, Result};
use clap::builder::{PossibleValue, PossibleValuesParser};
use clap::{Arg, ArgMatches, Args, Command, FromArgMatches};
use sowing::{RuleOption, Rules, Variant};

/// Which game, on which board, with which options.
#[derive(Args, Clone, Debug, Default)]
pub struct GameOptions {
    /// The game: hoyito-ii, hoyito-iii or ayoayo.
    #[arg(long, value_parser = parse::<Variant>)]
    pub game: Option<Variant>,
    /// Pits per row: 6, or 12 for Hoyito II's long board.
    #[arg(long)]
    pub pits: Option<usize>,
    #[command(flatten)]
    pub options: RuleFlags,
}

fn parse<T: std::str::FromStr>(text: &str) -> Result<T, String>
where
    T::Err: std::fmt::Display,
{
    text.parse().map_err(|e: T::Err| e.to_string())
}

impl GameOptions {
    /// The rules these options name; `default` when `--game` is not given.
    ///
    /// # Errors
    /// When the game is not played on the board given, or an option given is not the game's.
    pub fn rules_or(&self, default: Variant) -> Result<Rules> {
        let variant = self.game.unwrap_or(default);
        let mut rules = Rules::new(variant);
        if let Some(pits) = self.pits {
            rules = rules.with_pits(pits)?;
        }
        self.options.apply(&mut rules)?;
        Ok(rules)
    }

    /// The rules these options name; `--game` must be given.
    pub fn rules(&self) -> Result<Rules> {
        match self.game {
            Some(variant) => self.rules_or(variant),
            None => bail!("--game is required (hoyito-ii, hoyito-iii or ayoayo)"),
        }
    }
}

/// The rule options given on the command line: one flag per option of the rules' table
/// (`--casa-rows`, `--leftover`, `--final-four`), its values checked by clap.
#[derive(Clone, Debug, Default)]
pub struct RuleFlags(Vec<(&'static str, String)>);

impl RuleFlags {
    /// Sets the options given (and only those) on `rules`.
    ///
    /// # Errors
    /// When the game does not have one of them: the same refusal as everywhere else.
    pub fn apply(&self, rules: &mut Rules) -> Result<()> {
        for (name, value) in &self.0 {
            rules
                .set_option(name, value)
                .with_context(|| format!("--{name} {value}"))?;
        }
        Ok(())
    }
}

impl Args for RuleFlags {
    fn augment_args(command: Command) -> Command {
        RuleOption::all().iter().fold(command, |command, option| {
            let games: Vec<&str> = option.games.iter().map(|v| v.name()).collect();
            let values = option
                .values
                .iter()
                .map(|v| PossibleValue::new(v.name).help(v.label));
            command.arg(
                Arg::new(option.name)
                    .long(option.name)
                    .value_name("VALUE")
                    .value_parser(PossibleValuesParser::new(values))
                    .help(format!(
                        "{} ({}; {})",
                        option.description,
                        option.rule,
                        games.join(", ")
                    )),
            )
        })
    }

    fn augment_args_for_update(command: Command) -> Command {
        Self::augment_args(command)
    }
}

impl FromArgMatches for RuleFlags {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        Self::from_arg_matches_mut(&mut matches.clone())
    }

    fn from_arg_matches_mut(matches: &mut ArgMatches) -> Result<Self, clap::Error> {
        Ok(RuleFlags(
            RuleOption::all()
                .iter()
                .filter_map(|o| Some((o.name, matches.remove_one::<String>(o.name)?)))
                .collect(),
        ))
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

/// How long a computer player may think about each move.
#[derive(Args, Clone, Debug, Default)]
pub struct LimitOptions {
    /// Time a move in milliseconds (the default when no limit is given).
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Nodes a move (search nodes; MCTS playouts).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Depth a move.
    #[arg(long)]
    pub depth: Option<u32>,
}

impl LimitOptions {
    /// The limits given, or `default_ms` a move when none is.
    pub fn limits(&self, default_ms: u64) -> sowing_engine::Limits {
        sowing_engine::Limits::given_or(self.movetime, self.nodes, self.depth, default_ms)
    }
}

/// Where the endgame tables are, for the commands that take players.
#[derive(Args, Clone, Debug, Default)]
pub struct TablesOption {
    /// Endgame tables for levels 5–6, `perfect` and `search:tables=on` (default:
    /// $SOWING_TABLES, else the user's data directory, when it holds tables for the game).
    #[arg(long, value_name = "DIR")]
    pub tables: Option<std::path::PathBuf>,
}

impl TablesOption {
    /// The tables: the directory given (an error if it is not one), else the default one if
    /// it exists, else none.
    pub fn resolve(&self) -> Result<Option<std::sync::Arc<sowing_engine::TableSet>>> {
        sowing_engine::TableSet::resolve(self.tables.as_deref())
            .map_err(|e| anyhow::anyhow!("--tables: {e}"))
    }
}

/// Where the tables are, for `sow tables`.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct DirOption {
    /// The tables' directory (default: $SOWING_TABLES, else the user's data directory).
    #[arg(long)]
    pub dir: Option<std::path::PathBuf>,
}

impl DirOption {
    pub fn dir(&self) -> Result<std::path::PathBuf> {
        if let Some(dir) = &self.dir {
            return Ok(dir.clone());
        }
        // The same rule as the players' (`sowing_engine::tables::default_dir`).
        match sowing_engine::tables::default_dir() {
            Some(dir) => Ok(dir),
            None => bail!("no data directory is known here: give --dir or set SOWING_TABLES"),
        }
    }
}
