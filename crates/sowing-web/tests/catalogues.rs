//! The page's message catalogues (static/i18n/*.ftl, docs/web.md "Languages"): each parses as
//! Fluent, both languages have the same messages with the same attributes, every message the
//! page names exists in both, and every message of either is named by the page. The page
//! names a message in one of these ways only (so that this test can find every one):
//!
//! - `T('id'`, `T.attr('id', 'name'`, `T.html('id'`, `T.escaped('id'`, `T.has('id'` in a
//!   script;
//! - `data-i18n="id"` or `data-i18n-html="id"` in HTML (index.html or a script's markup),
//!   `dataset.i18n = 'id'` in a script;
//! - `msg: 'id'` in a script's table (the lessons, the rule options), whose attributes the
//!   page reads by name;
//! - `getMessage('id')` in i18n.js.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use fluent_syntax::ast;
use fluent_syntax::parser;

/// The languages the page has (i18n.js `I18N.languages`), English first.
const LANGUAGES: [&str; 2] = ["en", "es"];

fn static_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("static")
}

/// One message: whether it has a value, its attributes, and the variables each part uses.
#[derive(Debug, Default)]
struct Message {
    value: bool,
    attributes: BTreeSet<String>,
    variables: BTreeSet<String>,
}

fn variables_of(pattern: &ast::Pattern<&str>, out: &mut BTreeSet<String>) {
    for element in &pattern.elements {
        if let ast::PatternElement::Placeable { expression } = element {
            variables_in_expression(expression, out);
        }
    }
}

fn variables_in_expression(expression: &ast::Expression<&str>, out: &mut BTreeSet<String>) {
    match expression {
        ast::Expression::Inline(inline) => variables_in_inline(inline, out),
        ast::Expression::Select { selector, variants } => {
            variables_in_inline(selector, out);
            for variant in variants {
                variables_of(&variant.value, out);
            }
        }
    }
}

fn variables_in_inline(inline: &ast::InlineExpression<&str>, out: &mut BTreeSet<String>) {
    match inline {
        ast::InlineExpression::VariableReference { id } => {
            out.insert(id.name.to_owned());
        }
        ast::InlineExpression::FunctionReference { arguments, .. } => {
            for argument in &arguments.positional {
                variables_in_inline(argument, out);
            }
            for argument in &arguments.named {
                variables_in_inline(&argument.value, out);
            }
        }
        ast::InlineExpression::Placeable { expression } => variables_in_expression(expression, out),
        _ => {}
    }
}

/// A catalogue's messages by id. Panics on a syntax error (Fluent's runtime would drop the
/// broken entry without a word) or on a message defined twice.
fn catalogue(lang: &str) -> BTreeMap<String, Message> {
    let path = static_dir().join("i18n").join(format!("{lang}.ftl"));
    let text = std::fs::read_to_string(&path).unwrap();
    let resource = match parser::parse(text.as_str()) {
        Ok(resource) => resource,
        Err((_, errors)) => panic!("{}: {errors:#?}", path.display()),
    };
    let mut messages = BTreeMap::new();
    for entry in &resource.body {
        match entry {
            ast::Entry::Message(m) => {
                let mut message = Message {
                    value: m.value.is_some(),
                    ..Message::default()
                };
                if let Some(value) = &m.value {
                    variables_of(value, &mut message.variables);
                }
                for attribute in &m.attributes {
                    message.attributes.insert(attribute.id.name.to_owned());
                    variables_of(&attribute.value, &mut message.variables);
                }
                let id = m.id.name.to_owned();
                assert!(
                    messages.insert(id.clone(), message).is_none(),
                    "{lang}.ftl defines {id} twice"
                );
            }
            ast::Entry::Term(t) => panic!(
                "{lang}.ftl: term -{} (the page uses messages only)",
                t.id.name
            ),
            ast::Entry::Junk { content } => panic!("{lang}.ftl: cannot read {content:?}"),
            _ => {}
        }
    }
    messages
}

/// The page's files that name messages: index.html and every script but the vendored ones.
fn page_files() -> Vec<(String, String)> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(static_dir()).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name.ends_with(".js") || name.ends_with(".html") {
            files.push((name, std::fs::read_to_string(&path).unwrap()));
        }
    }
    files.sort();
    assert!(files.iter().any(|(name, _)| name == "main.js"), "{files:?}");
    files
}

/// Every `start … 'x'` (or `"x"`) in `text`: the quoted string right after each `start`.
fn quoted_after<'a>(text: &'a str, start: &str) -> Vec<&'a str> {
    let mut found = Vec::new();
    for (at, _) in text.match_indices(start) {
        // A name must not be the end of a longer one (`aT('` is not `T('`, nor is `x.T('`).
        let before = text[..at].chars().next_back();
        let dot = start.starts_with('T') && before == Some('.');
        if start.starts_with(|c: char| c.is_ascii_alphabetic())
            && (dot || before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_'))
        {
            continue;
        }
        let rest = &text[at + start.len()..];
        let Some(quote) = rest.chars().next().filter(|c| *c == '\'' || *c == '"') else {
            continue;
        };
        if let Some(end) = rest[1..].find(quote) {
            found.push(&rest[1..1 + end]);
        }
    }
    found
}

/// What the page names: message ids, and (id, attribute) pairs it reads by name.
struct Uses {
    ids: BTreeMap<String, BTreeSet<String>>,
    attributes: BTreeSet<(String, String)>,
    tables: BTreeSet<String>,
}

