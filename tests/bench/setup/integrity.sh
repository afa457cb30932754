# shellcheck shell=sh
# SPDX-License-Identifier: GPL-2.0
# Guest setup of the bench variant "integrity" (stacker.chain=integrity):
# the integrity submodule, given the policy the ima variant gives IMA
# (tests/bench/setup/appraisal.sh has both); it appraises, enforcing, as
# soon as a policy selects a file. As IMA's, its list keeps the same
# contents at the same path once.

appraisal_name=integrity
appraisal_dir=/sys/kernel/security/stacker/integrity
appraisal_active() {
	grep -qx integrity /sys/kernel/security/stacker/chain
}
# shellcheck source=tests/bench/setup/appraisal.sh
. /bench/setup/appraisal.sh
