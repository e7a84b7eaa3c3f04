//! Compressed layer files read the same values as raw ones through every probing path
//! (`Tables::stored`, `value`, `probe`, the re-proof of `verify`); a damaged or truncated
//! compressed file is refused with an error naming it; a block that passes the checksum yet
//! does not decompress is an error, never a panic.

use sowing::{Position, Rules, Variant};
use sowing_tables::build::{self, Layers, Options};
use sowing_tables::compressed::{self, Settings};
use sowing_tables::{file, verify, Family, Format, Tables, TablesError, MAX_LAYER_SEEDS};

mod common;
use common::Scratch;

/// Small blocks, so that small layers have many blocks and a short last one.
const SMALL: Settings = Settings {
    block: 100,
    level: 3,
};

fn options(compressed: Option<Settings>) -> Options {
    Options {
        layers: Layers::All,
        compressed,
        ..Options::quiet()
    }
}

/// Builds `rules` to `max_seeds` raw and compressed, and compares every value of every
/// layer through `stored`, and `value` and `probe` of positions of every layer.
fn compressed_reads_as_raw(name: &str, rules: Rules, max_seeds: usize) {
    let (raw, packed) = (
        Scratch::new(&format!("{name}-raw")),
        Scratch::new(&format!("{name}-z")),
    );
    build::build(&raw.0, rules, max_seeds, &options(None)).unwrap();
    build::build(&packed.0, rules, max_seeds, &options(Some(SMALL))).unwrap();
    let family = Family::of(rules);
    let a = Tables::open(&raw.0, rules).unwrap();
    let b = Tables::open(&packed.0, rules).unwrap();
    assert_eq!(a.layers_built(), b.layers_built());
    assert_eq!(b.max_seeds(), max_seeds);
    for seeds in 1..=max_seeds {
        assert!(!file::layer_path(&packed.0, &family, seeds).exists());
        assert_eq!(a.values(seeds).format(), Some(Format::Raw));
        assert_eq!(b.values(seeds).format(), Some(Format::Compressed));
        // Backwards, so that the cache is not simply filled in order.
        for index in (0..family.layer_len(seeds)).rev() {
            assert_eq!(
                a.stored(seeds, index).unwrap(),
                b.stored(seeds, index).unwrap(),
                "{family}, layer {seeds}, index {index}"
            );
        }
        assert_eq!(a.layer(seeds).unwrap(), b.layer(seeds).unwrap());
        let step = (family.layer_len(seeds) / 300).max(1);
        for index in (0..family.layer_len(seeds)).step_by(step as usize) {
            let position: Position = family.position(seeds, index);
            assert_eq!(a.value(&position).unwrap(), b.value(&position).unwrap());
            assert_eq!(a.probe(&position).unwrap(), b.probe(&position).unwrap());
        }
    }
    // The re-proof reads the compressed values through the same path.
    let proof = verify::verify(&packed.0, rules, &Options::quiet()).unwrap();
    assert_eq!(proof.layers.len(), max_seeds);
}

#[test]
fn every_layer_of_hoyito_ii_reads_the_same_compressed() {
    compressed_reads_as_raw("h2", Rules::new(Variant::HoyitoII), 10);
}

#[test]
fn every_layer_of_ayoayo_reads_the_same_compressed() {
    compressed_reads_as_raw("ayo", Rules::new(Variant::Ayoayo), 9);
}

#[test]
fn a_compressed_build_resumes_over_its_compressed_layers() {
    let rules = Rules::new(Variant::HoyitoII);
    let (raw, packed) = (Scratch::new("resume-raw"), Scratch::new("resume-z"));
    build::build(&raw.0, rules, 12, &Options::quiet()).unwrap();
    build::build(
        &packed.0,
        rules,
        8,
        &Options {
            compressed: Some(SMALL),
            ..Options::quiet()
        },
    )
    .unwrap();
    let report = build::build(
        &packed.0,
        rules,
        12,
        &Options {
            compressed: Some(SMALL),
            ..Options::quiet()
        },
    )
    .unwrap();
    assert_eq!(report.reused, [4, 8]);
    assert_eq!(report.built, [12]);
    let (a, b) = (
        Tables::open(&raw.0, rules).unwrap(),
        Tables::open(&packed.0, rules).unwrap(),
    );
    let family = Family::of(rules);
    for seeds in [4, 8, 12] {
        let raw_file = common::bytes(&raw.0, &family, seeds);
        assert_eq!(a.layer(seeds).unwrap()[..], raw_file[file::HEADER_LEN..]);
        assert_eq!(
            a.layer(seeds).unwrap(),
            b.layer(seeds).unwrap(),
            "layer {seeds}"
        );
    }
}

/// Hoyito II's layer 8 under a scratch directory, raw and compressed with `settings`
/// side by side, and its raw values.
fn raw_and_compressed_layer(name: &str, settings: Settings) -> (Scratch, Family, Vec<u8>) {
    let rules = Rules::new(Variant::HoyitoII);
    let dir = Scratch::new(name);
    build::build(&dir.0, rules, 8, &Options::quiet()).unwrap();
    let family = Family::of(rules);
    let values = Tables::open(&dir.0, rules)
        .unwrap()
        .layer(8)
        .unwrap()
        .into_owned();
    let bytes = compressed::compress(&family, 8, &values, settings).unwrap();
    file::write_atomically(&file::compressed_path(&dir.0, &family, 8), &bytes).unwrap();
    (dir, family, values)
}

