// SPDX-License-Identifier: GPL-2.0

//! Host build of the `denyname` submodule's kernel-independent logic.
//!
//! The kernel compiles `name_rule.rs` into the stacker crate; this crate
//! root lets `cargo test` run the very same file on the host.

#![cfg_attr(not(test), no_std)]

pub mod name_rule;
