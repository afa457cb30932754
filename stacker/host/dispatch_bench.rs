// SPDX-License-Identifier: GPL-2.0

//! `dispatch-bench CHAIN|direct ITERS [slow]`: runs one loop of
//! `stacker::bench`, for `valgrind --tool=callgrind` to count.
//! `CHAIN` is a `stacker.chain=` value (e.g. `nop_a,nop_b`); `direct`
//! calls one no-op submodule without dispatch; `slow` turns the
//! single-module fast path off.

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let (Some(chain), Some(iters)) = (args.get(1), args.get(2).and_then(|n| n.parse().ok())) else {
        eprintln!("usage: dispatch-bench CHAIN|direct ITERS [slow]");
        return ExitCode::from(2);
    };
    let denied = if chain == "direct" {
        stacker::bench::boot("nop_a", true);
        stacker::bench::direct_loop(iters)
    } else {
        stacker::bench::boot(chain, args.get(3).map(String::as_str) != Some("slow"));
        stacker::bench::chain_loop(iters)
    };
    if denied != 0 {
        eprintln!("dispatch-bench: {denied} calls were denied");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
