//! `sowing.TablesShard`: one worker's share of a layer's solve split across a Ray cluster
//! (the tables crate's `split::Shard`), its parts and messages passed as bytes.

use std::path::PathBuf;

use pyo3::prelude::*;
use pyo3::types::PyBytes;
use sowing_tables::split::{Messages, Part, Shard};
use sowing_tables::{file, Family};

use crate::tables::tables_dir;
use crate::{RuleArgs, TablesError};

fn error(e: sowing_tables::TablesError) -> PyErr {
    TablesError::new_err(e.to_string())
}

/// One batch of messages a shard, as bytes (empty when there is none).
fn batches<'py>(py: Python<'py>, out: Vec<Messages>) -> Vec<Bound<'py, PyBytes>> {
    out.iter()
        .map(|m| PyBytes::new(py, &m.to_bytes()))
        .collect()
}

/// The shard `index` of a layer cut at `bounds` (from 0 to the layer's length): it takes
/// the parts of the expanded ranges meant for it (`Tables.expand_parts`), then runs its
/// rounds of the thresholds, exchanging batches of messages with the other shards, and
/// gives its range's values. Every call but the cheap ones releases the GIL.
#[pyclass(module = "sowing", name = "TablesShard")]
pub struct TablesShard {
    inner: Option<Shard>,
}

impl TablesShard {
    fn shard(&mut self) -> PyResult<&mut Shard> {
        self.inner
            .as_mut()
            .ok_or_else(|| TablesError::new_err("the shard has given its values already"))
    }
}

#[pymethods]
impl TablesShard {
    /// With `scratch`, the moves into the shard's range are kept in a file in that
    /// directory until `seal` (removed then, or when the shard is dropped).
    #[new]
    #[pyo3(signature = (bounds, index, scratch=None))]
    fn new(bounds: Vec<u64>, index: usize, scratch: Option<PathBuf>) -> PyResult<TablesShard> {
        if index + 1 >= bounds.len() || bounds[0] != 0 || bounds.windows(2).any(|w| w[0] > w[1]) {
            return Err(TablesError::new_err(format!(
                "shard {index} of the bounds {bounds:?}: not a shard of increasing bounds from 0"
            )));
        }
        let shard = Shard::with_scratch(&bounds, index, scratch.as_deref()).map_err(error)?;
        Ok(TablesShard { inner: Some(shard) })
    }

    /// Takes this shard's part of an expanded range (bytes of `Tables.expand_parts`).
    fn receive(&mut self, py: Python<'_>, part: &[u8]) -> PyResult<()> {
        let shard = self.shard()?;
        py.detach(|| shard.receive(&Part::from_bytes(part)?))
            .map_err(error)
    }

    /// Once every part is in: reverses the moves. Returns the largest exit value held.
    fn seal(&mut self, py: Python<'_>) -> PyResult<i32> {
        let shard = self.shard()?;
        py.detach(|| shard.seal()).map_err(error)
    }

    /// Starts a threshold: the batches of messages of the new members, one a shard (this
    /// shard's own empty: it keeps them for its next step).
    fn begin<'py>(
        &mut self,
        py: Python<'py>,
        threshold: i32,
    ) -> PyResult<Vec<Bound<'py, PyBytes>>> {
        let shard = self.shard()?;
        let out = py.detach(|| shard.begin(threshold));
        Ok(batches(py, out))
    }

    /// One round: applies the batches sent to this shard in the round before, and returns
    /// the next, as `begin`.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        inbox: Vec<Bound<'py, PyBytes>>,
    ) -> PyResult<Vec<Bound<'py, PyBytes>>> {
        let shard = self.shard()?;
        let inbox: Vec<&[u8]> = inbox.iter().map(|b| b.as_bytes()).collect();
        let out = py
            .detach(|| {
                let inbox = inbox
                    .iter()
                    .map(|bytes| Messages::from_bytes(bytes))
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(shard.step(&inbox))
            })
            .map_err(error)?;
        Ok(batches(py, out))
    }

    /// Whether the shard has messages left to send or to apply.
    #[getter]
    fn pending(&self) -> bool {
        self.inner.as_ref().is_some_and(Shard::pending)
    }

    /// The values of the shard's range, once the last threshold is done (the shard is
    /// spent: its memory goes back).
    fn values<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        self.shard()?;
        let values = self.inner.take().expect("checked").into_values();
        Ok(PyBytes::new(py, &values))
    }
}

/// Writes layer `seeds` of a game in `dir` from its values in consecutive parts (the shards'
/// ranges, in order): the file of `sow tables build`, header and checksum included. Returns
/// its path.
#[pyfunction]
#[pyo3(signature = (rules, seeds, parts, dir = None))]
pub fn tables_write_layer(
    py: Python<'_>,
    rules: RuleArgs,
    seeds: usize,
    parts: Vec<Bound<'_, PyBytes>>,
    dir: Option<PathBuf>,
) -> PyResult<PathBuf> {
    let family = Family::of(rules.rules()?);
    let dir = tables_dir(dir)?;
    let parts: Vec<&[u8]> = parts.iter().map(|p| p.as_bytes()).collect();
    let count: u64 = parts.iter().map(|p| p.len() as u64).sum();
    if count != family.layer_len(seeds) {
        return Err(TablesError::new_err(format!(
            "{count} values for the {} positions of layer {seeds}",
            family.layer_len(seeds)
        )));
    }
    py.detach(|| file::write_layer_parts(&dir, &family, seeds, &parts))
        .map_err(error)
}
