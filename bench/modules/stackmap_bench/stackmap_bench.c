// SPDX-License-Identifier: GPL-2.0
/*
 * Micro-benchmark of recording a kernel stack, built out of tree against the
 * patched kernel (not part of the series), in the manner of
 * kernel/trace/ring_buffer_benchmark.c. At the leaf of its call chains it
 * records the stack one of these ways ("store"):
 *
 *   trace      trace_dump_stack(): the stack in full or, with the stackmap
 *              option set, as a stack map cookie (whoever loads the module
 *              sets options/stackmap; "mode" only labels the line);
 *   event      the module's trace event stackmap_bench_leaf, for whatever
 *              hooks it: the event with options/stacktrace, a BPF program
 *              calling bpf_get_stackid(), or nothing (the event's own cost);
 *   unwind     stack_trace_save() alone: what the others pay to unwind;
 *   depot      stack_trace_save() and stack_depot_save_flags(), as from a
 *              context that cannot sleep: a hit allocates nothing; the miss
 *              that fills the depot's current 16 KiB pool allocates the
 *              next one with GFP_NOWAIT (STACK_DEPOT_FLAG_CAN_ALLOC);
 *   depot_get  the same with STACK_DEPOT_FLAG_GET (refcounted records).
 *
 * A kthread on one CPU builds call chains of exactly "frames" frames. Each
 * level calls one of 16 functions, chosen by 4 bits of the chain's number,
 * so that chains differ in their return addresses. With fresh=0, "stacks"
 * chains are recorded in turn (one: the same stack over and over; more:
 * each in turn, more than the CPU's table of recent stacks holds), and pass
 * 0 only warms up: every later stack is a hit. With fresh=1, every stack
 * of every pass is a chain not recorded before, numbered from "first": each
 * is a miss, an insertion. Each pass times "iters" stacks with
 * local_clock(), less the time of the same walk with nothing recorded, and
 * gives the median, minimum and maximum per stack. Under QEMU with
 * -icount shift=0 the clock counts guest instructions. Loading prints one
 * line and returns 0; unload at once. Loaded with defer=1 it does nothing at
 * load (its trace event exists, to be enabled or hooked), and each write
 * to its "run" parameter is one run with the parameters of that moment.
 */
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/stackdepot.h>
#include <linux/stacktrace.h>
#include <linux/string.h>

#define CREATE_TRACE_POINTS
#include "stackmap_bench_trace.h"

#define BENCH_MAX_FRAMES	64
/*
 * Stack depot keeps at most this many frames of a stack, but hashes all it
 * is given: a longer stack never matches its own truncated record and is
 * stored again on every save. Its users save at most this many.
 */
#ifdef CONFIG_STACKDEPOT_MAX_FRAMES
#define BENCH_DEPOT_FRAMES	CONFIG_STACKDEPOT_MAX_FRAMES
#else
#define BENCH_DEPOT_FRAMES	BENCH_MAX_FRAMES
#endif
#define BENCH_MAX_PASSES	64

static unsigned int frames = 16;
module_param(frames, uint, 0644);
MODULE_PARM_DESC(frames, "frames per recorded stack (at most 64)");
static unsigned int stacks = 1;
module_param(stacks, uint, 0644);
MODULE_PARM_DESC(stacks, "distinct stacks, recorded in turn (at most 2^(frames - base))");
static unsigned int iters = 2000;
module_param(iters, uint, 0644);
MODULE_PARM_DESC(iters, "stacks recorded per pass");
static unsigned int passes = 15;
module_param(passes, uint, 0644);
MODULE_PARM_DESC(passes, "timed passes, after one warm-up pass");
static char *mode = "?";
module_param(mode, charp, 0644);
MODULE_PARM_DESC(mode, "label of the output line (full, map, ...)");
static char *store = "trace";
module_param(store, charp, 0644);
MODULE_PARM_DESC(store, "how a stack is recorded: trace, event, unwind, depot, depot_get");
static bool fresh;
module_param(fresh, bool, 0644);
MODULE_PARM_DESC(fresh, "every stack a chain not recorded before (misses)");
static unsigned long first;
module_param(first, ulong, 0644);
MODULE_PARM_DESC(first, "number of the first chain with fresh=1");

enum bench_store { BENCH_TRACE, BENCH_EVENT, BENCH_UNWIND, BENCH_DEPOT, BENCH_DEPOT_GET };
static enum bench_store bench_store;
static unsigned long bench_entries[BENCH_MAX_FRAMES + 8];
/* Stack depot calls that returned no handle, in all passes. */
static unsigned long bench_refused;

