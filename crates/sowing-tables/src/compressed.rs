//! A compressed layer file: the raw layer's values cut into blocks of a fixed number of
//! positions, each block a separate zstd frame, behind an index of the blocks' offsets, so
//! that a probe decompresses one block. `docs/tables.md` documents the layout.
//!
//! The reader works on any byte slice (a memory-mapped file or bytes in memory) and uses
//! nothing of the platform but a thread-local cache of the last blocks decompressed.

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use crate::{file, Family, TablesError};

/// The first eight bytes of every compressed layer file.
pub const MAGIC: &[u8; 8] = b"SOWTZSTD";
/// The format version in the header.
pub const VERSION: u32 = 1;
/// Bytes before the block index.
pub const HEADER_LEN: usize = 64;

/// How a layer is compressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Positions a block (the last block may hold fewer).
    pub block: u32,
    /// The zstd level (1–22).
    pub level: i32,
}

impl Default for Settings {
    /// The choice measured in `docs/tables.md` ("Compressed tables").
    fn default() -> Settings {
        Settings {
            block: 4096,
            level: 12,
        }
    }
}

/// The whole compressed file of layer `seeds` of `family` whose values are `values`: header,
/// index and blocks. The blocks are compressed in parallel on the current rayon pool.
///
/// # Errors
/// When zstd refuses a setting (a level out of range) or the block size is 0.
pub fn compress(
    family: &Family,
    seeds: usize,
    values: &[u8],
    settings: Settings,
) -> Result<Vec<u8>, TablesError> {
    if settings.block == 0 {
        return Err(TablesError::Unsupported(
            "a compressed block holds at least one position".into(),
        ));
    }
    if !zstd::compression_level_range().contains(&settings.level) {
        return Err(TablesError::Unsupported(format!(
            "zstd has no level {} (it has {:?})",
            settings.level,
            zstd::compression_level_range()
        )));
    }
    let frames: Vec<Vec<u8>> = values
        .par_chunks(settings.block as usize)
        .map_init(
            || zstd::bulk::Compressor::new(settings.level).and_then(quiet_frames),
            |compressor, block| match compressor {
                Ok(compressor) => compressor.compress(block),
                Err(error) => Err(std::io::Error::new(error.kind(), error.to_string())),
            },
        )
        .collect::<Result<_, _>>()
        .map_err(|error| {
            TablesError::Unsupported(format!(
                "zstd cannot compress at level {}: {error}",
                settings.level
            ))
        })?;
    let data_len: u64 = frames.iter().map(|f| f.len() as u64).sum();
    let mut out = Vec::with_capacity(HEADER_LEN + 8 * (frames.len() + 1) + data_len as usize);
    out.extend_from_slice(&[0; HEADER_LEN]);
    let mut offset = 0u64;
    out.extend_from_slice(&offset.to_le_bytes());
    for frame in &frames {
        offset += frame.len() as u64;
        out.extend_from_slice(&offset.to_le_bytes());
    }
    for frame in &frames {
        out.extend_from_slice(frame);
    }
    let mut h = [0u8; HEADER_LEN];
    h[0..8].copy_from_slice(MAGIC);
    h[8..12].copy_from_slice(&VERSION.to_le_bytes());
    file::describe(&mut h, family, seeds, values.len() as u64);
    h[32..36].copy_from_slice(&crc32fast::hash(values).to_le_bytes());
    h[36..40].copy_from_slice(&settings.block.to_le_bytes());
    h[40..48].copy_from_slice(&data_len.to_le_bytes());
    h[48..52].copy_from_slice(&crc32fast::hash(&out[HEADER_LEN..]).to_le_bytes());
    let crc = crc32fast::hash(&h[..60]);
    h[60..64].copy_from_slice(&crc.to_le_bytes());
    out[..HEADER_LEN].copy_from_slice(&h);
    Ok(out)
}

/// Frames without what a block does not need: no checksum (the file's is checked on
/// opening), no content size, no dictionary id.
fn quiet_frames(
    mut compressor: zstd::bulk::Compressor<'static>,
) -> std::io::Result<zstd::bulk::Compressor<'static>> {
    use zstd::zstd_safe::CParameter;
    compressor.set_parameter(CParameter::ChecksumFlag(false))?;
    compressor.set_parameter(CParameter::ContentSizeFlag(false))?;
    compressor.set_parameter(CParameter::DictIdFlag(false))?;
    Ok(compressor)
}

/// The bytes of a compressed layer: a memory-mapped file or bytes in memory.
pub type Bytes = Box<dyn AsRef<[u8]> + Send + Sync>;

