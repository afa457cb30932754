// SPDX-License-Identifier: GPL-2.0

//! Whether stacker's init succeeded, and if not, why; and which submodules
//! it left out of the chain.
//!
//! The LSM core only warns when an LSM's `init` fails: the LSM stays listed
//! and its securityfs initcall still runs. stacker records the outcome here,
//! once, in its LSM init. When stacker's own init failed (the layout
//! check), stacker registered no hook, so none of its submodules enforces
//! anything; its securityfs directory then holds only `status`, which says
//! why, and no file that could load a policy nothing would enforce or touch
//! state that was never initialised.
//!
//! A failure of one submodule stays local: a submodule whose init fails,
//! or that is also registered as an LSM of its own, is left out of the
//! chain and recorded here ([`record_left_out`]); the rest of the chain
//! starts and enforces. `status` then reads `degraded:` with one line per
//! submodule left out.

use crate::error::Error;
use crate::layout::MAX_MODULES;
use core::ptr::addr_of;
use kernel::prelude::fmt;

/// The outcome of stacker's init.
#[derive(Clone, Copy)]
pub(crate) enum InitStatus {
    /// Init has not run (stacker is not in `lsm=`).
    NotRun,
    /// Init succeeded; the chain's hooks are registered.
    Ok,
    /// Init failed at `stage` with `err`; no hook is registered.
    Failed {
        /// What failed.
        stage: Stage,
        /// The error it returned.
        err: Error,
    },
}

/// The part of init that failed.
#[derive(Clone, Copy)]
pub(crate) enum Stage {
    /// Rust's and C's views of a kernel structure differ (`layout_check.c`).
    LayoutCheck,
    /// The init of the submodule with this registry index.
    Submodule(u8),
    /// The submodule with this registry index is both in stacker's chain
    /// and registered as an LSM of its own: its blob slot can only be one.
    Conflict(u8),
}

/// Whose init an outcome is.
#[derive(Clone, Copy)]
pub(crate) enum Lsm {
    /// stacker's.
    Stacker,
    /// That of the submodule with this registry index, registered as an
    /// LSM of its own (`own_lsm.rs`).
    Own(u8),
}

impl Lsm {
    /// The entry of [`STATUS`] for this LSM.
    fn index(self) -> usize {
        match self {
            Lsm::Stacker => 0,
            Lsm::Own(m) => 1 + m as usize,
        }
    }
}

/// The recorded outcomes, by [`Lsm`].
///
/// # Invariants
///
/// Each entry is written once, by [`record`] from that LSM's init, on the
/// boot CPU before any securityfs file exists; read-only afterwards.
#[link_section = ".data..ro_after_init"]
static mut STATUS: [InitStatus; 1 + MAX_MODULES] = [InitStatus::NotRun; 1 + MAX_MODULES];

/// Why each submodule was left out of stacker's chain, by registry index
/// (`None`: not left out).
///
/// # Invariants
///
/// Written only by [`record_left_out`] from stacker's LSM init, on the boot
/// CPU before any securityfs file exists; read-only afterwards.
#[link_section = ".data..ro_after_init"]
static mut LEFT_OUT: [Option<(Stage, Error)>; MAX_MODULES] = [None; MAX_MODULES];

/// Records that submodule `m` was left out of the chain: `stage` failed
/// with `err` (`Stage::Submodule` or `Stage::Conflict`).
pub(crate) fn record_left_out(m: u8, stage: Stage, err: Error) {
    // SAFETY: from stacker's init, before anything reads the table (the
    // invariant).
    if let Some(entry) = unsafe { (*core::ptr::addr_of_mut!(LEFT_OUT)).get_mut(m as usize) } {
        *entry = Some((stage, err));
    }
}

/// The submodules left out of the chain, with why.
pub(crate) fn left_out() -> impl Iterator<Item = (Stage, Error)> {
    // SAFETY: not written once it can be read (the invariant).
    let table = unsafe { &*addr_of!(LEFT_OUT) };
    table.iter().filter_map(|entry| *entry)
}

/// stacker's `status`: `ok`, `failed: WHY`, or `degraded:` and one line
/// per submodule left out of the chain.
pub(crate) struct StackerStatus;

impl kernel::fmt::Display for StackerStatus {
    fn fmt(&self, f: &mut kernel::fmt::Formatter<'_>) -> kernel::fmt::Result {
        let status = get(Lsm::Stacker);
        let refused = crate::boot::chain_refused();
        if !matches!(status, InitStatus::Ok) || (left_out().next().is_none() && !refused) {
            return f.write_fmt(fmt!("{}", status));
        }
        write!(f, "degraded: the rest of the chain enforces; left out:")?;
        if refused {
            write!(
                f,
                "\n  stacker.chain= (refused: see the boot log; an earlier or the default chain runs)"
            )?;
        }
        for (stage, err) in left_out() {
            f.write_fmt(fmt!("\n  {}", Reason(InitStatus::Failed { stage, err })))?;
        }
        Ok(())
    }
}

/// Records the outcome of `lsm`'s init.
pub(crate) fn record(lsm: Lsm, status: InitStatus) {
    // SAFETY: called once per LSM, from its init, before anything reads
    // its entry (the invariant).
    if let Some(entry) = unsafe { (*core::ptr::addr_of_mut!(STATUS)).get_mut(lsm.index()) } {
        *entry = status;
    }
}

/// The recorded outcome of `lsm`'s init.
pub(crate) fn get(lsm: Lsm) -> InitStatus {
    // SAFETY: an entry is not written once it can be read (the invariant).
    let status = unsafe { &*addr_of!(STATUS) };
    status
        .get(lsm.index())
        .copied()
        .unwrap_or(InitStatus::NotRun)
}

/// The reason part of a failed [`InitStatus`], for the boot log and
/// `status`.
pub(crate) struct Reason(pub(crate) InitStatus);

impl kernel::fmt::Display for Reason {
    fn fmt(&self, f: &mut kernel::fmt::Formatter<'_>) -> kernel::fmt::Result {
        match self.0 {
            InitStatus::NotRun => write!(f, "init did not run"),
            InitStatus::Ok => write!(f, "none"),
            InitStatus::Failed {
                stage: Stage::LayoutCheck,
                err,
            } => write!(
                f,
                "layout check: Rust and C disagree on a kernel structure \
                 (see the boot log): error {}",
                err.to_errno()
            ),
            InitStatus::Failed {
                stage: Stage::Conflict(m),
                err,
            } => write!(
                f,
                "submodule {} is both in stacker's chain and an LSM of its own: error {}",
                crate::interface::name(m),
                err.to_errno()
            ),
            InitStatus::Failed {
                stage: Stage::Submodule(m),
                err,
            } => write!(
                f,
                "submodule {} init: error {}",
                crate::interface::name(m),
                err.to_errno()
            ),
        }
    }
}

impl kernel::fmt::Display for InitStatus {
    fn fmt(&self, f: &mut kernel::fmt::Formatter<'_>) -> kernel::fmt::Result {
        match self {
            InitStatus::Ok => write!(f, "ok"),
            _ => f.write_fmt(fmt!("failed: {}", Reason(*self))),
        }
    }
}
