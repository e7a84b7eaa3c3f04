//! The table of rule options and its one policy: every reader (`Rules::set_option`, position
//! texts, records) refuses an option the game does not have, and an unknown value.

use sowing::{CasaRows, FinalFour, Leftover, Position, Record, RuleOption, Rules, Side, Variant};

fn names(variant: Variant) -> Vec<&'static str> {
    variant.options().map(|o| o.name).collect()
}

#[test]
fn each_game_has_its_own_options() {
    assert_eq!(names(Variant::HoyitoII), ["casa-rows"]);
    assert_eq!(names(Variant::HoyitoIII), ["casa-rows", "final-four"]);
    assert_eq!(names(Variant::Ayoayo), ["leftover"]);
}

#[test]
fn the_table_agrees_with_the_typed_values() {
    for option in RuleOption::all() {
        assert!(
            !option.games.is_empty(),
            "{} belongs to no game",
            option.name
        );
        for &variant in option.games {
            // The default of the table is what `Rules::new` starts from.
            let rules = Rules::new(variant);
            assert_eq!(
                rules.option(option.name),
                Some(option.default_value()),
                "{} in {variant}",
                option.name
            );
            // Every value can be set and reads back under its name.
            for value in option.values {
                let mut rules = rules;
                rules.set_option(option.name, value.name).unwrap();
                assert_eq!(rules.option(option.name), Some(value.name));
            }
        }
    }
    for (value, name) in [(CasaRows::Any, "any"), (CasaRows::Opponent, "opponent")] {
        assert_eq!(value.to_string(), name);
        assert_eq!(name.parse(), Ok(value));
    }
    for (value, name) in [
        (Leftover::LastMover, "last-mover"),
        (Leftover::Holder, "holder"),
    ] {
        assert_eq!(value.to_string(), name);
        assert_eq!(name.parse(), Ok(value));
    }
    for (value, name) in [
        (FinalFour::Capturer, "capturer"),
        (FinalFour::To(Side::South), "south"),
        (FinalFour::To(Side::North), "north"),
    ] {
        assert_eq!(value.to_string(), name);
        assert_eq!(name.parse(), Ok(value));
    }
    assert_eq!(CasaRows::default().name(), "any");
    assert_eq!(Leftover::default().name(), "last-mover");
    assert_eq!(FinalFour::default().name(), "capturer");
}

#[test]
fn set_option_sets_the_typed_field() {
    let mut rules = Rules::new(Variant::HoyitoIII);
    rules.set_option("casa-rows", "opponent").unwrap();
    rules.set_option("final-four", "north").unwrap();
    assert_eq!(rules.casa_rows, CasaRows::Opponent);
    assert_eq!(rules.final_four, FinalFour::To(Side::North));
    let current: Vec<(&str, &str)> = rules.options().map(|(o, v)| (o.name, v)).collect();
    assert_eq!(
        current,
        [("casa-rows", "opponent"), ("final-four", "north")]
    );
    let mut rules = Rules::new(Variant::Ayoayo);
    rules.set_option("leftover", "holder").unwrap();
    assert_eq!(rules.leftover, Leftover::Holder);
}

#[test]
fn an_option_of_another_game_is_refused_naming_the_games_own() {
    for (variant, name, value, says) in [
        (
            Variant::HoyitoII,
            "leftover",
            "holder",
            "leftover is not an option of hoyito-ii (it is for ayoayo); hoyito-ii has \
             casa-rows only",
        ),
        (
            Variant::HoyitoII,
            "final-four",
            "north",
            "final-four is not an option of hoyito-ii (it is for hoyito-iii); hoyito-ii has \
             casa-rows only",
        ),
        (
            Variant::Ayoayo,
            "casa-rows",
            "any",
            "casa-rows is not an option of ayoayo (it is for hoyito-ii and hoyito-iii); \
             ayoayo has leftover only",
        ),
        (
            Variant::Ayoayo,
            "final-four",
            "capturer",
            "final-four is not an option of ayoayo (it is for hoyito-iii); ayoayo has \
             leftover only",
        ),
        (
            Variant::HoyitoIII,
            "leftover",
            "last-mover",
            "leftover is not an option of hoyito-iii (it is for ayoayo); hoyito-iii has \
             casa-rows and final-four",
        ),
    ] {
        let mut rules = Rules::new(variant);
        let error = rules.set_option(name, value).unwrap_err();
        assert_eq!(error.to_string(), says);
        assert_eq!(rules, Rules::new(variant), "a refusal changes nothing");
        assert_eq!(rules.option(name), None);
    }
}

