// SPDX-License-Identifier: GPL-2.0

//! The files of `/sys/kernel/security/stacker/`.
//!
//! - `chain`: the enabled submodules, one per line, in order;
//! - `layout`: per submodule and object kind, its offset and size in the
//!   blob (and stacker's own offset and size in each blob);
//! - `hooks`: the hooks stacker registered with the LSM core, one per line,
//!   with the submodules that implement each, in call order;
//! - `status`: `ok` when init succeeded, else `failed: WHY`; after a failed
//!   init it is the only file (`init_status.rs`);
//! - `fastpath`: `1 NAME` when the fast-path static key of submodule NAME is
//!   enabled, read from the keys themselves; `0` when no key is;
//! - `stats` (with `CONFIG_SECURITY_STACKER_STATS`): per submodule and hook,
//!   calls and denials.

use crate::attribute::Attribute;
use crate::boot::{boot, core_offset};
use crate::hook::Hook;
use crate::layout::ObjectKind;
use crate::platform::{Dir, TextBuf};
use crate::registry::C_NAMES;
use core::fmt::Write;
use kernel::prelude::*;

/// The name of registered submodule `index`, for text output.
pub(crate) fn name(index: u8) -> &'static str {
    C_NAMES
        .get(index as usize)
        .and_then(|n| n.to_str().ok())
        .unwrap_or("?")
}

/// Creates `status` in `dir`.
pub(crate) fn create_status(dir: &Dir) -> Result {
    dir.create_file::<StatusFile>(c"status")
}

/// `status`.
struct StatusFile;

impl Attribute for StatusFile {
    fn show(out: &mut TextBuf) -> Result {
        // The kernel's `fmt!`, whose `Display` the status implements.
        let status = crate::init_status::get(crate::init_status::Lsm::Stacker);
        out.write_fmt(fmt!("{}\n", status)).map_err(|_| ENOMEM)
    }
}

/// Creates the files in `dir` that exist after a successful init.
pub(crate) fn create(dir: &Dir) -> Result {
    dir.create_file::<ChainFile>(c"chain")?;
    dir.create_file::<LayoutFile>(c"layout")?;
    dir.create_file::<HooksFile>(c"hooks")?;
    dir.create_file::<FastpathFile>(c"fastpath")?;
    if crate::stats::ENABLED {
        dir.create_file::<StatsFile>(c"stats")?;
    }
    Ok(())
}

/// `chain`.
struct ChainFile;

impl Attribute for ChainFile {
    fn show(out: &mut TextBuf) -> Result {
        for &m in boot().chain.order() {
            writeln!(out, "{}", name(m)).map_err(|_| ENOMEM)?;
        }
        Ok(())
    }
}

/// `layout`: `stacker KIND OFFSET SIZE` lines give stacker's slice in the
/// whole blob; `NAME KIND OFFSET SIZE` lines give each submodule's slot,
/// with OFFSET relative to stacker's slice. Empty slots are left out.
struct LayoutFile;

impl Attribute for LayoutFile {
    fn show(out: &mut TextBuf) -> Result {
        let b = boot();
        for kind in ObjectKind::ALL {
            let total = b.layout.total(kind);
            if total != 0 {
                writeln!(
                    out,
                    "stacker {} {} {}",
                    kind.name(),
                    core_offset(kind),
                    total
                )
                .map_err(|_| ENOMEM)?;
            }
        }
        for &m in b.chain.order() {
            for kind in ObjectKind::ALL {
                let size = b.layout.size(m as usize, kind);
                if size != 0 {
                    let off = b.layout.offset(m as usize, kind);
                    writeln!(out, "{} {} {} {}", name(m), kind.name(), off, size)
                        .map_err(|_| ENOMEM)?;
                }
            }
        }
        Ok(())
    }
}

/// `hooks`: `HOOK NAME...` for every registered hook.
struct HooksFile;

impl Attribute for HooksFile {
    fn show(out: &mut TextBuf) -> Result {
        let b = boot();
        for &hook in Hook::ALL {
            if !b.wants(hook) {
                continue;
            }
            write!(out, "{}", hook.name()).map_err(|_| ENOMEM)?;
            for &m in b.order(hook) {
                write!(out, " {}", name(m)).map_err(|_| ENOMEM)?;
            }
            writeln!(out).map_err(|_| ENOMEM)?;
        }
        Ok(())
    }
}

/// `fastpath`: `1 NAME` when submodule NAME's fast-path static key is
/// enabled, `0` when none is. Read from the keys, not from the boot state,
/// so that it shows what the hooks actually branch on.
struct FastpathFile;

impl Attribute for FastpathFile {
    fn show(out: &mut TextBuf) -> Result {
        extern "C" {
            fn stacker_single_key_enabled() -> kernel::ffi::c_int;
        }
        // SAFETY: only reads the static keys' state.
        let index = unsafe { stacker_single_key_enabled() };
        match u8::try_from(index) {
            Ok(m) => writeln!(out, "1 {}", name(m)),
            Err(_) => writeln!(out, "0"),
        }
        .map_err(|_| ENOMEM)
    }
}

/// `stats`: `NAME HOOK CALLS DENIALS` for every hook a submodule has been
/// called for.
struct StatsFile;

impl Attribute for StatsFile {
    fn show(out: &mut TextBuf) -> Result {
        let b = boot();
        for &m in b.chain.order() {
            for &hook in Hook::ALL {
                let (calls, denials) = crate::stats::get(m as usize, hook);
                if calls != 0 {
                    writeln!(out, "{} {} {} {}", name(m), hook.name(), calls, denials)
                        .map_err(|_| ENOMEM)?;
                }
            }
        }
        Ok(())
    }
}
