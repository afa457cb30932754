// SPDX-License-Identifier: GPL-2.0

//! `mlte-policy check FILE`: reads an `mlte` policy and reports the first
//! error as `FILE:LINE:COL: what was wrong, and what was expected`, or a
//! summary of a good policy. (Compiling to the kernel's binary form comes
//! with the kernel side of `mlte`.)

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let (Some("check"), Some(path)) = (args.get(1).map(String::as_str), args.get(2)) else {
        eprintln!("usage: mlte-policy check FILE");
        return ExitCode::from(2);
    };
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(err) => {
            eprintln!("{path}: {err}");
            return ExitCode::FAILURE;
        }
    };
    match stacker::mlte_check(&text) {
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
