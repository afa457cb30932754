// SPDX-License-Identifier: GPL-2.0

//! `integrity-hmac`: prints, in hex, the `security.evm` value (`0x02` and
//! an HMAC-SHA256) that stacker's integrity submodule expects for a file,
//! computed by the same layout code the kernel runs.
//!
//! ```text
//! integrity-hmac --key KEYFILE --ino N --generation N --uid N --gid N \
//!     --mode OCTAL --uuid UUID [--xattr NAME=HEX ...]
//! ```
//!
//! `KEYFILE` holds the raw key (32 bytes, as written to
//! `/sys/kernel/security/stacker/integrity/evm_key`). `UUID` is the file
//! system's, with or without dashes. Each `--xattr` gives one covered
//! xattr's value in hex (as `getfattr -e hex` prints it, with or without
//! `0x`).

use stacker::{evm_xattr, EVM_XATTRS};
use std::process::ExitCode;

fn hex(s: &str) -> Result<Vec<u8>, String> {
    let s = s.strip_prefix("0x").unwrap_or(s);
    if s.len() % 2 != 0 {
        return Err(format!("odd number of hex digits in '{s}'"));
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).map_err(|e| format!("'{s}': {e}")))
        .collect()
}

fn run(args: &[String]) -> Result<String, String> {
    let (mut ino, mut generation, mut uid, mut gid, mut mode, mut uuid) = (0, 0, 0, 0, 0, [0; 16]);
    let mut key = None;
    let mut xattrs = Vec::new();
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let value = it.next().ok_or(format!("{flag} needs a value"))?;
        let num = |v: &str| v.parse::<u64>().map_err(|e| format!("{flag} {v}: {e}"));
        match flag.as_str() {
            "--key" => key = Some(std::fs::read(value).map_err(|e| format!("{value}: {e}"))?),
            "--ino" => ino = num(value)?,
            "--generation" => generation = u32::try_from(num(value)?).map_err(|e| e.to_string())?,
            "--uid" => uid = u32::try_from(num(value)?).map_err(|e| e.to_string())?,
            "--gid" => gid = u32::try_from(num(value)?).map_err(|e| e.to_string())?,
            "--mode" => {
                mode = u16::from_str_radix(value, 8).map_err(|e| format!("--mode {value}: {e}"))?
            }
            "--uuid" => {
                let b = hex(&value.replace('-', ""))?;
                uuid = b
                    .try_into()
                    .map_err(|_| format!("--uuid {value}: not 16 bytes"))?;
            }
            "--xattr" => {
                let (name, v) = value
                    .split_once('=')
                    .ok_or(format!("--xattr {value}: expected NAME=HEX"))?;
                if !EVM_XATTRS.contains(&name) {
                    return Err(format!(
                        "--xattr {name}: not covered; covered: {}",
                        EVM_XATTRS.join(" ")
                    ));
                }
                xattrs.push((name.to_string(), hex(v)?));
            }
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    let key = key.ok_or("--key is required")?;
    Ok(
        evm_xattr(&key, ino, generation, uid, gid, mode, uuid, &xattrs)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect(),
    )
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(hex) => {
            println!("0x{hex}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("integrity-hmac: {e}");
            ExitCode::FAILURE
        }
    }
}
