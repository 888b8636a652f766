/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The benchmark's own trace event, at the leaf of its call chains: what a
 * stack recorder hooks on a tracepoint (the stacktrace option, a BPF
 * program calling bpf_get_stackid()) hooks here.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM stackmap_bench

#if !defined(_STACKMAP_BENCH_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _STACKMAP_BENCH_TRACE_H

#include <linux/tracepoint.h>

TRACE_EVENT(stackmap_bench_leaf,
	TP_PROTO(unsigned long chain),
	TP_ARGS(chain),
	TP_STRUCT__entry(
		__field(unsigned long, chain)
	),
	TP_fast_assign(
		__entry->chain = chain;
	),
	TP_printk("chain=%lu", __entry->chain)
);

#endif /* _STACKMAP_BENCH_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE stackmap_bench_trace
#include <trace/define_trace.h>