/// One compressed layer, checked on opening (header, index and the checksum of the whole
/// file), read a block at a time.
pub struct Layer {
    bytes: Bytes,
    /// The file, for errors.
    path: PathBuf,
    count: u64,
    block: u64,
    /// log2 of `block` when it is a power of two (the default): a probe then shifts
    /// instead of dividing.
    shift: Option<u32>,
    blocks: u64,
    /// The CRC-32 of the values, as the raw layer file's header has it.
    values_crc: u32,
    /// Distinguishes this layer's blocks from every other's in the thread's cache.
    id: u64,
}

/// Source of [`Layer::id`].
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

impl Layer {
    /// Reads the compressed layer `seeds` of `family` from `bytes` (the content of `path`),
    /// checking the header, the index and the file's checksum.
    ///
    /// # Errors
    /// [`TablesError::Corrupt`] naming `path` when the bytes are truncated, damaged or of
    /// another table.
    pub fn new(
        bytes: Bytes,
        path: &Path,
        family: &Family,
        seeds: usize,
    ) -> Result<Layer, TablesError> {
        let corrupt = |why: String| TablesError::Corrupt {
            path: path.to_path_buf(),
            why,
        };
        let (count, block, blocks, values_crc, data_len) =
            Layer::check(bytes.as_ref().as_ref(), family, seeds).map_err(corrupt)?;
        let layer = Layer {
            path: path.to_path_buf(),
            count,
            block,
            shift: block.is_power_of_two().then(|| block.trailing_zeros()),
            blocks,
            values_crc,
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            bytes,
        };
        let mut previous = 0;
        for b in 0..=blocks {
            let offset = layer.offset(b);
            if offset < previous || offset > data_len || (b == 0 && offset != 0) {
                return Err(corrupt(format!(
                    "the index of blocks is out of order at block {b}"
                )));
            }
            previous = offset;
        }
        Ok(layer)
    }

    /// Checks the header, the length and the checksum of a compressed layer file: its
    /// positions, positions a block, blocks, the values' CRC and the data's length, or why
    /// the file is refused.
    fn check(
        all: &[u8],
        family: &Family,
        seeds: usize,
    ) -> Result<(u64, u64, u64, u32, u64), String> {
        if all.len() < HEADER_LEN {
            return Err(format!(
                "{} bytes, shorter than the {HEADER_LEN}-byte header (truncated?)",
                all.len()
            ));
        }
        let h = &all[..HEADER_LEN];
        if &h[0..8] != MAGIC {
            return Err("not a compressed sowing table (wrong magic bytes)".into());
        }
        let word = |at: usize| u32::from_le_bytes(h[at..at + 4].try_into().expect("4 bytes"));
        let long = |at: usize| u64::from_le_bytes(h[at..at + 8].try_into().expect("8 bytes"));
        if crc32fast::hash(&h[..60]) != word(60) {
            return Err("the header's checksum does not match".into());
        }
        if word(8) != VERSION {
            return Err(format!(
                "compressed format version {} (this program reads {VERSION})",
                word(8)
            ));
        }
        let count = file::check_describes(h, family, seeds)?;
        let block = u64::from(word(36));
        if block == 0 {
            return Err("its blocks hold 0 positions".into());
        }
        let blocks = count.div_ceil(block);
        let expected = (HEADER_LEN as u64)
            .saturating_add(8 * (blocks + 1))
            .saturating_add(long(40));
        if all.len() as u64 != expected {
            return Err(format!(
                "{} bytes where the header says {expected} (truncated?)",
                all.len()
            ));
        }
        if crc32fast::hash(&all[HEADER_LEN..]) != word(48) {
            return Err("the file's checksum does not match".into());
        }
        Ok((count, block, blocks, word(32), long(40)))
    }

    /// Positions in the layer.
    pub fn len(&self) -> u64 {
        self.count
    }

    /// Whether the layer holds no position.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Positions a block.
    pub fn block_len(&self) -> u64 {
        self.block
    }

    /// The CRC-32 of the values (that of the raw layer file they came from).
    pub fn values_crc(&self) -> u32 {
        self.values_crc
    }

    /// The size of the compressed file in bytes.
    pub fn compressed_len(&self) -> u64 {
        (*self.bytes).as_ref().len() as u64
    }

    /// Where block `b`'s frame starts in the data (entry `b` of the index).
    fn offset(&self, b: u64) -> u64 {
        let at = HEADER_LEN + 8 * b as usize;
        let all = (*self.bytes).as_ref();
        u64::from_le_bytes(all[at..at + 8].try_into().expect("8 bytes"))
    }

    /// The frame of block `b`.
    fn frame(&self, b: u64) -> &[u8] {
        let data = HEADER_LEN + 8 * (self.blocks as usize + 1);
        let all = (*self.bytes).as_ref();
        &all[data + self.offset(b) as usize..data + self.offset(b + 1) as usize]
    }

    /// Positions in block `b`.
    fn positions_in(&self, b: u64) -> usize {
        (self.count - b * self.block).min(self.block) as usize
    }

