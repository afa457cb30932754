// SPDX-License-Identifier: GPL-2.0

//! `dispatch-bench CHAIN|direct ITERS [TIER]`: runs one loop of
//! `stacker::bench`, for `valgrind --tool=callgrind` to count.
//! `CHAIN` is a `stacker.chain=` value (e.g. `nop_a,nop_b`); `direct`
//! calls one no-op submodule without dispatch. `TIER` is `loop` (the
//! default), `single` (`nop_a`), `straight2` (`nop_a,nop_b`) or
//! `straight3` (`nop_a,nop_b,nop_c`); the chain must match it.

use stacker::bench::Tier;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let (Some(chain), Some(iters)) = (args.get(1), args.get(2).and_then(|n| n.parse().ok())) else {
        eprintln!("usage: dispatch-bench CHAIN|direct ITERS [loop|single|straight2|straight3]");
        return ExitCode::from(2);
    };
    let tier = match args.get(3).map(String::as_str) {
        None | Some("loop") => Tier::Loop,
        Some("single") => Tier::Single,
        Some("straight2") => Tier::Straight2,
        Some("straight3") => Tier::Straight3,
        Some(other) => {
            eprintln!("dispatch-bench: unknown tier '{other}'");
            return ExitCode::from(2);
        }
    };
    let denied = if chain == "direct" {
        stacker::bench::boot("nop_a");
        stacker::bench::direct_loop(iters)
    } else {
        stacker::bench::boot(chain);
        stacker::bench::chain_loop(tier, iters)
    };
    if denied != 0 {
        eprintln!("dispatch-bench: {denied} calls were denied");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
