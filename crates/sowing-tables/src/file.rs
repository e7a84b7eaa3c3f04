//! One raw layer file: a 64-byte header, then one signed byte a position (the compressed
//! form is [`crate::compressed`]'s). `docs/tables.md`
//! documents the layout for other programs.

use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};

use memmap2::Mmap;

use crate::{Family, TablesError};

/// The first eight bytes of every layer file.
pub const MAGIC: &[u8; 8] = b"SOWTABLE";
/// The format version in the header.
pub const VERSION: u32 = 1;
/// Bytes before the values.
pub const HEADER_LEN: usize = 64;

/// The file of layer `seeds` of a family under `dir`: `DIR/<family>/layer-NNN.sowt`.
pub fn layer_path(dir: &Path, family: &Family, seeds: usize) -> PathBuf {
    dir.join(family.name())
        .join(format!("layer-{seeds:03}.sowt"))
}

/// The compressed file of layer `seeds` of a family under `dir`:
/// `DIR/<family>/layer-NNN.sowz` (see [`crate::compressed`]).
pub fn compressed_path(dir: &Path, family: &Family, seeds: usize) -> PathBuf {
    layer_path(dir, family, seeds).with_extension("sowz")
}

/// Writes `bytes` to `path` atomically: to `path` with `.partial` added, synced, then
/// renamed into place (a kill leaves at most the partial file, which the next write
/// replaces).
///
/// # Errors
/// When the directory or file cannot be written.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), TablesError> {
    let parent = path.parent().expect("a layer path has a directory");
    fs::create_dir_all(parent).map_err(|e| TablesError::io(parent, e))?;
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".partial");
    let temporary = PathBuf::from(temporary);
    let write = || -> std::io::Result<()> {
        let mut file = File::create(&temporary)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        fs::rename(&temporary, path)
    };
    write().map_err(|e| TablesError::io(path, e))
}

/// The scratch file of a layer being built short of memory (see `build::solve_through`),
/// beside its layer file; removed once the layer is solved.
pub fn scratch_path(dir: &Path, family: &Family, seeds: usize) -> PathBuf {
    layer_path(dir, family, seeds).with_extension("moves.partial")
}

/// The header of a layer of `family` with `seeds` seeds whose values are `values`.
pub fn header(family: &Family, seeds: usize, values: &[u8]) -> [u8; HEADER_LEN] {
    header_of(family, seeds, values.len() as u64, crc32fast::hash(values))
}

/// The header of a layer of `count` values whose checksum (CRC-32) is `crc`.
fn header_of(family: &Family, seeds: usize, count: u64, crc: u32) -> [u8; HEADER_LEN] {
    let mut h = [0u8; HEADER_LEN];
    h[0..8].copy_from_slice(MAGIC);
    h[8..12].copy_from_slice(&VERSION.to_le_bytes());
    describe(&mut h, family, seeds, count);
    h[32..36].copy_from_slice(&crc.to_le_bytes());
    let crc = crc32fast::hash(&h[..60]);
    h[60..64].copy_from_slice(&crc.to_le_bytes());
    h
}

/// Writes a layer atomically: to a temporary file, synced, then renamed into place.
///
/// # Errors
/// When the directory or file cannot be written.
pub fn write_layer(
    dir: &Path,
    family: &Family,
    seeds: usize,
    values: &[u8],
) -> Result<PathBuf, TablesError> {
    write_layer_parts(dir, family, seeds, &[values])
}

/// [`write_layer`] from the values in consecutive parts (the ranges of a solve split across
/// workers), without joining them in memory.
///
/// # Errors
/// When the directory or file cannot be written.
pub fn write_layer_parts(
    dir: &Path,
    family: &Family,
    seeds: usize,
    parts: &[&[u8]],
) -> Result<PathBuf, TablesError> {
    let path = layer_path(dir, family, seeds);
    let parent = path.parent().expect("a layer path has a directory");
    fs::create_dir_all(parent).map_err(|e| TablesError::io(parent, e))?;
    let temporary = path.with_extension("sowt.partial");
    let mut hasher = crc32fast::Hasher::new();
    parts.iter().for_each(|part| hasher.update(part));
    let crc = hasher.finalize();
    let count = parts.iter().map(|part| part.len() as u64).sum();
    let write = || -> std::io::Result<()> {
        let mut file = File::create(&temporary)?;
        file.write_all(&header_of(family, seeds, count, crc))?;
        for part in parts {
            file.write_all(part)?;
        }
        file.sync_all()?;
        fs::rename(&temporary, &path)
    };
    write().map_err(|e| TablesError::io(&path, e))?;
    Ok(path)
}

