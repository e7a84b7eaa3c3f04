//! The certificate file: the claims a proof rests on, compact.
//!
//! Layout (docs/solve.md): the magic `SOWCERT1`; the rules, as the position text of their
//! start; the seeds S at and below which the tables value a position (the leaves); the root
//! claims (a label, a position text, the kind and the bound); then the claims, grouped by
//! layer (seeds on the board) and sorted by index within it, each index delta-coded as a
//! variable-length integer followed by one byte of flags and move and one byte per bound;
//! last, the CRC-32 of everything before it. A checkpoint of a run is the same file with the
//! run's proven claims and no roots.

use std::path::Path;

use sowing::{Position, Rules};
use sowing_tables::Family;

use crate::{key_index, key_seeds, Key, Kind, SolveError};

const MAGIC: &[u8; 8] = b"SOWCERT1";

/// A claim the certificate is meant to prove, about any position of the family (its
/// captures are ignored, as by the value).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Root {
    /// What it is, e.g. `start` or `after C`.
    pub label: String,
    /// The position.
    pub position: Position,
    /// V(position) ≥ bound, or ≤ bound.
    pub kind: Kind,
    /// The bound.
    pub bound: i32,
}

/// The proven bounds of one position: V ≥ lower (by the move given), V ≤ upper.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The position.
    pub key: Key,
    /// A lower bound and the code ([`crate::move_code`]) of the move that achieves it.
    pub lower: Option<(i32, u8)>,
    /// An upper bound.
    pub upper: Option<i32>,
}

/// A certificate (or a checkpoint) in memory.
#[derive(Clone, Debug)]
pub struct Certificate {
    /// The rules of every position in it.
    pub rules: Rules,
    /// Positions with at most this many seeds on the board are valued by the tables.
    pub leaf_seeds: usize,
    /// What the claims prove.
    pub roots: Vec<Root>,
    /// The claims, sorted by (seeds, index), one entry a position.
    pub claims: Vec<Entry>,
}

