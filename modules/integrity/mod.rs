// SPDX-License-Identifier: GPL-2.0

//! integrity: measure, appraise and verify files, in the formats of IMA,
//! EVM and `evmctl`.
//!
//! - `rules.rs`: the policy language and what it selects;
//! - `formats.rs`: `security.ima`, `security.evm`, the `ima-ng` template;
//! - `status.rs`: a file's integrity status in its inode's blob;
//! - `hooks.rs`: the submodule and its hooks (`hook_tests.rs`: run on the
//!   host model);
//! - `measurements.rs`: the measurement list (kernel; the host's model is
//!   `stacker/host/integrity_measurements.rs`, the same API and values);
//! - `crypto.rs`: SHA-256, SHA-1, HMAC-SHA256 and signature checks through
//!   the kernel's crypto library and asymmetric keys (kernel; the C side
//!   is `integrity_glue.c`. The host's model is `stacker/host/integrity_crypto.rs`:
//!   the hashes and the HMAC are real, signature keys are not modelled).

#[cfg(CONFIG_RUST)]
pub(crate) mod crypto;
#[cfg(not(CONFIG_RUST))]
#[path = "../../stacker/host/integrity_crypto.rs"]
pub(crate) mod crypto;
pub(crate) mod formats;
pub(crate) mod hooks;
#[cfg(CONFIG_RUST)]
pub(crate) mod measurements;
#[cfg(not(CONFIG_RUST))]
#[path = "../../stacker/host/integrity_measurements.rs"]
pub(crate) mod measurements;
pub(crate) mod rules;
pub(crate) mod status;