/// A compressed layer 8 of Hoyito II under a scratch directory (the raw file removed), and
/// its raw values.
fn one_compressed_layer(name: &str) -> (Scratch, Family, Vec<u8>) {
    let (dir, family, values) = raw_and_compressed_layer(name, SMALL);
    std::fs::remove_file(file::layer_path(&dir.0, &family, 8)).unwrap();
    (dir, family, values)
}

fn refusal(dir: &Scratch) -> String {
    let rules = Rules::new(Variant::HoyitoII);
    match Tables::open(&dir.0, rules) {
        Err(error @ TablesError::Corrupt { .. }) => error.to_string(),
        Err(other) => panic!("another error: {other}"),
        Ok(_) => panic!("a damaged file was opened"),
    }
}

#[test]
fn a_truncated_or_damaged_compressed_file_is_refused_naming_it() {
    let (dir, family, _) = one_compressed_layer("damaged");
    let path = file::compressed_path(&dir.0, &family, 8);
    let name = path.display().to_string();
    let good = std::fs::read(&path).unwrap();
    assert!(Tables::open(&dir.0, Rules::new(Variant::HoyitoII)).is_ok());

    std::fs::write(&path, &good[..good.len() - 1]).unwrap();
    let why = refusal(&dir);
    assert!(why.starts_with(&name) && why.contains("truncated"), "{why}");

    std::fs::write(&path, &good[..40]).unwrap();
    let why = refusal(&dir);
    assert!(why.starts_with(&name) && why.contains("header"), "{why}");

    let mut damaged = good.clone();
    *damaged.last_mut().unwrap() ^= 0x10;
    std::fs::write(&path, &damaged).unwrap();
    let why = refusal(&dir);
    assert!(why.starts_with(&name) && why.contains("checksum"), "{why}");

    let mut damaged = good.clone();
    damaged[20] ^= 1; // the seeds in the header
    std::fs::write(&path, &damaged).unwrap();
    assert!(refusal(&dir).contains("header's checksum"));

    // A raw file under the compressed name is not taken for a compressed one.
    std::fs::write(&path, file::header(&family, 8, &[0; 3])).unwrap();
    assert!(refusal(&dir).contains("wrong magic"));
}

/// Recomputes a compressed file's checksums after a change, as a crafted file would.
fn reseal(bytes: &mut [u8]) {
    let crc = crc32(&bytes[compressed::HEADER_LEN..]);
    bytes[48..52].copy_from_slice(&crc.to_le_bytes());
    let crc = crc32(&bytes[..60]);
    bytes[60..64].copy_from_slice(&crc.to_le_bytes());
}

/// CRC-32 (IEEE), bit by bit: the tables' checksum, computed independently.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &byte in bytes {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

#[test]
fn a_block_that_passes_the_checksum_but_does_not_decompress_is_an_error() {
    let (dir, family, values) = one_compressed_layer("crafted");
    let path = file::compressed_path(&dir.0, &family, 8);
    let mut bytes = std::fs::read(&path).unwrap();
    // Read from memory, as a program without files would.
    let layer = compressed::Layer::new(Box::new(bytes.clone()), &path, &family, 8).unwrap();
    assert!((0..values.len() as u64).all(|i| layer.get(i).unwrap() == values[i as usize]));
    // Block 3's frame: its first byte of magic spoilt, the checksums made to match.
    let blocks = layer.blocks() as usize;
    let data = compressed::HEADER_LEN + 8 * (blocks + 1);
    let at = |b: usize| {
        let i = compressed::HEADER_LEN + 8 * b;
        u64::from_le_bytes(bytes[i..i + 8].try_into().unwrap()) as usize
    };
    let frame = data + at(3);
    bytes[frame] ^= 0xFF;
    reseal(&mut bytes);
    let layer = compressed::Layer::new(Box::new(bytes), &path, &family, 8).unwrap();
    assert_eq!(layer.get(0).unwrap(), values[0]);
    let index = 3 * u64::from(SMALL.block) + 5;
    match layer.get(index) {
        Err(TablesError::Corrupt { path: named, why }) => {
            assert_eq!(named, path);
            assert!(why.contains("block 3"), "{why}");
        }
        other => panic!("expected an error, got {other:?}"),
    }
    assert!(layer.block(3).is_err());
}

#[test]
fn a_raw_file_beside_a_compressed_one_is_read_first_and_each_form_on_request() {
    let rules = Rules::new(Variant::HoyitoII);
    let (dir, family, _) = raw_and_compressed_layer("both", Settings::default());
    let either = Tables::open(&dir.0, rules).unwrap();
    assert_eq!(either.values(8).format(), Some(Format::Raw));
    let packed =
        Tables::open_format(&dir.0, rules, MAX_LAYER_SEEDS, Some(Format::Compressed)).unwrap();
    assert_eq!(packed.layers_built(), [8]);
    assert_eq!(packed.values(8).format(), Some(Format::Compressed));
    assert_eq!(packed.layer(8).unwrap(), either.layer(8).unwrap());
    // Layer 4 has no compressed file: a position in it is in a layer not built.
    let position = family.position(4, 0);
    assert!(matches!(
        packed.value(&position),
        Err(TablesError::NotBuilt { .. })
    ));
}
