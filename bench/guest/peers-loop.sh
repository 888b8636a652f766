#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The workloads of bench/guest/peers.sh, timed: sourced by it, and run on their
# own under perf record ("sh peers-loop.sh CPU WORKLOAD"). The time the
# operations took, in the trace clock's ns, goes to /tmp/ns.
. /guest/bench-lib.sh
event() { case $1 in sched_switch) echo sched:sched_switch ;; kmalloc) echo kmem:kmalloc ;; esac; }
ops() { case $1 in sched_switch) echo 1 ;; kmalloc) echo 20 ;; esac; }
op() {
	case $1 in
	# Two tasks on one CPU passing a byte: busy, never idle.
	sched_switch) /bin/perf bench sched pipe -l 1000 > /dev/null ;;
	kmalloc) ls -R /ftrace/test.d > /dev/null ;;
	esac
}
loop() {
	t0=$(now) i=0 n=$(ops $1)
	while [ $i -lt $n ]; do op $1; i=$((i + 1)); done
	t1=$(now)
	echo $((t1 - t0)) > /tmp/ns
}
if [ $# -eq 2 ]; then
	CPU=$1
	loop $2
fi
