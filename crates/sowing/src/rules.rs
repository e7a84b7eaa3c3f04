//! The three games and their options, as data read by one sowing routine.

use std::fmt;
use std::str::FromStr;

use crate::Side;

/// C.1: a sowing move is legal only if its sowing ends within this many laps (the first lap
/// counts as one). Every endless sowing is refused under it, and it bounds each legality test
/// to about a millisecond: in 26 million sowings from random games none that ended took more
/// than 919 laps.
pub const MAX_LAPS: u32 = 65_536;

/// One of the three games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Hoyito II: relay sowing, casa captures with backward chains, extra turns (H2.*).
    HoyitoII,
    /// Hoyito III: as Hoyito II but only the end pit is captured (H3.*).
    HoyitoIII,
    /// Ayoayo: origin-skipping relay sowing, opposite captures into stores, feeding (A.*).
    Ayoayo,
}

impl Variant {
    /// All games, in the order the docs list them.
    pub const ALL: [Variant; 3] = [Variant::HoyitoII, Variant::HoyitoIII, Variant::Ayoayo];

    /// The stable name used on the command line, in records and in JSON.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::HoyitoII => "hoyito-ii",
            Variant::HoyitoIII => "hoyito-iii",
            Variant::Ayoayo => "ayoayo",
        }
    }

    /// The name for people: `Hoyito II`, `Hoyito III`, `Ayoayo`.
    pub const fn title(self) -> &'static str {
        match self {
            Variant::HoyitoII => "Hoyito II",
            Variant::HoyitoIII => "Hoyito III",
            Variant::Ayoayo => "Ayoayo",
        }
    }

    /// Whether this is one of the Hoyito games (casas, extra turns, the last four).
    pub const fn is_hoyito(self) -> bool {
        !matches!(self, Variant::Ayoayo)
    }

    /// The rule options this game has, in the order texts and records write them.
    pub fn options(self) -> impl Iterator<Item = &'static RuleOption> + Clone {
        OPTIONS.iter().filter(move |o| o.belongs_to(self))
    }

    /// The board sizes (pits per row) the game is played on; the first is the usual one.
    pub const fn board_sizes(self) -> &'static [u8] {
        match self {
            Variant::HoyitoII => &[6, 12],
            _ => &[6],
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A game, board size or option that the rules do not know.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesError(pub String);

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RulesError {}

impl FromStr for Variant {
    type Err = RulesError;
    fn from_str(s: &str) -> Result<Variant, RulesError> {
        Variant::ALL
            .into_iter()
            .find(|v| v.name() == s)
            .ok_or_else(|| {
                RulesError(format!(
                    "unknown game {s:?} (expected hoyito-ii, hoyito-iii or ayoayo)"
                ))
            })
    }
}

/// One value of a [`RuleOption`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionValue {
    /// The value's name on the command line, in position texts, records, the engine protocol
    /// and JSON: `opponent`.
    pub name: &'static str,
    /// What it means, in a few words for people: `the opponent's row only`.
    pub label: &'static str,
}

/// Which field of [`Rules`] an option sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum OptionKey {
    CasaRows,
    Leftover,
    FinalFour,
}

/// A rule option: its names, its values and default, and the games that have it.
///
/// The table of options ([`RuleOption::all`], or a game's own with [`Variant::options`]) is
/// the one place that says which option belongs to which game; position texts, records, the
/// command line, the engine protocol and the web API all read it, and all refuse an option
/// the game does not have ([`Rules::set_option`]).
///
/// ```
/// use sowing::{Rules, Variant};
///
/// let names: Vec<&str> = Variant::HoyitoIII.options().map(|o| o.name).collect();
/// assert_eq!(names, ["casa-rows", "final-four"]);
/// let mut rules = Rules::new(Variant::HoyitoII);
/// rules.set_option("casa-rows", "opponent")?;
/// assert_eq!(rules.option("casa-rows"), Some("opponent"));
/// assert!(rules.set_option("leftover", "holder").is_err());
/// # Ok::<(), sowing::RulesError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleOption {
    key: OptionKey,
    /// The name on the command line (`--casa-rows`), in position texts and in the engine
    /// protocol: `casa-rows`.
    pub name: &'static str,
    /// The record tag: `CasaRows`.
    pub tag: &'static str,
    /// The field in the web API's JSON: `casa_rows`.
    pub field: &'static str,
    /// The rule of RULES.md it sets: `H2.5`.
    pub rule: &'static str,
    /// A short title for people: `Casas`.
    pub label: &'static str,
    /// What it decides, in a sentence for people (no final stop).
    pub description: &'static str,
    /// The values, the default first.
    pub values: &'static [OptionValue],
    /// The games that have it.
    pub games: &'static [Variant],
}

