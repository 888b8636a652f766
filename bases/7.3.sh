# SPDX-License-Identifier: GPL-2.0
# Base 7.3: mainline, the product. One file per base (read by use_base in
# lib/common.sh); adding a base or an architecture is one more such file.

# The kernel source: Debian's linux-source package, fetched with
# "apt-get download" into a private apt state under build/apt/BASE (the
# machine's own apt setup is not touched), from this archive and suite.
BASE_PACKAGE=linux-source-7.3
BASE_ARCHIVE="http://deb.debian.org/debian trixie-backports main"
# The version the series was last tested on: a newer one is used all the
# same, with a note, and the series must still apply to it.
BASE_TESTED=7.3.4-1~bpo13+1

# The first base listed is the mainline one: its series is mailed as
# [PATCH n/m], the others as [PATCH BASE n/m].
BASE_ORDER=1

# The config fragments on top of tinyconfig and
# config/ARCH.config of the target (targets/; config/stackmap.config is added where the tree has
# the feature, config/VARIANT.config for the debug kernels).
BASE_CONFIGS="base-7.3"

# The gates each tier runs (lib/gates.sh): "test" the ones reviewers and
# bots catch first, "full" adds the slow ones.
BASE_TEST_GATES="clauses checkpatch series shape kerneldoc w1"
BASE_FULL_GATES="sparse docs bisect i386 litmus"
