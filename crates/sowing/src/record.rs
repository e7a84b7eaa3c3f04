//! Game records: tags, then the moves with optional comments, PGN-like.
//!
//! ```text
//! [Game "hoyito-ii"]
//! [Pits "6"]
//! [CasaRows "any"]
//! [South "Ana"]
//! [North "level:4"]
//! [Date "2026.11.29"]
//! [Result "1-0"]
//!
//! 1. C 2. a 3. E {a casa} F 4. b … 1-0
//! ```
//!
//! A number like `3.` counts turns (a player's moves in a row) and is ignored when read.
//! `docs/notation.md` documents every tag.

use std::fmt;

use crate::{Game, Outcome, Position, RuleOption, Rules, Side, Variant};

/// A game record: the game itself (replayed and checked) and what is said about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The game, from its start through every recorded move.
    pub game: Game,
    /// Tags other than those the game itself decides (players, date, round, event …), in
    /// order. `Game`, `Pits`, the options, `Start`, `Result` and `Termination` are written
    /// from the game.
    pub tags: Vec<(String, String)>,
    /// Comments, each with the number of moves played before it (0 = before the first).
    pub comments: Vec<(usize, String)>,
}

/// A record that could not be read: where (line and column, from 1) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    /// Line of the fault.
    pub line: usize,
    /// Column of the fault, in characters.
    pub column: usize,
    /// What is wrong there.
    pub message: String,
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "record, line {}, column {}: {}",
            self.line, self.column, self.message
        )
    }
}

impl std::error::Error for RecordError {}

/// Tags whose values come from the game, not from [`Record::tags`], besides the options'
/// (see [`is_game_tag`]).
const GAME_TAGS: [&str; 5] = ["Game", "Pits", "Start", "Result", "Termination"];

/// Whether a tag's value comes from the game: one of [`GAME_TAGS`] or an option's tag.
fn is_game_tag(name: &str) -> bool {
    GAME_TAGS.contains(&name) || RuleOption::all().iter().any(|o| o.tag == name)
}

fn result_token(game: &Game) -> &'static str {
    match game.outcome() {
        None => "*",
        Some(Outcome::Win(Side::South)) => "1-0",
        Some(Outcome::Win(Side::North)) => "0-1",
        Some(Outcome::Draw) => "1/2-1/2",
    }
}

impl Record {
    /// A record of `game` with no tags or comments.
    pub fn new(game: Game) -> Record {
        Record {
            game,
            tags: Vec::new(),
            comments: Vec::new(),
        }
    }

