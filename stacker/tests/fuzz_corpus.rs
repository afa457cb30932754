// SPDX-License-Identifier: GPL-2.0

//! Replays the committed fuzz corpus (`fuzz/corpus/TARGET/*`) through the
//! fuzz entry points: a parser that regresses on an input the fuzzer once
//! found fails `cargo test`, without nightly or the fuzzer.
//!
//! Its own test binary, hence its own process: some targets load policies
//! into the global policy cells, which the unit tests also use.

use std::path::Path;

#[test]
fn fuzz_corpus_replays() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/corpus");
    let mut total = 0;
    for &(name, target) in stacker::fuzzing::TARGETS {
        let dir = root.join(name);
        let entries = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e} (every target has a corpus)", dir.display()));
        let mut files: Vec<_> = entries.map(|e| e.unwrap().path()).collect();
        files.sort();
        assert!(!files.is_empty(), "{}: empty corpus", dir.display());
        for file in &files {
            let data = std::fs::read(file).unwrap();
            let run = std::panic::catch_unwind(|| target(&data));
            assert!(run.is_ok(), "{name}: {} fails", file.display());
        }
        total += files.len();
    }
    assert!(total > 0);
}
