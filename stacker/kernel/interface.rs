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
//! - `dispatch`: the dispatch tier of the registered hooks: `single NAME`,
//!   `straight-line`, `loop` or `none`;
//! - `available`: every compiled-in submodule, one per line: what
//!   `stacker.chain=` may name;
//! - `stats` (with `CONFIG_SECURITY_STACKER_STATS`): per submodule and hook,
//!   calls and denials.

use crate::attribute::Attribute;
use crate::boot::{boot, core_offset};
use crate::chain::DispatchTier;
use crate::dispatch::WithSubmodule;
use crate::hook::Hook;
use crate::init_status::Lsm;
use crate::layout::ObjectKind;
use crate::platform::{Dir, TextBuf};
use crate::registry::C_NAMES;
use crate::submodule::{Registered, Submodule};
use core::fmt::Write;
use core::marker::PhantomData;
use kernel::prelude::*;

/// The name of registered submodule `index`, for text output.
pub(crate) fn name(index: u8) -> &'static str {
    C_NAMES
        .get(index as usize)
        .and_then(|n| n.to_str().ok())
        .unwrap_or("?")
}

/// Creates `status` in `dir`, for `lsm`'s init.
pub(crate) fn create_status(dir: &Dir, lsm: Lsm) -> Result {
    match lsm {
        Lsm::Stacker => dir.create_file::<StatusFile>(c"status"),
        Lsm::Own(m) => crate::registry::with_submodule(m, OwnStatus(dir)).unwrap_or(Err(EINVAL)),
    }
}

/// Creates the `status` file of a submodule's own LSM in a directory.
struct OwnStatus<'a>(&'a Dir);

impl WithSubmodule for OwnStatus<'_> {
    type Output = Result;
    fn with<M: Submodule + Registered>(self) -> Result {
        self.0.create_file::<OwnStatusFile<M>>(c"status")
    }
}

/// Writes `ok`, `failed: WHY` or (stacker's) `degraded:` and what was
/// left out, for `lsm`.
fn show_status(out: &mut TextBuf, lsm: Lsm) -> Result {
    // The kernel's `fmt!`, whose `Display` the status implements.
    match lsm {
        Lsm::Stacker => {
            out.format(|out| out.write_fmt(fmt!("{}\n", crate::init_status::StackerStatus)))
        }
        Lsm::Own(_) => {
            let status = crate::init_status::get(lsm);
            out.format(|out| out.write_fmt(fmt!("{}\n", status)))
        }
    }
}

/// stacker's `status`.
struct StatusFile;

impl Attribute for StatusFile {
    fn show(out: &mut TextBuf) -> Result {
        show_status(out, Lsm::Stacker)
    }
}

/// `status` of submodule `M`'s own LSM.
struct OwnStatusFile<M>(PhantomData<M>);

impl<M: Submodule + Registered> Attribute for OwnStatusFile<M> {
    fn show(out: &mut TextBuf) -> Result {
        // A registry index fits in a `u8` (`MAX_MODULES` is 32).
        show_status(out, Lsm::Own(M::INDEX as u8))
    }
}

/// Creates the files in `dir` that exist after a successful init.
pub(crate) fn create(dir: &Dir) -> Result {
    dir.create_file::<ChainFile>(c"chain")?;
    dir.create_file::<LayoutFile>(c"layout")?;
    dir.create_file::<HooksFile>(c"hooks")?;
    dir.create_file::<DispatchFile>(c"dispatch")?;
    dir.create_file::<AvailableFile>(c"available")?;
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
            out.format(|out| writeln!(out, "{}", name(m)))?;
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
                out.format(|out| {
                    writeln!(
                        out,
                        "stacker {} {} {}",
                        kind.name(),
                        core_offset(kind),
                        total
                    )
                })?;
            }
        }
        for &m in b.chain.order() {
            for kind in ObjectKind::ALL {
                let size = b.layout.size(m as usize, kind);
                if size != 0 {
                    let off = b.layout.offset(m as usize, kind);
                    out.format(|out| {
                        writeln!(out, "{} {} {} {}", name(m), kind.name(), off, size)
                    })?;
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
            out.format(|out| write!(out, "{}", hook.name()))?;
            for &m in b.order(hook) {
                out.format(|out| write!(out, " {}", name(m)))?;
            }
            out.format(|out| writeln!(out))?;
        }
        Ok(())
    }
}

/// `dispatch`: the tier stacker registered its hooks with: `single NAME`,
/// `straight-line`, `loop` or `none` (`dispatch.rs`).
struct DispatchFile;

impl Attribute for DispatchFile {
    fn show(out: &mut TextBuf) -> Result {
        let tier = crate::boot::tier();
        out.format(|out| match tier {
            DispatchTier::Single(m) => writeln!(out, "{} {}", tier.name(), name(m)),
            _ => writeln!(out, "{}", tier.name()),
        })
    }
}

/// `available`: every compiled-in submodule, one per line, in registry
/// order: what `stacker.chain=` may name.
struct AvailableFile;

impl Attribute for AvailableFile {
    fn show(out: &mut TextBuf) -> Result {
        for m in 0..C_NAMES.len() {
            out.format(|out| writeln!(out, "{}", name(m as u8)))?;
        }
        Ok(())
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
                    out.format(|out| {
                        writeln!(out, "{} {} {} {}", name(m), hook.name(), calls, denials)
                    })?;
                }
            }
        }
        Ok(())
    }
}
