# SPDX-License-Identifier: GPL-2.0
# What the host tells a guest script on the kernel command line, sourced by
# /init and the guest's libraries.

# harness_arg NAME: the value of harness.NAME= on the kernel command line,
# empty without one.
harness_arg() { sed -n "s/.*harness\.$1=\([^ ]*\).*/\1/p" /proc/cmdline; }

# stackmap_cases: "=== STACKMAP CASE description" for every case of
# ftracetest's test.d/stackmap, which the host checks ran and passed; run
# from the ftracetest folder.
stackmap_cases() {
	local f
	[ -d test.d/stackmap ] || return 0
	for f in test.d/stackmap/*.tc; do
		echo "=== STACKMAP CASE $(grep -m1 '^#[ 	]*description:' "$f" | cut -f2- -d: | sed 's/^ *//')"
	done
}
