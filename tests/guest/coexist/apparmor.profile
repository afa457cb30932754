# SPDX-License-Identifier: GPL-2.0
# The AppArmor profile of coexist_test (loaded in the guest by Debian's
# apparmor_parser, from /etc/apparmor/stacker_coexist). A child enters it
# with "exec stacker_coexist" in /proc/self/attr/apparmor/exec; then it may
# run /helpers/open_errno and read /tmp/aa_public, and nothing else: its
# open of /tmp/aa_secret is denied (EACCES, apparmor="DENIED").
profile stacker_coexist flags=(enforce) {
  /helpers/open_errno mr,
  /tmp/aa_public r,
}
