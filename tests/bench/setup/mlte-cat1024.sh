# shellcheck shell=sh
# SPDX-License-Identifier: GPL-2.0
# Guest setup of the bench variant "mlte-cat1024": the "mlte" variant with
# every label at 1,024 categories. The policy is tests/bench/policy.conf
# with categories c0 to c1023 (scripts/mkinitramfs.sh makes it), and the
# workloads run in system_u:system_r:bench_t:s1:c0.c1023, so the files they create carry
# all 1,024 categories too: each MLS test on a decision cache miss compares
# two 16-word sets, and a hit compares none.

# shellcheck disable=SC2034 # read by mlte.sh
mlte_policy=/bench/mlte/policy-cat1024
# shellcheck disable=SC2034 # read by mlte.sh
mlte_bench_context=system_u:system_r:bench_t:s1:c0.c1023
. /bench/setup/mlte.sh
