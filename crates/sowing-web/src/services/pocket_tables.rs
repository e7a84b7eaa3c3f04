//! The small endgame tables the page keeps for the engine in the browser
//! (`GET /api/tables/{family}`, docs/api.md): each layer of at most [`POCKET_SEEDS`] seeds
//! of the server's tables, as a compressed layer file (docs/tables.md, "Compressed tables")
//! that the WebAssembly engine checks and probes in place.
//!
//! The compressed file of a layer is a function of the family and the layer alone (the
//! tables are exact, whoever built them), so it is made once per process, on the first
//! request, and kept.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use serde::Serialize;
use sowing::Rules;
use sowing_engine::TableSet;
use sowing_tables::{compressed, Family};

/// The largest layer sent: the tables to 12 seeds are at most 1.3 MB compressed per game
/// (Ayoayo; Hoyito's 0.27 MB).
pub const POCKET_SEEDS: usize = 12;

/// The layers of one family the server can send.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Listing {
    /// The family's name (`hoyito-ii-2x6-casa-rows=any`, …).
    pub family: String,
    /// Each layer built, from 1 seed up.
    pub layers: Vec<LayerFile>,
}

/// One compressed layer file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LayerFile {
    /// Seeds on the board.
    pub seeds: usize,
    /// The file's size in bytes.
    pub bytes: usize,
}

/// The compressed layers made so far, by family name and layer.
type Made = Mutex<HashMap<(String, usize), Arc<Vec<u8>>>>;

fn made() -> &'static Made {
    static MADE: OnceLock<Made> = OnceLock::new();
    MADE.get_or_init(|| Mutex::new(HashMap::new()))
}

/// The rules of the family named `name` (with its default options where the family does not
/// tell them apart), if it names one.
pub fn family_rules(name: &str) -> Option<Rules> {
    Rules::all()
        .into_iter()
        .find(|rules| Family::of(*rules).name() == name)
}

/// The compressed file of layer `seeds` of family `name` from `set`; `None` when the name is
/// no family, the layer is beyond [`POCKET_SEEDS`] or not built. Compresses on the first
/// call (a second or so for Ayoayo's layer 12): call it off the async runtime.
///
/// # Errors
/// When a table file cannot be read.
pub fn layer_file(
    set: &TableSet,
    name: &str,
    seeds: usize,
) -> Result<Option<Arc<Vec<u8>>>, String> {
    let Some(rules) = family_rules(name) else {
        return Ok(None);
    };
    let key = (name.to_owned(), seeds);
    if let Some(file) = made().lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return Ok(Some(file.clone()));
    }
    let Some(tables) = set.tables(rules).map_err(|e| e.to_string())? else {
        return Ok(None);
    };
    if seeds == 0 || seeds > POCKET_SEEDS || !tables.built(seeds) {
        return Ok(None);
    }
    let values = tables.layer(seeds).map_err(|e| e.to_string())?;
    let file = Arc::new(
        compressed::compress(
            &tables.family(),
            seeds,
            &values,
            compressed::Settings::default(),
        )
        .map_err(|e| e.to_string())?,
    );
    made()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(key, file.clone());
    Ok(Some(file))
}

/// The layers of family `name` the server can send, with their sizes; `None` when the name
/// is no family or the server has none of its tables. Makes every file: call it off the
/// async runtime.
///
/// # Errors
/// When a table file cannot be read.
pub fn listing(set: &TableSet, name: &str) -> Result<Option<Listing>, String> {
    let Some(rules) = family_rules(name) else {
        return Ok(None);
    };
    let Some(tables) = set.tables(rules).map_err(|e| e.to_string())? else {
        return Ok(None);
    };
    let mut layers = Vec::new();
    for seeds in tables.layers_built() {
        if seeds > POCKET_SEEDS {
            break;
        }
        if let Some(file) = layer_file(set, name, seeds)? {
            layers.push(LayerFile {
                seeds,
                bytes: file.len(),
            });
        }
    }
    Ok((!layers.is_empty()).then(|| Listing {
        family: name.to_owned(),
        layers,
    }))
}