/// Maps the raw layer file `seeds` of `family` under `dir` and checks it
/// ([`check_raw`]). `Ok(None)` when the file does not exist.
///
/// # Errors
/// When the file cannot be read, or is truncated, corrupt or of another family or layer.
pub fn open_raw(dir: &Path, family: &Family, seeds: usize) -> Result<Option<Mmap>, TablesError> {
    let path = layer_path(dir, family, seeds);
    let Some(map) = map(&path)? else {
        return Ok(None);
    };
    check_raw(&map, &path, family, seeds)?;
    Ok(Some(map))
}

/// Maps the file at `path`; `Ok(None)` when it does not exist.
///
/// # Errors
/// When the file cannot be opened or mapped.
pub fn map(path: &Path) -> Result<Option<Mmap>, TablesError> {
    let file = match File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(TablesError::io(path, e)),
    };
    // SAFETY: the tables are written once, atomically by rename, and never changed in place;
    // a file replaced while mapped keeps its old pages.
    let map = unsafe { Mmap::map(&file) }.map_err(|e| TablesError::io(path, e))?;
    Ok(Some(map))
}

/// Checks that `bytes` (the content of `path`) are the raw layer `seeds` of `family`: every
/// header field and the checksum of the values.
///
/// # Errors
/// [`TablesError::Corrupt`] naming `path` when they are truncated, corrupt or of another
/// family or layer.
pub fn check_raw(
    bytes: &[u8],
    path: &Path,
    family: &Family,
    seeds: usize,
) -> Result<(), TablesError> {
    let corrupt = |why: String| TablesError::Corrupt {
        path: path.to_path_buf(),
        why,
    };
    if bytes.len() < HEADER_LEN {
        return Err(corrupt(format!(
            "{} bytes, shorter than the {HEADER_LEN}-byte header (truncated?)",
            bytes.len()
        )));
    }
    let h = &bytes[..HEADER_LEN];
    if &h[0..8] != MAGIC {
        return Err(corrupt("not a sowing table (wrong magic bytes)".into()));
    }
    let word = |at: usize| u32::from_le_bytes(h[at..at + 4].try_into().expect("4 bytes"));
    if crc32fast::hash(&h[..60]) != word(60) {
        return Err(corrupt("the header's checksum does not match".into()));
    }
    if word(8) != VERSION {
        return Err(corrupt(format!(
            "format version {} (this program reads {VERSION})",
            word(8)
        )));
    }
    let count = check_describes(h, family, seeds).map_err(corrupt)?;
    let values_len = bytes.len() - HEADER_LEN;
    if values_len as u64 != count {
        return Err(corrupt(format!(
            "{values_len} values where the header says {count} (truncated?)"
        )));
    }
    if crc32fast::hash(&bytes[HEADER_LEN..]) != word(32) {
        return Err(corrupt("the values' checksum does not match".into()));
    }
    Ok(())
}

/// Writes the table's description into bytes 12–31 of a header (raw or compressed): game,
/// pits a row, options, rule states, seeds and positions.
pub(crate) fn describe(h: &mut [u8; HEADER_LEN], family: &Family, seeds: usize, count: u64) {
    h[12] = family.game_code();
    h[13] = family.pits_per_row() as u8;
    h[14..17].copy_from_slice(&family.option_codes());
    h[17] = family.states() as u8;
    h[20..24].copy_from_slice(&(seeds as u32).to_le_bytes());
    h[24..32].copy_from_slice(&count.to_le_bytes());
}

/// The number of positions in a header (raw or compressed) whose description (bytes
/// 12–31) is that of layer `seeds` of `family`, or why it is another table.
pub(crate) fn check_describes(h: &[u8], family: &Family, seeds: usize) -> Result<u64, String> {
    let word = |at: usize| u32::from_le_bytes(h[at..at + 4].try_into().expect("4 bytes"));
    let expected_count = family.layer_len(seeds);
    let count = u64::from_le_bytes(h[24..32].try_into().expect("8 bytes"));
    let same_family = h[12] == family.game_code()
        && usize::from(h[13]) == family.pits_per_row()
        && h[14..17] == family.option_codes()
        && usize::from(h[17]) == family.states();
    if !same_family || word(20) as usize != seeds || count != expected_count {
        return Err(format!(
            "its header describes another table (game {}, {} pits a row, options {:?}, \
             {} seeds, {count} positions; expected {family}, {seeds} seeds, {expected_count})",
            h[12],
            h[13],
            &h[14..17],
            word(20)
        ));
    }
    Ok(count)
}
