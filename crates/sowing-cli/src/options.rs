//! The game and rule options shared by every subcommand.

use anyhow::{bail, Result};
use clap::Args;
use sowing::{CasaRows, FinalFour, Leftover, Rules, Variant};

/// Which game, on which board, with which options.
#[derive(Args, Clone, Debug, Default)]
pub struct GameOptions {
    /// The game: hoyito-ii, hoyito-iii or ayoayo.
    #[arg(long, value_parser = parse::<Variant>)]
    pub game: Option<Variant>,
    /// Pits per row: 6, or 12 for Hoyito II's long board.
    #[arg(long)]
    pub pits: Option<usize>,
    /// Hoyito (H2.5): pits of four on any row are casas, or only on the opponent's.
    #[arg(long, value_name = "any|opponent", value_parser = parse::<CasaRows>)]
    pub casa_rows: Option<CasaRows>,
    /// Ayoayo (A.7): the seeds left when the mover cannot feed go to the last mover, or to
    /// the holder of each row.
    #[arg(long, value_name = "last-mover|holder", value_parser = parse::<Leftover>)]
    pub leftover: Option<Leftover>,
    /// Hoyito III (H3.3): who takes the last four seeds.
    #[arg(long, value_name = "capturer|south|north", value_parser = parse::<FinalFour>)]
    pub final_four: Option<FinalFour>,
}

fn parse<T: std::str::FromStr>(text: &str) -> Result<T, String>
where
    T::Err: std::fmt::Display,
{
    text.parse().map_err(|e: T::Err| e.to_string())
}

impl GameOptions {
    /// The rules these options name; `default` when `--game` is not given.
    pub fn rules_or(&self, default: Variant) -> Result<Rules> {
        let variant = self.game.unwrap_or(default);
        let mut rules = Rules::new(variant);
        if let Some(pits) = self.pits {
            rules = rules.with_pits(pits)?;
        }
        self.apply_options(&mut rules);
        Ok(rules)
    }

    /// The rules these options name; `--game` must be given.
    pub fn rules(&self) -> Result<Rules> {
        match self.game {
            Some(variant) => self.rules_or(variant),
            None => bail!("--game is required (hoyito-ii, hoyito-iii or ayoayo)"),
        }
    }

    /// Sets the options given on the command line (and only those) on `rules`, warning
    /// about options the game does not have (positions ignore those).
    pub fn apply_options(&self, rules: &mut Rules) {
        let variant = rules.variant();
        if let Some(casa_rows) = self.casa_rows {
            warn_unless(variant.is_hoyito(), "--casa-rows", variant);
            rules.casa_rows = casa_rows;
        }
        if let Some(leftover) = self.leftover {
            warn_unless(variant == Variant::Ayoayo, "--leftover", variant);
            rules.leftover = leftover;
        }
        if let Some(final_four) = self.final_four {
            warn_unless(variant == Variant::HoyitoIII, "--final-four", variant);
            rules.final_four = final_four;
        }
    }
}

fn warn_unless(applies: bool, option: &str, variant: Variant) {
    if !applies {
        eprintln!("sow: note: {option} does not apply to {variant}; ignored");
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
        let millis = match (self.movetime, self.nodes, self.depth) {
            (None, None, None) => Some(default_ms),
            (movetime, ..) => movetime,
        };
        sowing_engine::Limits {
            time: millis.map(std::time::Duration::from_millis),
            nodes: self.nodes,
            depth: self.depth,
            ..sowing_engine::Limits::default()
        }
    }
}
