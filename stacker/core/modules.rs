// SPDX-License-Identifier: GPL-2.0

// The kernel-independent core: one list of its files, included by both crate
// roots (`stacker/kernel/stacker_main.rs`, `stacker/host/lib.rs`), which sit
// side by side, so the paths below hold for both.

// The layout file is also the `blob-layout` crate, whose API is `pub`, and
// not all of which stacker uses.
#[allow(unreachable_pub, dead_code)]
#[path = "../../blob-layout/layout.rs"]
mod layout;

#[path = "../core/abi.rs"]
mod abi;
// Values hooks pass to submodules; part of the submodule API, not all of
// which today's submodules use.
#[allow(dead_code)]
#[path = "../core/access.rs"]
mod access;
#[path = "../core/attribute.rs"]
mod attribute;
#[path = "../core/blob.rs"]
mod blob;
#[path = "../core/chain.rs"]
mod chain;
#[path = "../core/context.rs"]
mod context;
// The dispatch of the hooks no host test calls, and what only the
// kernel's entry points and securityfs files use (tier selection, LSM ids),
// are unused in the host build.
#[cfg_attr(not(CONFIG_RUST), allow(dead_code))]
#[path = "../core/dispatch.rs"]
mod dispatch;
#[path = "../core/hook.rs"]
mod hook;
// As for `dispatch`: the items it makes for the hooks no host test calls.
#[cfg_attr(not(CONFIG_RUST), allow(dead_code))]
#[path = "../core/hook_table.rs"]
mod hook_table;
#[path = "../core/lsm_prop.rs"]
mod lsm_prop;
#[path = "../core/mount_options.rs"]
mod mount_options;
#[path = "../core/stats.rs"]
mod stats;
#[path = "../core/submodule.rs"]
mod submodule;
// The kernel leaves out the submodules its configuration does not enable,
// and with them the calls of some view methods.
#[cfg_attr(CONFIG_RUST, allow(dead_code))]
#[path = "../core/views.rs"]
mod views;
