#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest side of "./harness test": the ftracetest regression subset and every
# case under test.d/stackmap. The host parses the "[N] name<TAB>[RESULT]" lines.
cd /ftrace || exit 1
dirs="test.d/00basic test.d/event test.d/ftrace test.d/trigger"
if [ -d test.d/stackmap ]; then
	dirs="$dirs test.d/stackmap"
	for f in test.d/stackmap/*.tc; do
		echo "=== STACKMAP CASE $(grep -m1 '^#[ 	]*description:' "$f" | cut -f2- -d: | sed 's/^ *//')"
	done
fi
# harness.ftt=a,b on the kernel command line (FTRACETEST=a,b ./harness test)
# runs only those directories or cases.
only=$(sed -n 's/.*harness\.ftt=\([^ ]*\).*/\1/p' /proc/cmdline | tr , ' ')
[ -n "$only" ] && dirs=$only
echo "=== ftracetest $dirs"
# ftracetest's exit code is not the verdict: the host compares every case
# with the base's results.
./ftracetest -v -l /tmp/ftracetest-logs $dirs || true
# The stackmap tool (tools/tracing/stackmap), when the series has it.
if [ -x /bin/stackmap ]; then
	echo "=== stackmap tool"
	sh /guest/tool.sh
fi
