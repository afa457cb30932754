// SPDX-License-Identifier: GPL-2.0

//! capstack: capability policy as a stackable submodule (see
//! `capstack.rs`), with its policy language (`policy.rs`) and capability
//! names (`caps.rs`).

pub(crate) mod caps;
#[allow(clippy::module_inception)]
pub(crate) mod capstack;
pub(crate) mod policy;

pub(crate) use self::capstack::Capstack;