/// Every option, in the order texts and records write them.
static OPTIONS: [RuleOption; 3] = [CASA_ROWS, LEFTOVER, FINAL_FOUR];

const CASA_ROWS: RuleOption = RuleOption {
    key: OptionKey::CasaRows,
    name: "casa-rows",
    tag: "CasaRows",
    field: "casa_rows",
    rule: "H2.5",
    label: "Casas",
    description: "Which pits of four are casas: on either row, or only on the opponent's",
    values: &[
        OptionValue {
            name: "any",
            label: "any row",
        },
        OptionValue {
            name: "opponent",
            label: "the opponent's row only",
        },
    ],
    games: &[Variant::HoyitoII, Variant::HoyitoIII],
};

const LEFTOVER: RuleOption = RuleOption {
    key: OptionKey::Leftover,
    name: "leftover",
    tag: "Leftover",
    field: "leftover",
    rule: "A.7",
    label: "Seeds left when the mover cannot feed",
    description: "Who takes the seeds left when the mover cannot feed: the last mover, or \
                      the owner of each row",
    values: &[
        OptionValue {
            name: "last-mover",
            label: "to the last mover",
        },
        OptionValue {
            name: "holder",
            label: "to each row's owner",
        },
    ],
    games: &[Variant::Ayoayo],
};

const FINAL_FOUR: RuleOption = RuleOption {
    key: OptionKey::FinalFour,
    name: "final-four",
    tag: "FinalFour",
    field: "final_four",
    rule: "H3.3",
    label: "Last four",
    description: "Who takes the last four seeds: the capturer, or a fixed player; a match \
                      decides it round by round",
    values: &[
        OptionValue {
            name: "capturer",
            label: "to the capturer",
        },
        OptionValue {
            name: "south",
            label: "to South",
        },
        OptionValue {
            name: "north",
            label: "to North",
        },
    ],
    games: &[Variant::HoyitoIII],
};

impl RuleOption {
    /// Every option of every game.
    pub fn all() -> &'static [RuleOption] {
        &OPTIONS
    }

    /// The option with this name (`casa-rows`), whichever game has it.
    pub fn named(name: &str) -> Option<&'static RuleOption> {
        OPTIONS.iter().find(|o| o.name == name)
    }

    /// The default value's name.
    pub fn default_value(&self) -> &'static str {
        self.values[0].name
    }

    /// Whether `variant` has this option.
    pub fn belongs_to(&self, variant: Variant) -> bool {
        self.games.contains(&variant)
    }

    /// The place of `text` among the values.
    fn index(&self, text: &str) -> Result<usize, RulesError> {
        self.values
            .iter()
            .position(|v| v.name == text)
            .ok_or_else(|| {
                let names: Vec<&str> = self.values.iter().map(|v| v.name).collect();
                RulesError(format!(
                    "unknown {} {text:?} (expected {})",
                    self.name,
                    names.join(" or ")
                ))
            })
    }
}

/// Joins names as `a`, `a and b`, `a, b and c`.
fn and_list(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// A typed option value, named by its place in its option's values.
trait Choice: Copy + PartialEq + 'static {
    const OPTION: &'static RuleOption;
    /// Every value, in the order of `OPTION.values`.
    const ALL: &'static [Self];

    fn value_name(self) -> &'static str {
        let index = Self::ALL
            .iter()
            .position(|&v| v == self)
            .expect("every value is listed");
        Self::OPTION.values[index].name
    }

    fn from_name(text: &str) -> Result<Self, RulesError> {
        Self::OPTION.index(text).map(|index| Self::ALL[index])
    }
}

/// Names the values of an option's type after the option's row of the table.
macro_rules! choice {
    ($ty:ty, $option:expr, [$($value:expr),+ $(,)?]) => {
        impl Choice for $ty {
            const OPTION: &'static RuleOption = &$option;
            const ALL: &'static [Self] = &[$($value),+];
        }
        impl $ty {
            /// The value's name on the command line and in records.
            pub fn name(self) -> &'static str {
                self.value_name()
            }

            /// The row of the options table whose values these are.
            pub fn option() -> &'static RuleOption {
                Self::OPTION
            }
        }
        impl fmt::Display for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }
        impl FromStr for $ty {
            type Err = RulesError;
            fn from_str(s: &str) -> Result<Self, RulesError> {
                Self::from_name(s)
            }
        }
    };
}

