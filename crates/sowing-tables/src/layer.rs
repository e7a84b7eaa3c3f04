//! The values of one layer, whichever form they have: a raw file (one byte a position), a
//! compressed file ([`compressed`]), or values just built. Every reader of the tables goes
//! through [`Values::get`].

use std::borrow::Cow;
use std::path::Path;

use memmap2::Mmap;

use crate::{compressed, file, Family, TablesError};

/// Which form of a layer file to read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `layer-NNN.sowt`, one byte a position.
    Raw,
    /// `layer-NNN.sowz`, zstd blocks ([`compressed`]).
    Compressed,
}

/// The values of one layer.
pub enum Values {
    /// A raw file, memory-mapped (its header and checksum checked on opening).
    Mapped(Mmap),
    /// Just built, or read into memory.
    Owned(Vec<u8>),
    /// A compressed file (its header, index and checksum checked on opening).
    Compressed(compressed::Layer),
}

impl Values {
    /// The value byte at `index` (a signed byte).
    ///
    /// # Errors
    /// When a compressed block does not decompress (see [`compressed::Layer::get`]).
    ///
    /// # Panics
    /// When `index` is beyond the layer.
    #[inline]
    pub fn get(&self, index: u64) -> Result<u8, TablesError> {
        match self {
            Values::Mapped(map) => Ok(map[file::HEADER_LEN + index as usize]),
            Values::Owned(values) => Ok(values[index as usize]),
            Values::Compressed(layer) => layer.get(index),
        }
    }

    /// Positions in the layer.
    pub fn len(&self) -> u64 {
        match self {
            Values::Mapped(map) => (map.len() - file::HEADER_LEN) as u64,
            Values::Owned(values) => values.len() as u64,
            Values::Compressed(layer) => layer.len(),
        }
    }

    /// Whether the layer holds no position.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Which form the values are read from (`None`: in memory).
    pub fn format(&self) -> Option<Format> {
        match self {
            Values::Mapped(_) => Some(Format::Raw),
            Values::Owned(_) => None,
            Values::Compressed(_) => Some(Format::Compressed),
        }
    }

    /// Every value, one byte a position: borrowed when raw, decompressed block by block
    /// when compressed.
    ///
    /// # Errors
    /// When a compressed block does not decompress.
    pub fn all(&self) -> Result<Cow<'_, [u8]>, TablesError> {
        match self {
            Values::Mapped(map) => Ok(Cow::Borrowed(&map[file::HEADER_LEN..])),
            Values::Owned(values) => Ok(Cow::Borrowed(values)),
            Values::Compressed(layer) => {
                let mut out = Vec::with_capacity(layer.len() as usize);
                for b in 0..layer.blocks() {
                    out.extend_from_slice(&layer.block(b)?);
                }
                Ok(Cow::Owned(out))
            }
        }
    }
}

/// Opens layer `seeds` of `family` under `dir` in the form `format`, or (`None`) in the
/// form on disk: the raw file when there is one (it is read in place, the fastest), else the
/// compressed file. `Ok(None)` when there is no such file.
///
/// # Errors
/// When the file cannot be read, or is truncated, corrupt or of another family or layer.
pub fn open(
    dir: &Path,
    family: &Family,
    seeds: usize,
    format: Option<Format>,
) -> Result<Option<Values>, TablesError> {
    if format != Some(Format::Compressed) {
        if let Some(map) = file::open_raw(dir, family, seeds)? {
            return Ok(Some(Values::Mapped(map)));
        }
    }
    if format == Some(Format::Raw) {
        return Ok(None);
    }
    let path = file::compressed_path(dir, family, seeds);
    let Some(map) = file::map(&path)? else {
        return Ok(None);
    };
    let layer = compressed::Layer::new(Box::new(map), &path, family, seeds)?;
    Ok(Some(Values::Compressed(layer)))
}

/// Whether a file of layer `seeds` of `family` (raw or compressed) is under `dir`.
pub fn exists(dir: &Path, family: &Family, seeds: usize) -> bool {
    file::layer_path(dir, family, seeds).exists()
        || file::compressed_path(dir, family, seeds).exists()
}

/// The first position whose value differs between two forms of one layer (or the length,
/// when they differ in length), each read through [`Values::get`]: the check that a
/// compressed file holds its raw file's values, which trusts nothing the compressor wrote
/// but the file. Runs on the current rayon pool.
///
/// # Errors
/// When a compressed block does not decompress.
pub fn first_difference(a: &Values, b: &Values) -> Result<Option<u64>, TablesError> {
    use rayon::prelude::*;
    if a.len() != b.len() {
        return Ok(Some(a.len().min(b.len())));
    }
    const RANGE: u64 = 1 << 16;
    let ranges = a.len().div_ceil(RANGE);
    let found = (0..ranges)
        .into_par_iter()
        .map(|r| {
            for index in r * RANGE..((r + 1) * RANGE).min(a.len()) {
                if a.get(index)? != b.get(index)? {
                    return Ok(Some(index));
                }
            }
            Ok(None)
        })
        .collect::<Result<Vec<_>, TablesError>>()?;
    Ok(found.into_iter().flatten().next())
}