static void bench_record(unsigned long chain)
{
	depot_flags_t flags = STACK_DEPOT_FLAG_CAN_ALLOC;
	unsigned int n;

	switch (bench_store) {
	case BENCH_TRACE:
		trace_dump_stack(0);
		break;
	case BENCH_EVENT:
		trace_stackmap_bench_leaf(chain);
		break;
	case BENCH_UNWIND:
		stack_trace_save(bench_entries, ARRAY_SIZE(bench_entries), 0);
		break;
	case BENCH_DEPOT_GET:
		flags |= STACK_DEPOT_FLAG_GET;
		fallthrough;
	case BENCH_DEPOT:
		/* Only a kernel with stack depot gets here (bench_run()). */
		if (!IS_ENABLED(CONFIG_STACKDEPOT))
			break;
		n = stack_trace_save(bench_entries,
				     min(ARRAY_SIZE(bench_entries), BENCH_DEPOT_FRAMES), 0);
		if (!stack_depot_save_flags(bench_entries, n, GFP_NOWAIT | __GFP_NOWARN, flags))
			bench_refused++;
		break;
	}
}

typedef void (*bench_fn)(u64 bits, unsigned int levels, bool record, unsigned long chain);
static const bench_fn bench_fns[16];

/*
 * One frame per level: the level calls one of the 16 functions by 4 bits of
 * "bits", so that 16^levels chains differ in their return addresses.
 * Inlined into each, so that the stack starts at the last level, as
 * bench_probe()'s does; barrier(): a call, not a tail jump.
 */
static __always_inline void bench_level(u64 bits, unsigned int levels, bool record,
					unsigned long chain)
{
	if (!levels) {
		if (record)
			bench_record(chain);
	} else {
		bench_fns[bits & 15](bits >> 4, levels - 1, record, chain);
	}
	barrier();
}

/* __noipa: the 16 identical bodies must stay 16 functions. */
#define BENCH_FN(n)							\
static __noipa void bench_f##n(u64 bits, unsigned int levels, bool record,	\
			       unsigned long chain)			\
{									\
	bench_level(bits, levels, record, chain);			\
}

BENCH_FN(0) BENCH_FN(1) BENCH_FN(2) BENCH_FN(3)
BENCH_FN(4) BENCH_FN(5) BENCH_FN(6) BENCH_FN(7)
BENCH_FN(8) BENCH_FN(9) BENCH_FN(10) BENCH_FN(11)
BENCH_FN(12) BENCH_FN(13) BENCH_FN(14) BENCH_FN(15)

static const bench_fn bench_fns[16] = {
	bench_f0, bench_f1, bench_f2, bench_f3, bench_f4, bench_f5, bench_f6, bench_f7,
	bench_f8, bench_f9, bench_f10, bench_f11, bench_f12, bench_f13, bench_f14, bench_f15,
};

static unsigned int bench_depth;

/* The depth of the stack trace_dump_stack() would record at the leaf. */
static __noipa void bench_probe(unsigned int levels)
{
	if (levels) {
		bench_probe(levels - 1);
		barrier();
		return;
	}
	bench_depth = stack_trace_save(bench_entries, ARRAY_SIZE(bench_entries), 0);
}

struct bench_ctx {
	struct completion	done;
	unsigned int		levels;
	unsigned long		nstacks;
	unsigned int		depth;
	u64			per_stack[BENCH_MAX_PASSES];
	int			ret;
};

/* The chain of stack i of pass p: a 64-bit number read 4 bits per level. */
static unsigned long bench_chain(struct bench_ctx *ctx, unsigned int p, unsigned int i)
{
	if (fresh)
		return first + (unsigned long)p * iters + i;
	return i % ctx->nstacks;
}

static u64 bench_pass(struct bench_ctx *ctx, unsigned int p, bool record)
{
	unsigned long chain;
	unsigned int i;
	u64 t0;

	t0 = local_clock();
	for (i = 0; i < iters; i++) {
		chain = bench_chain(ctx, p, i);
		bench_fns[chain & 15](chain >> 4, ctx->levels, record, chain);
	}
	return local_clock() - t0;
}

