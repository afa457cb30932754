# shellcheck shell=sh
# SPDX-License-Identifier: GPL-2.0
# Guest setup of the bench variant "ima": the in-kernel IMA (started in
# every boot of the bench image: it is LSM_ORDER_LAST, lsm= does not name
# it), given the bench's measure + appraise policy; appraisal enforces
# (IMA's default with CONFIG_IMA_APPRAISE). The counterpart of the
# integrity variant's setup: tests/bench/setup/appraisal.sh has both.

appraisal_name=ima
appraisal_dir=/sys/kernel/security/ima
appraisal_active() {
	grep -qw ima /sys/kernel/security/lsm && [ -e $appraisal_dir/policy ]
}
# shellcheck source=tests/bench/setup/appraisal.sh
. /bench/setup/appraisal.sh