fn put_varint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push((value as u8) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

fn put_text(out: &mut Vec<u8>, text: &str) {
    put_varint(out, text.len() as u64);
    out.extend_from_slice(text.as_bytes());
}

fn zigzag(value: i32) -> u64 {
    ((value << 1) ^ (value >> 31)) as u32 as u64
}

fn unzigzag(value: u64) -> i32 {
    ((value >> 1) as i32) ^ -((value & 1) as i32)
}

fn bound_byte(bound: i32) -> u8 {
    bound.clamp(-128, 127) as i8 as u8
}

impl Certificate {
    /// The family of its rules.
    pub fn family(&self) -> Family {
        Family::of(self.rules)
    }

    /// The file's bytes. Claims are sorted first.
    pub fn encode(&self) -> Vec<u8> {
        let mut claims = self.claims.clone();
        claims.sort_by_key(|e| (key_seeds(e.key), key_index(e.key)));
        let mut out = Vec::with_capacity(64 + 4 * claims.len());
        out.extend_from_slice(MAGIC);
        put_text(&mut out, &Position::start(self.rules).to_string());
        out.push(self.leaf_seeds as u8);
        put_varint(&mut out, self.roots.len() as u64);
        for root in &self.roots {
            put_text(&mut out, &root.label);
            put_text(&mut out, &root.position.to_string());
            out.push(match root.kind {
                Kind::Lower => 0,
                Kind::Upper => 1,
            });
            put_varint(&mut out, zigzag(root.bound));
        }
        let mut layers: Vec<(usize, &[Entry])> = Vec::new();
        for chunk in claims.chunk_by(|a, b| key_seeds(a.key) == key_seeds(b.key)) {
            layers.push((key_seeds(chunk[0].key), chunk));
        }
        put_varint(&mut out, layers.len() as u64);
        for (seeds, entries) in layers {
            out.push(seeds as u8);
            put_varint(&mut out, entries.len() as u64);
            let mut next = 0u64;
            for entry in entries {
                let index = key_index(entry.key);
                put_varint(&mut out, index - next);
                next = index + 1;
                let mut flags = 0u8;
                if let Some((_, mv)) = entry.lower {
                    flags |= 0x80 | (mv & 0x1F);
                }
                if entry.upper.is_some() {
                    flags |= 0x40;
                }
                out.push(flags);
                if let Some((bound, _)) = entry.lower {
                    out.push(bound_byte(bound));
                }
                if let Some(bound) = entry.upper {
                    out.push(bound_byte(bound));
                }
            }
        }
        let crc = crc32fast::hash(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    }

    /// Reads a certificate from its bytes (`path` names it in errors).
    ///
    /// # Errors
    /// When the bytes are not a whole certificate: wrong magic or checksum, truncated,
    /// unreadable text, claims out of order.
    pub fn decode(bytes: &[u8], path: &Path) -> Result<Certificate, SolveError> {
        let bad = |why: &str| SolveError::Format {
            path: path.to_path_buf(),
            why: why.to_owned(),
        };
        if bytes.len() < MAGIC.len() + 4 || &bytes[..MAGIC.len()] != MAGIC {
            return Err(bad("not a sowing certificate (no SOWCERT1 magic)"));
        }
        let (body, crc) = bytes.split_at(bytes.len() - 4);
        if crc32fast::hash(body).to_le_bytes() != crc {
            return Err(bad("checksum mismatch: the file is damaged"));
        }
        let mut reader = Reader {
            bytes: body,
            at: MAGIC.len(),
        };
        let truncated = || bad("truncated");
        let start: Position = reader
            .text()
            .ok_or_else(truncated)?
            .parse()
            .map_err(|e| bad(&format!("rules: {e}")))?;
        let rules = start.rules();
        let leaf_seeds = usize::from(reader.byte().ok_or_else(truncated)?);
        let mut roots = Vec::new();
        for _ in 0..reader.varint().ok_or_else(truncated)? {
            let label = reader.text().ok_or_else(truncated)?;
            let text = reader.text().ok_or_else(truncated)?;
            let position: Position = text
                .parse()
                .map_err(|e| bad(&format!("root {label}: {e}")))?;
            if Family::of(position.rules()) != Family::of(rules) {
                return Err(bad(&format!("root {label} is of other rules: {text}")));
            }
            let kind = match reader.byte().ok_or_else(truncated)? {
                0 => Kind::Lower,
                1 => Kind::Upper,
                k => return Err(bad(&format!("root {label}: unknown kind {k}"))),
            };
            let bound = unzigzag(reader.varint().ok_or_else(truncated)?);
            roots.push(Root {
                label,
                position,
                kind,
                bound,
            });
        }
        let mut claims = Vec::new();
        let mut last_seeds = 0;
        for _ in 0..reader.varint().ok_or_else(truncated)? {
            let seeds = usize::from(reader.byte().ok_or_else(truncated)?);
            if seeds <= last_seeds || seeds >= 128 {
                return Err(bad("layers out of order"));
            }
            last_seeds = seeds;
            let mut next = 0u64;
            for _ in 0..reader.varint().ok_or_else(truncated)? {
                let index = next
                    .checked_add(reader.varint().ok_or_else(truncated)?)
                    .filter(|&i| i < crate::MAX_INDEX)
                    .ok_or_else(|| bad("index out of range"))?;
                next = index + 1;
                let flags = reader.byte().ok_or_else(truncated)?;
                let lower = if flags & 0x80 != 0 {
                    let bound = reader.byte().ok_or_else(truncated)? as i8;
                    Some((i32::from(bound), flags & 0x1F))
                } else {
                    None
                };
                let upper = if flags & 0x40 != 0 {
                    Some(i32::from(reader.byte().ok_or_else(truncated)? as i8))
                } else {
                    None
                };
                claims.push(Entry {
                    key: (index << 7) | seeds as u64,
                    lower,
                    upper,
                });
            }
        }
        if reader.at != body.len() {
            return Err(bad("trailing bytes after the claims"));
        }
        Ok(Certificate {
            rules,
            leaf_seeds,
            roots,
            claims,
        })
    }

    /// Writes the file: to `PATH.partial`, then renamed, so that a file with the final
    /// name is whole.
    ///
    /// # Errors
    /// When the file cannot be written.
    pub fn write(&self, path: &Path) -> Result<usize, SolveError> {
        let bytes = self.encode();
        let partial = path.with_extension("partial");
        let io = |error| SolveError::Io {
            path: path.to_path_buf(),
            error,
        };
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(io)?;
        }
        std::fs::write(&partial, &bytes).map_err(io)?;
        std::fs::rename(&partial, path).map_err(io)?;
        Ok(bytes.len())
    }

    /// Reads a file written by [`Certificate::write`].
    ///
    /// # Errors
    /// When it cannot be read or is malformed.
    pub fn read(path: &Path) -> Result<Certificate, SolveError> {
        let bytes = std::fs::read(path).map_err(|error| SolveError::Io {
            path: path.to_path_buf(),
            error,
        })?;
        Certificate::decode(&bytes, path)
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn byte(&mut self) -> Option<u8> {
        let byte = *self.bytes.get(self.at)?;
        self.at += 1;
        Some(byte)
    }

    fn varint(&mut self) -> Option<u64> {
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let byte = self.byte()?;
            value |= u64::from(byte & 0x7F) << shift;
            if byte & 0x80 == 0 {
                return Some(value);
            }
        }
        None
    }

    fn text(&mut self) -> Option<String> {
        let len = usize::try_from(self.varint()?).ok()?;
        let end = self
            .at
            .checked_add(len)
            .filter(|&e| e <= self.bytes.len())?;
        let text = std::str::from_utf8(&self.bytes[self.at..end])
            .ok()?
            .to_owned();
        self.at = end;
        Some(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sowing::Variant;

    #[test]
    fn round_trip() {
        let rules = Rules::new(Variant::HoyitoIII);
        let cert = Certificate {
            rules,
            leaf_seeds: 8,
            roots: vec![Root {
                label: "start".into(),
                position: Position::start(rules),
                kind: Kind::Upper,
                bound: -36,
            }],
            claims: vec![
                Entry {
                    key: (5 << 7) | 9,
                    lower: Some((-3, 2)),
                    upper: Some(4),
                },
                Entry {
                    key: (900 << 7) | 9,
                    lower: None,
                    upper: Some(-9),
                },
                Entry {
                    key: (1 << 7) | 40,
                    lower: Some((7, crate::PASS)),
                    upper: None,
                },
            ],
        };
        let bytes = cert.encode();
        let back = Certificate::decode(&bytes, Path::new("x")).unwrap();
        assert_eq!(back.roots, cert.roots);
        assert_eq!(back.claims, cert.claims);
        assert_eq!(back.leaf_seeds, 8);
        let mut damaged = bytes.clone();
        damaged[20] ^= 1;
        assert!(Certificate::decode(&damaged, Path::new("x")).is_err());
    }
}