    /// Decompresses block `b` into `out` (cleared first) with `decompressor`.
    fn decode_into(
        &self,
        b: u64,
        decompressor: &mut zstd::bulk::Decompressor<'static>,
        out: &mut Vec<u8>,
    ) -> Result<(), TablesError> {
        let want = self.positions_in(b);
        out.clear();
        out.reserve(want);
        let corrupt = |why: String| TablesError::Corrupt {
            path: self.path.clone(),
            why,
        };
        let got = decompressor
            .decompress_to_buffer(self.frame(b), out)
            .map_err(|error| corrupt(format!("block {b} does not decompress: {error}")))?;
        if got != want {
            out.clear();
            return Err(corrupt(format!(
                "block {b} holds {got} values instead of {want}"
            )));
        }
        Ok(())
    }

    /// The values of block `b` (positions `b × block_len ..`), decompressed afresh.
    ///
    /// # Errors
    /// [`TablesError::Corrupt`] naming the file when the block does not decompress to its
    /// length.
    pub fn block(&self, b: u64) -> Result<Vec<u8>, TablesError> {
        let mut out = Vec::new();
        with_decompressor(|d| self.decode_into(b, d, &mut out))?;
        Ok(out)
    }

    /// The number of blocks.
    pub fn blocks(&self) -> u64 {
        self.blocks
    }

    /// The value byte at `index`, through the thread's cache of blocks.
    ///
    /// # Errors
    /// [`TablesError::Corrupt`] naming the file when its block does not decompress (the file
    /// passed its checksum: a crafted file or a compressor's fault).
    ///
    /// # Panics
    /// When `index` is not below [`Layer::len`].
    #[inline]
    pub fn get(&self, index: u64) -> Result<u8, TablesError> {
        assert!(index < self.count, "index {index} beyond the layer");
        let (b, at) = match self.shift {
            Some(shift) => (index >> shift, (index & (self.block - 1)) as usize),
            None => (index / self.block, (index % self.block) as usize),
        };
        CACHE.with(|cache| {
            let mut cache = cache.borrow_mut();
            let Cache {
                slots,
                tick,
                decompressor,
            } = &mut *cache;
            *tick += 1;
            let set = &mut slots[set_of(self.id, b) * WAYS..][..WAYS];
            if let Some(slot) = set.iter_mut().find(|slot| slot.key == (self.id, b)) {
                slot.used = *tick;
                return Ok(slot.values[at]);
            }
            let slot = set
                .iter_mut()
                .min_by_key(|slot| slot.used)
                .expect("a set has ways");
            slot.key = (0, 0);
            slot.used = *tick;
            let decompressor = match decompressor {
                Some(d) => d,
                None => decompressor.insert(new_decompressor(&self.path)?),
            };
            self.decode_into(b, decompressor, &mut slot.values)?;
            slot.key = (self.id, b);
            Ok(slot.values[at])
        })
    }
}

/// Sets of the thread's cache of blocks, and blocks a set: 256 blocks kept decompressed a
/// thread (4 KiB each at the default block size, 1 MiB in all).
const SETS: usize = 64;
const WAYS: usize = 4;

/// One block kept decompressed.
struct Slot {
    /// (layer id, block); layer id 0 marks an empty slot.
    key: (u64, u64),
    /// When it was last read ([`Cache::tick`]): the least recent of a set goes first.
    used: u64,
    values: Vec<u8>,
}

/// The last blocks a thread decompressed (set-associative by layer and block, the least
/// recently read of a set replaced), with the thread's zstd context.
struct Cache {
    slots: Vec<Slot>,
    tick: u64,
    decompressor: Option<zstd::bulk::Decompressor<'static>>,
}

thread_local! {
    static CACHE: RefCell<Cache> = RefCell::new(Cache {
        slots: (0..SETS * WAYS)
            .map(|_| Slot { key: (0, 0), used: 0, values: Vec::new() })
            .collect(),
        tick: 0,
        decompressor: None,
    });
}

/// The cache set of block `b` of layer `id`.
#[inline]
fn set_of(id: u64, b: u64) -> usize {
    let mixed = (b ^ id.rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (mixed >> 58) as usize % SETS
}

fn new_decompressor(path: &Path) -> Result<zstd::bulk::Decompressor<'static>, TablesError> {
    zstd::bulk::Decompressor::new().map_err(|e| TablesError::io(path, e))
}

/// Runs `f` with the thread's zstd context (made on first use).
fn with_decompressor<T>(
    f: impl FnOnce(&mut zstd::bulk::Decompressor<'static>) -> Result<T, TablesError>,
) -> Result<T, TablesError> {
    CACHE.with(|cache| {
        let mut cache = cache.borrow_mut();
        let decompressor = match &mut cache.decompressor {
            Some(d) => d,
            slot @ None => slot.insert(new_decompressor(Path::new("zstd"))?),
        };
        f(decompressor)
    })
}
