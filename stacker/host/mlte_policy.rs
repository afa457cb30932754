// SPDX-License-Identifier: GPL-2.0

//! `mlte-policy check FILE`: reads an `mlte` policy and reports the first
//! error as `FILE:LINE:COL: what was wrong, and what was expected`, or a
//! summary of a good policy.
//!
//! `mlte-policy compile FILE OUT`: the same, then writes the compiled form
//! the kernel will load (`modules/mlte/compiled.rs`), checked by the
//! kernel's own checker before it is written.
//!
//! `mlte-policy classes`: mlte's classes, one line each, the name and then
//! the permissions in bit order (`modules/mlte/classes.rs`).

use std::process::ExitCode;

fn usage() -> ExitCode {
    eprintln!("usage: mlte-policy check FILE | mlte-policy compile FILE OUT | mlte-policy classes");
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    if args.len() == 2 && args[1] == "classes" {
        print!("{}", stacker::mlte_classes());
        return ExitCode::SUCCESS;
    }
    let (Some(cmd), Some(path)) = (args.get(1).map(String::as_str), args.get(2)) else {
        return usage();
    };
    let out = match (cmd, args.get(3)) {
        ("check", None) => None,
        ("compile", Some(out)) => Some(out),
        _ => return usage(),
    };
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(err) => {
            eprintln!("{path}: {err}");
            return ExitCode::FAILURE;
        }
    };
    let result = match out {
        None => stacker::mlte_check(&text),
        Some(out) => stacker::mlte_compile(&text).and_then(|(summary, bytes)| {
            std::fs::write(out, bytes)
                .map(|()| summary)
                .map_err(|e| format!(" {out}: {e}"))
        }),
    };
    match result {
        Ok(summary) => {
            println!("{path}: {summary}");
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("{path}:{err}");
            ExitCode::FAILURE
        }
    }
}
