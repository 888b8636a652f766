#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# harness-show: ^(not ok|ok [0-9]+|=== |# figure: )
# harness-nmi: yes
# Guest side of the debug-kernel boot of "./harness full" (lockdep, KASAN,
# UBSAN, ...): the KUnit suites ran at boot; here allocation failures, the
# tracefs write fuzzer, the stackmap ftracetest cases and a short stress run
# (harness.secs=). The host fails on any report on the console.
sh /guest/faults.sh
sh /guest/fuzz.sh 300
. /guest/args.sh
cd /ftrace || exit 1
stackmap_cases
echo "=== PART ftracetest"
./ftracetest -K -v -l /tmp/ftracetest-logs test.d/stackmap || true
sh /guest/stress.sh