/// Hoyito option of H2.5: which row's pits of four can be captured.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CasaRows {
    /// A casa on either row counts (default).
    #[default]
    Any,
    /// Only pits in the opponent's row make a casa or continue a chain (Valdez's reading).
    Opponent,
}

/// Ayoayo option of A.7: who takes the seeds left when the mover cannot feed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Leftover {
    /// The player who made the last sowing move (the seed text; default).
    #[default]
    LastMover,
    /// Each seed goes to the owner of the row it lies in.
    Holder,
}

/// Hoyito setting of H2.7 / H3.3: who takes the last four seeds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum FinalFour {
    /// The player whose capture left them (a single game, rounds 1 and 2; default).
    #[default]
    Capturer,
    /// A fixed player: the winner of the previous round from round 3 of a match on.
    To(Side),
}

choice!(CasaRows, CASA_ROWS, [CasaRows::Any, CasaRows::Opponent]);
choice!(Leftover, LEFTOVER, [Leftover::LastMover, Leftover::Holder]);
choice!(
    FinalFour,
    FINAL_FOUR,
    [
        FinalFour::Capturer,
        FinalFour::To(Side::South),
        FinalFour::To(Side::North)
    ]
);

/// Everything that decides how a game is played: the game, the board size and the options.
///
/// [`Rules::set_option`] sets an option by name and refuses one the game does not have (say
/// `leftover` in Hoyito); the typed fields are for play, which ignores the options a game
/// does not have.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    variant: Variant,
    pits_per_row: u8,
    /// H2.5 option (Hoyito games).
    pub casa_rows: CasaRows,
    /// A.7 option (Ayoayo).
    pub leftover: Leftover,
    /// H3.3 setting: who takes the last four (Hoyito III; Hoyito II always gives them to
    /// the capturer).
    pub final_four: FinalFour,
    /// The C.1 lap cap: [`MAX_LAPS`], lower only in tests (`Rules::with_max_laps`).
    max_laps: u32,
}

impl Rules {
    /// The largest board: 2×12.
    pub const MAX_PITS_PER_ROW: usize = 12;

    /// The game on its usual board (2×6) with the default options.
    pub const fn new(variant: Variant) -> Rules {
        Rules {
            variant,
            pits_per_row: 6,
            casa_rows: CasaRows::Any,
            leftover: Leftover::LastMover,
            final_four: FinalFour::Capturer,
            max_laps: MAX_LAPS,
        }
    }

    /// The same rules with a lower C.1 lap cap, so that tests can build a sowing that ends
    /// exactly on the cap or one lap after it without a 65,536-lap position.
    #[cfg(feature = "test-lap-cap")]
    #[doc(hidden)]
    pub fn with_max_laps(mut self, laps: u32) -> Rules {
        self.max_laps = laps;
        self
    }

    /// Laps a sowing may take (C.1): [`MAX_LAPS`].
    #[inline]
    pub const fn max_laps(self) -> u32 {
        self.max_laps
    }

    /// The same rules on a board of `pits_per_row` pits a row.
    ///
    /// # Errors
    /// When the game is not played on that board (only Hoyito II has 2×12).
    pub fn with_pits(mut self, pits_per_row: usize) -> Result<Rules, RulesError> {
        if !self
            .variant
            .board_sizes()
            .iter()
            .any(|&n| usize::from(n) == pits_per_row)
        {
            let sizes: Vec<String> = self
                .variant
                .board_sizes()
                .iter()
                .map(|n| n.to_string())
                .collect();
            return Err(RulesError(format!(
                "{} is not played with {pits_per_row} pits per row (only {})",
                self.variant,
                sizes.join(" or ")
            )));
        }
        self.pits_per_row = pits_per_row as u8;
        Ok(self)
    }

    /// The game.
    #[inline]
    pub const fn variant(self) -> Variant {
        self.variant
    }

    /// Pits in each row (N).
    #[inline]
    pub const fn pits_per_row(self) -> usize {
        self.pits_per_row as usize
    }

    /// Pits on the board (2N).
    #[inline]
    pub const fn pit_count(self) -> usize {
        2 * self.pits_per_row as usize
    }

    /// Seeds on the board at the start: 4 in every pit.
    #[inline]
    pub const fn total_seeds(self) -> usize {
        4 * self.pit_count()
    }