fn uses() -> Uses {
    let mut ids: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut attributes = BTreeSet::new();
    let mut tables = BTreeSet::new();
    for (file, text) in page_files() {
        let mut add = |id: &str| {
            ids.entry(id.to_owned()).or_default().insert(file.clone());
        };
        for start in [
            "T(",
            "T.html(",
            "T.escaped(",
            "T.has(",
            "data-i18n=",
            "data-i18n-html=",
            "dataset.i18n = ",
            "getMessage(",
        ] {
            for id in quoted_after(&text, start) {
                add(id);
            }
        }
        for id in quoted_after(&text, "msg: ") {
            add(id);
            tables.insert(id.to_owned());
        }
        // T.attr('id', 'name'): both parts.
        for (at, _) in text.match_indices("T.attr(") {
            let rest = &text[at + "T.attr(".len()..];
            let parts: Vec<&str> = rest.splitn(3, '\'').collect();
            if parts.len() == 3 && parts[0].is_empty() {
                add(parts[1]);
                let after = parts[2];
                if let Some(name) = after.strip_prefix(", '") {
                    let name = &name[..name.find('\'').unwrap()];
                    attributes.insert((parts[1].to_owned(), name.to_owned()));
                }
            }
        }
    }
    Uses {
        ids,
        attributes,
        tables,
    }
}

#[test]
fn both_catalogues_have_the_same_messages_and_attributes() {
    let en = catalogue("en");
    for lang in &LANGUAGES[1..] {
        let other = catalogue(lang);
        let missing: Vec<_> = en.keys().filter(|id| !other.contains_key(*id)).collect();
        let extra: Vec<_> = other.keys().filter(|id| !en.contains_key(*id)).collect();
        assert!(missing.is_empty(), "{lang}.ftl lacks {missing:?}");
        assert!(extra.is_empty(), "{lang}.ftl has {extra:?}, en.ftl not");
        for (id, message) in &en {
            let theirs = &other[id];
            assert_eq!(message.value, theirs.value, "{lang}.ftl {id}: the value");
            assert_eq!(
                message.attributes, theirs.attributes,
                "{lang}.ftl {id}: the attributes"
            );
            // The page passes the variables English uses; another language may use fewer.
            let unknown: Vec<_> = theirs.variables.difference(&message.variables).collect();
            assert!(
                unknown.is_empty(),
                "{lang}.ftl {id} uses {unknown:?}, which the page does not pass"
            );
        }
    }
}

#[test]
fn every_message_the_page_names_exists_in_every_language() {
    let uses = uses();
    assert!(uses.ids.len() > 200, "{} ids found", uses.ids.len());
    for lang in LANGUAGES {
        let messages = catalogue(lang);
        let missing: Vec<_> = uses
            .ids
            .iter()
            .filter(|(id, _)| !messages.contains_key(*id))
            .collect();
        assert!(missing.is_empty(), "{lang}.ftl lacks {missing:?}");
        for (id, name) in &uses.attributes {
            assert!(
                messages[id].attributes.contains(name),
                "{lang}.ftl: {id} has no .{name}"
            );
        }
        // The lessons (title, words, ask) and the rule options (name, about, one per value).
        for id in &uses.tables {
            let message = &messages[id];
            if id.starts_with("lesson-") {
                for part in ["title", "words", "ask"] {
                    assert!(message.attributes.contains(part), "{lang}.ftl: {id}.{part}");
                }
            }
        }
        for option in sowing::RuleOption::all() {
            let id = format!("option-{}", option.name);
            let message = messages
                .get(&id)
                .unwrap_or_else(|| panic!("{lang}.ftl: no {id} for the option {}", option.field));
            assert!(
                message.value && message.attributes.contains("about"),
                "{id}"
            );
            for value in option.values {
                assert!(
                    message.attributes.contains(value.name),
                    "{lang}.ftl: {id}.{}",
                    value.name
                );
            }
            assert!(uses.tables.contains(&id), "the page names no {id}");
        }
    }
}

#[test]
fn every_message_of_every_language_is_used_by_the_page() {
    let uses = uses();
    for lang in LANGUAGES {
        let unused: Vec<_> = catalogue(lang)
            .into_keys()
            .filter(|id| !uses.ids.contains_key(id))
            .collect();
        assert!(
            unused.is_empty(),
            "{lang}.ftl: not used by the page: {unused:?}"
        );
    }
}

#[test]
fn every_error_code_of_the_server_has_words_on_the_page() {
    let api = std::fs::read_to_string(static_dir().join("api.js")).unwrap();
    let table = &api[api
        .find("const ERRORS = {")
        .expect("api.js: the ERRORS table")..];
    let table = &table[..table.find("\n};").unwrap()];
    for code in sowing_web::ERROR_CODES {
        let quoted = format!("'{code}':");
        let bare = format!("  {code}:");
        assert!(
            table.contains(&quoted) || table.contains(&bare),
            "api.js ERRORS has no words for the server's code {code}"
        );
    }
}

#[test]
fn the_finder_sees_what_it_must_and_nothing_else() {
    let text = "T('a-b', { x }); aT('no'); x.T('no2'); T.attr('c', 'title'); msg: 'd',\n\
                <p data-i18n=\"e\"></p> T(\"f\")";
    assert_eq!(quoted_after(text, "T("), vec!["a-b", "f"]);
    assert_eq!(quoted_after(text, "msg: "), vec!["d"]);
    assert_eq!(quoted_after(text, "data-i18n="), vec!["e"]);
}

#[test]
fn the_vendored_fluent_is_the_pinned_release() {
    let fluent =
        std::fs::read_to_string(static_dir().join("vendor/fluent-bundle/index.js")).unwrap();
    assert!(
        fluent.starts_with("/** @fluent/bundle@0.19.1 "),
        "{}",
        &fluent[..60]
    );
}
