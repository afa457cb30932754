// SPDX-License-Identifier: GPL-2.0

//! mlte: MLS and type enforcement, the SELinux-like submodule.
//!
//! - `category.rs`: the category sets of MLS levels, word-wise;
//! - `level.rs`: levels, ranges and the Bell-LaPadula checks;
//! - `classes.rs`: the object classes and their permissions;
//! - `context.rs`: security contexts, `USER:ROLE:TYPE:LOW[-HIGH]`;
//! - `constraint.rs`: `constrain` and `mlsconstrain` expressions, compiled;
//! - `compiled.rs`: the compiled policy, its checker and the decisions;
//! - `intern.rs`: append-only tables that number each value once;
//! - `sidtab.rs`: interned contexts, each with its SID;
//! - `type_names.rs`: global user, role and type ids, across policies;
//! - `decision_cache.rs`: the allowed vectors of recent SID pairs;
//! - `policy.rs`: the policy in force, its loader, the mode, audit lines;
//! - `label.rs`: the SID an object carries in its blob;
//! - `fs_labelling.rs`: how each file system labels its inodes (`fs_use_*`,
//!   `genfscon`);
//! - `query.rs`: asking the policy from userspace (`access`, `create`,
//!   `context`);
//! - `hooks.rs`: the submodule and its hooks (`hook_tests.rs`: run on the
//!   host model);
//! - `policy_text.rs`: the text policy language (host only: the
//!   `mlte-policy` tool compiles it).

pub(crate) mod boolean_files;
pub(crate) mod booleans;
pub(crate) mod category;
pub(crate) mod classes;
pub(crate) mod compiled;
pub(crate) mod constraint;
pub(crate) mod context;
pub(crate) mod decision_cache;
pub(crate) mod fs_labelling;
pub(crate) mod hooks;
pub(crate) mod intern;
pub(crate) mod label;
pub(crate) mod level;
pub(crate) mod policy;
#[cfg(not(CONFIG_RUST))]
pub(crate) mod policy_text;
pub(crate) mod query;
pub(crate) mod sidtab;
pub(crate) mod type_names;