    /// The value of a tag of [`Record::tags`].
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets a tag of [`Record::tags`], replacing an earlier value.
    pub fn set_tag(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some(tag) => tag.1 = value,
            None => self.tags.push((name.to_owned(), value)),
        }
    }

    /// Reads a record and replays its moves.
    ///
    /// # Errors
    /// On a malformed tag, an unknown game or option, an unknown or illegal move, or a
    /// `Result` tag that the moves contradict; the error says where.
    pub fn parse(text: &str) -> Result<Record, RecordError> {
        let mut scanner = Scanner::new(text);
        let mut tags: Vec<(String, String, usize, usize)> = Vec::new();
        while let Some((line, column)) = scanner.skip_space_at('[') {
            let (name, value) = scanner.tag()?;
            if tags.iter().any(|(n, ..)| *n == name) {
                return Err(scanner.error_at(line, column, format!("tag {name} given twice")));
            }
            tags.push((name, value, line, column));
        }
        let find = |name: &str| tags.iter().find(|(n, ..)| n == name);
        let tag_error = |name: &str, message: String| {
            let (_, _, line, column) = find(name).expect("only for tags present");
            RecordError {
                line: *line,
                column: *column,
                message,
            }
        };

        let variant: Variant = match find("Game") {
            Some((_, value, ..)) => value
                .parse()
                .map_err(|e| tag_error("Game", format!("{e}")))?,
            None => return Err(scanner.error_at(1, 1, "missing the Game tag".to_owned())),
        };
        let mut rules = Rules::new(variant);
        if let Some((_, value, ..)) = find("Pits") {
            let pits: usize = value
                .parse()
                .map_err(|_| tag_error("Pits", format!("{value:?} is not a number of pits")))?;
            rules = rules
                .with_pits(pits)
                .map_err(|e| tag_error("Pits", e.to_string()))?;
        }
        for option in RuleOption::all() {
            if let Some((_, value, ..)) = find(option.tag) {
                rules
                    .set_option(option.name, value)
                    .map_err(|e| tag_error(option.tag, format!("tag {}: {e}", option.tag)))?;
            }
        }
        let start = match find("Start") {
            Some((_, value, ..)) => {
                let position: Position = value
                    .parse()
                    .map_err(|e| tag_error("Start", format!("{e}")))?;
                if position.rules() != rules.normalized() {
                    return Err(tag_error(
                        "Start",
                        "the start position's game or options differ from the tags".to_owned(),
                    ));
                }
                position
            }
            None => Position::start(rules),
        };

        let mut game = Game::from_position(start);
        let mut comments = Vec::new();
        let mut result: Option<(String, usize, usize)> = None;
        while let Some((line, column)) = scanner.skip_space() {
            if let Some((_, line, column)) = &result {
                return Err(scanner.error_at(
                    *line,
                    *column,
                    "the result must be the last token".to_owned(),
                ));
            }
            if scanner.peek() == Some('{') {
                comments.push((game.moves().len(), scanner.comment()?));
                continue;
            }
            let token = scanner.word();
            if matches!(token.as_str(), "1-0" | "0-1" | "1/2-1/2" | "*") {
                result = Some((token, line, column));
                continue;
            }
            if token.ends_with('.') && token[..token.len() - 1].chars().all(|c| c.is_ascii_digit())
            {
                continue;
            }
            let ply = game.moves().len() + 1;
            let mv = game
                .parse_move(&token)
                .map_err(|e| scanner.error_at(line, column, format!("move {ply}: {e}")))?;
            game.play(mv).map_err(|e| {
                scanner.error_at(
                    line,
                    column,
                    format!("move {ply}: {e} (legal: {})", game.legal_names().join(" ")),
                )
            })?;
        }
        let claimed = result
            .as_ref()
            .map(|(t, ..)| t.as_str())
            .or_else(|| find("Result").map(|(_, v, ..)| v.as_str()));
        if let Some(claimed) = claimed {
            let actual = result_token(&game);
            if claimed != actual {
                let (line, column) = match &result {
                    Some((_, line, column)) => (*line, *column),
                    None => {
                        let (_, _, line, column) = find("Result").expect("claimed from it");
                        (*line, *column)
                    }
                };
                return Err(scanner.error_at(
                    line,
                    column,
                    format!(
                        "the result {claimed:?} does not match the moves, which give {actual:?}"
                    ),
                ));
            }
        }
        Ok(Record {
            game,
            tags: tags
                .into_iter()
                .filter(|(n, ..)| !is_game_tag(n))
                .map(|(n, v, ..)| (n, v))
                .collect(),
            comments,
        })
    }
}

fn quote(value: &str) -> String {
    value
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', " ")
}

impl fmt::Display for Record {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let game = &self.game;
        let rules = game.rules();
        let n = rules.pits_per_row();
        writeln!(f, "[Game \"{}\"]", rules.variant())?;
        writeln!(f, "[Pits \"{n}\"]")?;
        for (option, value) in rules.options() {
            writeln!(f, "[{} \"{value}\"]", option.tag)?;
        }
        for (name, value) in &self.tags {
            if !is_game_tag(name) {
                writeln!(f, "[{name} \"{}\"]", quote(value))?;
            }
        }
        if *game.start() != Position::start(rules) {
            writeln!(f, "[Start \"{}\"]", game.start())?;
        }
        writeln!(f, "[Result \"{}\"]", result_token(game))?;
        if let Some(end) = game.end() {
            writeln!(f, "[Termination \"{}\"]", end.describe())?;
        }
        writeln!(f)?;