#[test]
fn an_unknown_option_or_value_is_refused() {
    let mut rules = Rules::new(Variant::HoyitoII);
    let error = rules.set_option("seeds", "5").unwrap_err();
    assert_eq!(
        error.to_string(),
        "unknown option \"seeds\" (the options are casa-rows, leftover and final-four)"
    );
    let error = rules.set_option("casa-rows", "mine").unwrap_err();
    assert_eq!(
        error.to_string(),
        "unknown casa-rows \"mine\" (expected any or opponent)"
    );
    // The record tag is not the option's name.
    assert!(rules.set_option("CasaRows", "any").is_err());
    assert_eq!(rules, Rules::new(Variant::HoyitoII));
}

#[test]
fn position_text_refuses_an_option_of_another_game_at_its_column() {
    for (text, column, says) in [
        (
            "ayoayo 4,4,4,4,4,4/4,4,4,4,4,4 0-0 S - casa-rows=any",
            40,
            "casa-rows is not an option of ayoayo",
        ),
        (
            "hoyito-ii 4,4,4,4,4,4/4,4,4,4,4,4 0-0 S - final-four=north",
            43,
            "final-four is not an option of hoyito-ii",
        ),
        (
            "hoyito-iii 4,4,4,4,4,4/4,4,4,4,4,4 0-0 S - final-four=west",
            44,
            "unknown final-four \"west\"",
        ),
    ] {
        let error = text.parse::<Position>().unwrap_err();
        assert_eq!(error.column, column, "{error}");
        assert!(error.message.contains(says), "{error}");
    }
    // Defaults are not written, other values are.
    let text = "hoyito-iii 4,4,4,4,4,4/4,4,4,4,4,4 0-0 S - casa-rows=opponent final-four=south";
    assert_eq!(text.parse::<Position>().unwrap().to_string(), text);
    let text = "hoyito-iii 4,4,4,4,4,4/4,4,4,4,4,4 0-0 S - casa-rows=any";
    assert_eq!(
        text.parse::<Position>().unwrap().to_string(),
        "hoyito-iii 4,4,4,4,4,4/4,4,4,4,4,4 0-0 S -"
    );
}

#[test]
fn a_record_refuses_an_option_tag_of_another_game_at_the_tag() {
    let error = Record::parse("[Game \"ayoayo\"]\n[CasaRows \"any\"]\n\nC").unwrap_err();
    assert_eq!((error.line, error.column), (2, 1), "{error}");
    assert!(
        error
            .message
            .contains("casa-rows is not an option of ayoayo"),
        "{error}"
    );
    let error =
        Record::parse("[Game \"hoyito-ii\"]\n[Pits \"12\"]\n[FinalFour \"south\"]\n").unwrap_err();
    assert_eq!((error.line, error.column), (3, 1), "{error}");
    assert!(
        error.message.contains("hoyito-ii has casa-rows only"),
        "{error}"
    );
    let error = Record::parse("[Game \"ayoayo\"]\n[Leftover \"nobody\"]\n").unwrap_err();
    assert_eq!((error.line, error.column), (2, 1), "{error}");
    assert!(error.message.contains("unknown leftover"), "{error}");
}

#[test]
fn a_record_writes_and_reads_back_the_games_own_option_tags() {
    let mut rules = Rules::new(Variant::HoyitoIII);
    rules.set_option("final-four", "north").unwrap();
    let text = Record::new(sowing::Game::new(rules)).to_string();
    assert!(
        text.contains("[CasaRows \"any\"]\n[FinalFour \"north\"]\n"),
        "{text}"
    );
    assert!(!text.contains("Leftover"), "{text}");
    let back = Record::parse(&text).unwrap();
    assert_eq!(back.game.rules(), rules);
    assert!(
        back.tags.is_empty(),
        "option tags are the game's: {:?}",
        back.tags
    );
}
