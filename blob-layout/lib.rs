// SPDX-License-Identifier: GPL-2.0

//! Host build of stacker's blob layout computation.
//!
//! The kernel compiles `layout.rs` into the stacker crate; this crate root
//! lets `cargo test` run the very same file on the host.

#![cfg_attr(not(test), no_std)]

pub mod layout;
