# SPDX-License-Identifier: GPL-2.0
# Base 6.12: the LTS backport (Android runs 6.12), tested as hard as
# mainline. See bases/7.3.sh for what each setting means.

# From the machine's own archive (Debian 12, bookworm-security): installed
# as a package by "./harness deps".
BASE_PACKAGE=linux-source-6.12
BASE_ARCHIVE=installed
BASE_TESTED=6.12.118-1~deb12u1

BASE_ORDER=2

BASE_CONFIGS="base-6.12"

BASE_TEST_GATES="clauses checkpatch series shape kerneldoc w1"
BASE_FULL_GATES="bisect"
