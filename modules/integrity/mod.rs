// SPDX-License-Identifier: GPL-2.0

//! integrity: measure, appraise and verify files, in the formats of IMA,
//! EVM and `evmctl`.
//!
//! - `rules.rs`: the policy language and what it selects;
//! - `formats.rs`: `security.ima`, `security.evm`, the `ima-ng` template;
//! - `status.rs`: a file's integrity status in its inode's blob;
//! - `hooks.rs`: the submodule and its hooks (kernel only);
//! - `measurements.rs`: the measurement list (kernel only);
//! - `crypto.rs`: SHA-256, SHA-1, HMAC-SHA256 and signature checks through
//!   the kernel's crypto library and asymmetric keys (kernel only; the C
//!   side is `crypto.c`).

#[cfg(CONFIG_RUST)]
pub(crate) mod crypto;
pub(crate) mod formats;
#[cfg(CONFIG_RUST)]
pub(crate) mod hooks;
#[cfg(CONFIG_RUST)]
pub(crate) mod measurements;
pub(crate) mod rules;
pub(crate) mod status;