        // Moves, a number before each turn, wrapped at 80 columns.
        let mut line = String::new();
        let mut emit = |word: String, f: &mut fmt::Formatter<'_>| -> fmt::Result {
            if !line.is_empty() && line.len() + 1 + word.len() > 80 {
                writeln!(f, "{line}")?;
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&word);
            Ok(())
        };
        let mut turn = 0;
        for ply in 0..=game.moves().len() {
            for (_, comment) in self.comments.iter().filter(|(at, _)| *at == ply) {
                emit(format!("{{{}}}", comment.replace('}', ")")), f)?;
            }
            let Some(&mv) = game.moves().get(ply) else {
                break;
            };
            let mover = game
                .position_at(ply)
                .expect("a position per move")
                .to_move();
            if ply == 0 || game.position_at(ply - 1).map(|p| p.to_move()) != Some(mover) {
                turn += 1;
                emit(format!("{turn}."), f)?;
            }
            emit(mv.name(n).to_string(), f)?;
        }
        emit(result_token(game).to_owned(), f)?;
        writeln!(f, "{line}")
    }
}

/// Walks the text by characters, keeping line and column for errors.
struct Scanner<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    line: usize,
    column: usize,
}

impl<'a> Scanner<'a> {
    fn new(text: &'a str) -> Scanner<'a> {
        Scanner {
            chars: text.chars().peekable(),
            line: 1,
            column: 1,
        }
    }

    fn peek(&mut self) -> Option<char> {
        self.chars.peek().copied()
    }

    fn bump(&mut self) -> Option<char> {
        let ch = self.chars.next()?;
        if ch == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(ch)
    }

    fn error_at(&self, line: usize, column: usize, message: String) -> RecordError {
        RecordError {
            line,
            column,
            message,
        }
    }

    fn error(&self, message: String) -> RecordError {
        self.error_at(self.line, self.column, message)
    }

    /// Skips white space; the place of the next character, if any.
    fn skip_space(&mut self) -> Option<(usize, usize)> {
        while self.peek()?.is_whitespace() {
            self.bump();
        }
        Some((self.line, self.column))
    }

    /// Skips white space; the place of the next character if it is `ch`.
    fn skip_space_at(&mut self, ch: char) -> Option<(usize, usize)> {
        let place = self.skip_space()?;
        (self.peek() == Some(ch)).then_some(place)
    }

    fn word(&mut self) -> String {
        let mut word = String::new();
        while let Some(ch) = self.peek() {
            if ch.is_whitespace() || ch == '{' {
                break;
            }
            word.push(ch);
            self.bump();
        }
        word
    }

    /// `[Name "value"]`, the scanner at `[`.
    fn tag(&mut self) -> Result<(String, String), RecordError> {
        self.bump();
        let mut name = String::new();
        while let Some(ch) = self
            .peek()
            .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
        {
            name.push(ch);
            self.bump();
        }
        if name.is_empty() {
            return Err(self.error("expected a tag name after '['".to_owned()));
        }
        while self.peek().is_some_and(|c| c == ' ' || c == '\t') {
            self.bump();
        }
        if self.bump() != Some('"') {
            return Err(self.error(format!("expected '\"' to open the value of tag {name}")));
        }
        let mut value = String::new();
        loop {
            match self.bump() {
                Some('"') => break,
                Some('\\') => match self.bump() {
                    Some(ch @ ('"' | '\\')) => value.push(ch),
                    _ => return Err(self.error("expected \\\" or \\\\ in a tag value".to_owned())),
                },
                Some('\n') | None => {
                    return Err(self.error(format!("the value of tag {name} is not closed")))
                }
                Some(ch) => value.push(ch),
            }
        }
        while self.peek().is_some_and(|c| c == ' ' || c == '\t') {
            self.bump();
        }
        if self.bump() != Some(']') {
            return Err(self.error(format!("expected ']' to close tag {name}")));
        }
        Ok((name, value))
    }

    /// `{comment}`, the scanner at `{`.
    fn comment(&mut self) -> Result<String, RecordError> {
        let (line, column) = (self.line, self.column);
        self.bump();
        let mut text = String::new();
        loop {
            match self.bump() {
                Some('}') => return Ok(text.split_whitespace().collect::<Vec<_>>().join(" ")),
                Some(ch) => text.push(ch),
                None => {
                    return Err(self.error_at(line, column, "a comment is not closed".to_owned()))
                }
            }
        }
    }
}
