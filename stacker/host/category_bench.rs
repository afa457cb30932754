// SPDX-License-Identifier: GPL-2.0

//! `category-bench words|bitwise|decision ITERS`: checks containment of
//! two 1024-category sets `ITERS` times, word by word (`mlte`'s
//! `CategorySet::contains`) or bit by bit, or makes `ITERS` access
//! decisions in `mlte`'s compiled policy: computed each time (`decision`,
//! the cache-miss path), through the decision cache over 64 pairs
//! (`cached`, hits) or over 8,192 pairs (`thrash`, the cache thrashed),
//! for `valgrind --tool=callgrind` to count (`scripts/category-bench.sh`).

use std::process::ExitCode;

const USAGE: &str = "usage: category-bench words|bitwise|decision|cached|thrash ITERS";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let Some(iters) = args.get(2).and_then(|n| n.parse().ok()) else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    let failed = match args.get(1).map(String::as_str) {
        Some("words") => stacker::bench::category_loop(iters),
        Some("bitwise") => stacker::bench::category_bitwise_loop(iters),
        Some("decision") => iters - stacker::bench::decision_loop(iters),
        Some("cached") => iters - stacker::bench::cached_decision_loop(iters, 64),
        Some("thrash") => iters - stacker::bench::cached_decision_loop(iters, 8192),
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    if failed != 0 {
        eprintln!("category-bench: {failed} checks failed");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
