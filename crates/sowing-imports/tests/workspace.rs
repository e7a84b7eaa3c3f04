//! The import check over the whole workspace: every crate's files, the web crate's layers.

use std::path::Path;

#[test]
fn no_crate_has_an_import_cycle_and_the_web_layers_hold() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let sources = sowing_imports::read_workspace(&root).expect("the workspace's sources");
    let found = sowing_imports::check(&sources, &[sowing_imports::WEB_LAYERS]);
    // A check that resolved nothing would pass anything.
    assert!(sources.len() > 100, "{} files read", sources.len());
    assert!(
        found.edges.len() > 100,
        "{} imports found",
        found.edges.len()
    );
    let problems: Vec<String> = found.problems.iter().map(|p| p.to_string()).collect();
    assert!(
        problems.is_empty(),
        "{} import problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}
