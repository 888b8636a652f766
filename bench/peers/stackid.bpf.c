// SPDX-License-Identifier: GPL-2.0
/*
 * The BPF side of the benchmark's peers (bench/peers/README.md): programs
 * for a tracepoint that record its kernel stack with bpf_get_stackid()
 * into a BPF_MAP_TYPE_STACK_TRACE map, as bpftrace's kstack does.
 *   empty    nothing: what running a program on the tracepoint costs;
 *   stackid  bpf_get_stackid() alone: the stack recorder;
 *   count    bpf_get_stackid() and a count per stack in a hash map, as
 *            bpftrace's @[kstack] = count() does, on one CPU if the
 *            loader names one.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define MAX_FRAMES	127	/* perf_event_max_stack's default, as bpftrace */

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, 16384);	/* the loader sets it */
	__uint(key_size, sizeof(__u32));
	__uint(value_size, MAX_FRAMES * sizeof(__u64));
} stacks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);	/* the loader sets it */
	__type(key, __u32);
	__type(value, __u64);
} counts SEC(".maps");

/*
 * Counters in a map of their own, not in global data: libbpf probes for
 * global data with a socket filter program, which a kernel without
 * networking does not have. The loader sets cpu_plus_1.
 */
struct bench_stats {
	__u64 calls;		/* count: events counted */
	__u64 errors;		/* bpf_get_stackid() failures */
	__u64 cpu_plus_1;	/* count: only this CPU's events; 0: every CPU's */
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct bench_stats);
} stats SEC(".maps");

static __always_inline void count_error(void)
{
	__u32 zero = 0;
	struct bench_stats *st = bpf_map_lookup_elem(&stats, &zero);

	if (st)
		__sync_fetch_and_add(&st->errors, 1);
}

SEC("tracepoint")
int empty(void *ctx)
{
	return 0;
}

SEC("tracepoint")
int stackid(void *ctx)
{
	/* Nothing else on success: the figure is bpf_get_stackid()'s. */
	if (bpf_get_stackid(ctx, &stacks, 0) < 0)
		count_error();
	return 0;
}

SEC("tracepoint")
int count(void *ctx)
{
	struct bench_stats *st;
	__u32 zero = 0, key;
	__u64 one = 1, *c;
	long id;

	st = bpf_map_lookup_elem(&stats, &zero);
	if (!st)
		return 0;
	if (st->cpu_plus_1 && bpf_get_smp_processor_id() + 1 != st->cpu_plus_1)
		return 0;
	__sync_fetch_and_add(&st->calls, 1);
	id = bpf_get_stackid(ctx, &stacks, 0);
	if (id < 0) {
		__sync_fetch_and_add(&st->errors, 1);
		return 0;
	}
	key = id;
	c = bpf_map_lookup_elem(&counts, &key);
	if (c)
		__sync_fetch_and_add(c, 1);
	else
		bpf_map_update_elem(&counts, &key, &one, BPF_NOEXIST);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
