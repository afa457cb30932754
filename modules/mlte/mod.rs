// SPDX-License-Identifier: GPL-2.0

//! mlte: MLS and type enforcement, the SELinux-like submodule (issue 10,
//! in progress).
//!
//! Built so far: the category sets of its MLS levels (`category.rs`), and
//! the levels, ranges and Bell-LaPadula checks (`level.rs`), and the text
//! policy language, read on the host (`policy_text.rs`, the
//! `mlte-policy` tool), compiled to a form whose checker the kernel will
//! run on every byte it is given (`compiled.rs`), with the classes both
//! share (`classes.rs`).
//! The submodule itself, its loader and its hooks come next. The kernel
//! crate already builds the kernel-independent parts, so that the kernel's
//! lints check them; the policy language is host only (it allocates
//! freely).

pub(crate) mod category;
pub(crate) mod classes;
pub(crate) mod compiled;
pub(crate) mod constraint;
pub(crate) mod context;
pub(crate) mod level;
#[cfg(not(CONFIG_RUST))]
pub(crate) mod policy_text;