static int bench_cmp(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static int bench_thread(void *data)
{
	struct bench_ctx *ctx = data;
	unsigned int p;

	/* The frames below the first level are the thread's own. */
	bench_probe(0);
	if (frames <= bench_depth) {
		pr_err("stackmap_bench: %u frames asked, the thread alone has %u\n",
		       frames, bench_depth);
		ctx->ret = -EINVAL;
		goto out;
	}
	ctx->levels = frames - bench_depth;
	bench_probe(ctx->levels);
	ctx->depth = bench_depth;
	bench_refused = 0;
	ctx->nstacks = stacks;
	/* 16^levels chains: only so many stacks differ. */
	if (ctx->levels < 16 && stacks > 1UL << (4 * ctx->levels))
		ctx->nstacks = 1UL << (4 * ctx->levels);
	if (fresh && ctx->levels < 16 &&
	    first + (unsigned long)(passes + 1) * iters > 1UL << (4 * ctx->levels)) {
		pr_err("stackmap_bench: %u frames have %lu chains, fewer than first + (passes + 1) * iters\n",
		       frames, 1UL << (4 * ctx->levels));
		ctx->ret = -EINVAL;
		goto out;
	}

	for (p = 0; p <= passes; p++) {
		u64 rec, walk;

		rec = bench_pass(ctx, p, true);
		walk = bench_pass(ctx, p, false);
		if (p)
			ctx->per_stack[p - 1] = rec > walk ? div_u64(rec - walk, iters) : 0;
		cond_resched();
	}
out:
	complete(&ctx->done);
	return 0;
}

/* One run with the parameters as they are now; its line on the console. */
static int bench_run(void)
{
	struct bench_ctx *ctx;
	struct task_struct *t;
	unsigned int cpu;
	int ret;

	if (frames > BENCH_MAX_FRAMES || !passes || passes > BENCH_MAX_PASSES ||
	    !iters || !stacks) {
		pr_err("stackmap_bench: frames 1-%d, passes 1-%d, iters and stacks at least 1\n",
		       BENCH_MAX_FRAMES, BENCH_MAX_PASSES);
		return -EINVAL;
	}
	if (sysfs_streq(store, "trace")) {
		bench_store = BENCH_TRACE;
	} else if (sysfs_streq(store, "event")) {
		bench_store = BENCH_EVENT;
	} else if (sysfs_streq(store, "unwind")) {
		bench_store = BENCH_UNWIND;
	} else if (sysfs_streq(store, "depot") || sysfs_streq(store, "depot_get")) {
		if (!IS_ENABLED(CONFIG_STACKDEPOT)) {
			pr_err("stackmap_bench: store=%s needs CONFIG_STACKDEPOT\n", store);
			return -EOPNOTSUPP;
		}
		bench_store = sysfs_streq(store, "depot") ? BENCH_DEPOT : BENCH_DEPOT_GET;
		ret = stack_depot_init();
		if (ret)
			return ret;
	} else {
		pr_err("stackmap_bench: store is trace, event, unwind, depot or depot_get, not %s\n",
		       store);
		return -EINVAL;
	}
	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return -ENOMEM;
	init_completion(&ctx->done);

	cpu = cpumask_last(cpu_online_mask);
	t = kthread_run_on_cpu(bench_thread, ctx, cpu, "stackmap-bench/%u");
	if (IS_ERR(t)) {
		ret = PTR_ERR(t);
		goto out;
	}
	wait_for_completion(&ctx->done);
	ret = ctx->ret;
	if (ret)
		goto out;

	sort(ctx->per_stack, passes, sizeof(ctx->per_stack[0]), bench_cmp, NULL);
	pr_info("stackmap_bench: depth %u frames, %lu stacks, %s: %llu (%llu-%llu) per stack, %u passes of %u%s, store %s, %lu refused\n",
		ctx->depth, fresh ? (unsigned long)(passes + 1) * iters : ctx->nstacks, mode,
		ctx->per_stack[passes / 2], ctx->per_stack[0], ctx->per_stack[passes - 1],
		passes, iters, fresh ? " fresh" : "", store, bench_refused);
out:
	kfree(ctx);
	return ret;
}

/* One run at a time, whoever starts it. */
static DEFINE_MUTEX(bench_lock);

static int bench_run_set(const char *val, const struct kernel_param *kp)
{
	int ret;

	mutex_lock(&bench_lock);
	ret = bench_run();
	mutex_unlock(&bench_lock);
	return ret;
}

static const struct kernel_param_ops bench_run_ops = {
	.set = bench_run_set,
};
module_param_cb(run, &bench_run_ops, NULL, 0200);
MODULE_PARM_DESC(run, "write anything: one run with the parameters as they are now");
static bool defer;
module_param(defer, bool, 0444);
MODULE_PARM_DESC(defer, "no run at load: runs start by writing to the run parameter");

static int __init stackmap_bench_init(void)
{
	return defer ? 0 : bench_run();
}

static void __exit stackmap_bench_exit(void)
{
}

module_init(stackmap_bench_init);
module_exit(stackmap_bench_exit);
MODULE_DESCRIPTION("Micro-benchmark of recording kernel stacks in the trace, full or as stack map cookies");
MODULE_LICENSE("GPL");
