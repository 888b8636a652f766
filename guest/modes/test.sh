#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# harness-show: ^(not ok|ok [0-9]+|=== |# figure: )
# Guest side of the test boot: the ftracetest directories or cases of
# harness.ftt=a,b on the kernel command line (the host's test plan: the
# regression subset and test.d/stackmap), those this tree has, then the
# stackmap tool's tests. ftracetest reports KTAP (-K), part "ftracetest".
. /guest/args.sh
cd /ftrace || exit 1
stackmap_cases
dirs=
for d in $(harness_arg ftt | tr , ' '); do
	[ -e "$d" ] && dirs="$dirs $d"
done
[ -n "$dirs" ] || { echo "test.sh: nothing to run of harness.ftt="; exit 1; }
echo "# ftracetest$dirs"
# ftracetest's exit code is not the verdict: the host compares every case
# with the base's results.
echo "=== PART ftracetest"
./ftracetest -K -v -l /tmp/ftracetest-logs $dirs || true
# The stackmap tool (tools/tracing/stackmap), when the series has it.
if [ -x /bin/stackmap ]; then
	echo "=== stackmap tool"
	sh /guest/tool.sh
fi
