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

__u64 calls;
__u64 errors;
/* The loader's CPU argument plus 1: count only there; 0: everywhere. */
__u64 cpu_plus_1;

SEC("tracepoint")
int empty(void *ctx)
{
	return 0;
}

SEC("tracepoint")
int stackid(void *ctx)
{
	long id = bpf_get_stackid(ctx, &stacks, 0);

	__sync_fetch_and_add(&calls, 1);
	if (id < 0)
		__sync_fetch_and_add(&errors, 1);
	return 0;
}

SEC("tracepoint")
int count(void *ctx)
{
	long id = bpf_get_stackid(ctx, &stacks, 0);
	__u32 key = id;
	__u64 one = 1, *c;

	if (cpu_plus_1 && bpf_get_smp_processor_id() + 1 != cpu_plus_1)
		return 0;
	__sync_fetch_and_add(&calls, 1);
	if (id < 0) {
		__sync_fetch_and_add(&errors, 1);
		return 0;
	}
	c = bpf_map_lookup_elem(&counts, &key);
	if (c)
		__sync_fetch_and_add(c, 1);
	else
		bpf_map_update_elem(&counts, &key, &one, BPF_NOEXIST);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
