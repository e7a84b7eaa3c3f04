//! Every parser fed arbitrary input returns a value or an error, never panics; and errors
//! say where.

use proptest::prelude::*;
use sowing::{Move, Position, Record, Rules, State, Variant};

fn all_rules() -> [Rules; 3] {
    Variant::ALL.map(Rules::new)
}

/// Valid inputs with a few characters changed: arbitrary text rarely gets past the first
/// field, mutated valid text reaches every branch.
fn mutate(valid: &str, edits: &[(usize, char)]) -> String {
    let mut chars: Vec<char> = valid.chars().collect();
    for &(at, ch) in edits {
        if chars.is_empty() {
            chars.push(ch);
        } else {
            let at = at % (chars.len() + 1);
            match at % 3 {
                0 if at < chars.len() => chars[at] = ch,
                1 if at < chars.len() => {
                    chars.remove(at);
                }
                _ => chars.insert(at.min(chars.len()), ch),
            }
        }
    }
    chars.into_iter().collect()
}

const VALID_POSITION: &str = "ayoayo 0,1,0,2,1,0/1,0,1,0,3,2 18-18 N S leftover=holder";
const VALID_RECORD: &str =
    "[Game \"hoyito-ii\"]\n[Pits \"6\"]\n[South \"Ana\"]\n\n1. C 2. a {x} b 3. D *\n";
const VALID_JSON: &str = r#"{"game":"hoyito-ii","pits_per_row":6,"pits":[4,4,4,4,4,4,4,4,4,4,4,4],"captured":[0,0],"to_move":"south","over":false,"winner":null,"last_sower":null,"legal":["A"]}"#;

fn feed(text: &str) {
    let _ = text.parse::<Position>();
    let _ = Record::parse(text);
    if let Ok(state) = State::from_json(text) {
        for rules in all_rules() {
            let _ = state.to_game(rules);
        }
    }
    for n in [6, 12] {
        let _ = Move::parse(text, n);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, .. ProptestConfig::default() })]

    #[test]
    fn arbitrary_text_never_panics(text in any::<String>()) {
        feed(&text);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        feed(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn mutated_valid_inputs_never_panic(
        edits in proptest::collection::vec((any::<usize>(), prop_oneof![
            Just(','), Just('/'), Just(' '), Just('-'), Just('9'), Just('0'), Just('"'),
            Just('['), Just(']'), Just('{'), Just('}'), Just('a'), Just('F'), Just('='),
            Just(':'), Just('\n'), any::<char>()]), 1..6)
    ) {
        for valid in [VALID_POSITION, VALID_RECORD, VALID_JSON] {
            feed(&mutate(valid, &edits));
        }
    }
}

#[test]
fn position_errors_say_which_column() {
    let error = "hoyito-ii 4,4,x,4,4,4/4,4,4,4,4,4 0-0 S -"
        .parse::<Position>()
        .unwrap_err();
    assert_eq!(error.column, 11);
    assert!(error.message.contains("\"x\""), "{error}");
    let error = "hoyito-ii 4,4,4,4,4,4/4,4,4,4,4,4 0-0 W -"
        .parse::<Position>()
        .unwrap_err();
    assert_eq!(error.column, 39);
    let error = "ayoayo 4,4,4,4,4,4/4,4,4,4,4,4 0-0 S - casa-rows=opponent"
        .parse::<Position>()
        .unwrap_err();
    assert!(error.message.contains("not an option of ayoayo"), "{error}");
    let error = "hoyito-iii 4,4,4,4,4,4,4/4,4,4,4,4,4,4 0-0 S -"
        .parse::<Position>()
        .unwrap_err();
    assert!(error.message.contains("7 pits per row"), "{error}");
}

#[test]
fn record_errors_say_which_line_and_column() {
    let error = Record::parse("[Game \"ayoayo\"]\n\n1. C 2. a\n3. Q").unwrap_err();
    assert_eq!((error.line, error.column), (4, 4));
    assert!(error.message.contains("move 3"), "{error}");
    // An illegal move names the legal ones.
    let error = Record::parse("[Game \"hoyito-ii\"]\n\nC C").unwrap_err();
    assert_eq!((error.line, error.column), (3, 3));
    assert!(error.message.contains("legal:"), "{error}");
    let error = Record::parse("[Game \"hoyito-ii\"]\n[Result \"1-0\"]\n\nC").unwrap_err();
    assert!(error.message.contains("does not match"), "{error}");
    let error = Record::parse("[Game \"chess\"]\n").unwrap_err();
    assert_eq!((error.line, error.column), (1, 1));
}

#[test]
fn json_errors_name_the_field() {
    let error = State::from_json("{\"game\": 3}").unwrap_err();
    assert!(error.to_string().contains("line 1"), "{error}");
    let bad_pits = VALID_JSON.replace("[4,4,4,4,4,4,4,4,4,4,4,4]", "[4,4]");
    let error = State::from_json(&bad_pits)
        .unwrap()
        .to_game(Rules::new(Variant::HoyitoII))
        .unwrap_err();
    assert!(error.to_string().contains("\"pits\""), "{error}");
}

#[test]
fn a_record_reads_back_tags_comments_and_a_set_up_start() {
    let text = "[Game \"hoyito-iii\"]\n[Pits \"6\"]\n[FinalFour \"north\"]\n[Round \"3\"]\n\
                [Start \"hoyito-iii 0,0,0,0,0,1/3,0,0,0,4,0 20-20 S N final-four=north\"]\n\n\
                {before} 1. F {the last four go north} 1/2-1/2\n";
    let record = Record::parse(text).unwrap();
    assert_eq!(record.tag("Round"), Some("3"));
    assert_eq!(record.comments.len(), 2);
    assert!(record.game.is_over());
    assert_eq!(Record::parse(&record.to_string()).unwrap(), record);
}