    /// The current value of an option of this game, by name (`casa-rows`); `None` when the
    /// game does not have it.
    pub fn option(self, name: &str) -> Option<&'static str> {
        RuleOption::named(name)
            .filter(|o| o.belongs_to(self.variant))
            .map(|o| self.value_of(o))
    }

    /// The game's options with their current values, in the order texts and records write
    /// them.
    pub fn options(self) -> impl Iterator<Item = (&'static RuleOption, &'static str)> {
        self.variant.options().map(move |o| (o, self.value_of(o)))
    }

    /// Sets an option of this game by name (`casa-rows`) and value (`opponent`), as the
    /// command line, position texts, records, the engine protocol and the web API give them.
    ///
    /// # Errors
    /// When no game has an option of that name, when this game does not have it (the
    /// message names the options it has), or when the value is not one of the option's.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), RulesError> {
        let option = RuleOption::named(name).ok_or_else(|| {
            let names: Vec<&str> = OPTIONS.iter().map(|o| o.name).collect();
            RulesError(format!(
                "unknown option {name:?} (the options are {})",
                and_list(&names)
            ))
        })?;
        if !option.belongs_to(self.variant) {
            let games: Vec<&str> = option.games.iter().map(|v| v.name()).collect();
            let own: Vec<&str> = self.variant.options().map(|o| o.name).collect();
            let has = match own.as_slice() {
                [] => "no options".to_owned(),
                [one] => format!("{one} only"),
                _ => and_list(&own),
            };
            return Err(RulesError(format!(
                "{name} is not an option of {variant} (it is for {games}); {variant} has {has}",
                variant = self.variant,
                games = and_list(&games),
            )));
        }
        let index = option.index(value)?;
        self.set_value(option.key, index);
        Ok(())
    }

    /// Sets an option to its value at `index`, whether or not the game has it.
    fn set_value(&mut self, key: OptionKey, index: usize) {
        match key {
            OptionKey::CasaRows => self.casa_rows = CasaRows::ALL[index],
            OptionKey::Leftover => self.leftover = Leftover::ALL[index],
            OptionKey::FinalFour => self.final_four = FinalFour::ALL[index],
        }
    }

    /// The value of `option` in these rules, whether or not the game has it.
    fn value_of(self, option: &RuleOption) -> &'static str {
        match option.key {
            OptionKey::CasaRows => self.casa_rows.name(),
            OptionKey::Leftover => self.leftover.name(),
            OptionKey::FinalFour => self.final_four.name(),
        }
    }

    /// Every set of rules: each game on each of its boards with every combination of its
    /// options' values, read from the options table (for the tables' families, and for
    /// front ends that list what can be played).
    ///
    /// ```
    /// use sowing::Rules;
    ///
    /// // Hoyito II: 2 boards × 2 casa rows; Hoyito III: 2 casa rows × 3 final-four values;
    /// // Ayoayo: 2 leftover values.
    /// assert_eq!(Rules::all().len(), 4 + 6 + 2);
    /// ```
    pub fn all() -> Vec<Rules> {
        let mut out = Vec::new();
        for variant in Variant::ALL {
            for &pits in variant.board_sizes() {
                let mut sets = vec![Rules::new(variant)
                    .with_pits(usize::from(pits))
                    .expect("one of the game's boards")];
                for option in variant.options() {
                    sets = sets
                        .into_iter()
                        .flat_map(|rules| {
                            (0..option.values.len()).map(move |index| {
                                let mut rules = rules;
                                rules.set_value(option.key, index);
                                rules
                            })
                        })
                        .collect();
                }
                out.extend(sets);
            }
        }
        out
    }

    /// The same rules with the options the game does not have put back to their defaults,
    /// so that equal games compare equal.
    pub fn normalized(mut self) -> Rules {
        for option in &OPTIONS {
            if !option.belongs_to(self.variant) {
                self.set_value(option.key, 0);
            }
        }
        self
    }

    /// Who takes the last four in this game: Hoyito II always gives them to the capturer.
    #[inline]
    pub const fn effective_final_four(self) -> FinalFour {
        match self.variant {
            Variant::HoyitoIII => self.final_four,
            _ => FinalFour::Capturer,
        }
    }
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::new(Variant::HoyitoII)
    }
}

impl From<Variant> for Rules {
    fn from(variant: Variant) -> Rules {
        Rules::new(variant)
    }
}
