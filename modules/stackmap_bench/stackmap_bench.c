// SPDX-License-Identifier: GPL-2.0
/*
 * Micro-benchmark of recording a kernel stack into the trace, built out of
 * tree against the patched kernel (not part of the series), in the manner
 * of kernel/trace/ring_buffer_benchmark.c. It goes through the real
 * recording path: trace_dump_stack() unwinds the stack and hands it to
 * __ftrace_trace_stack(), which writes it in full or, with the stackmap
 * option set, as a stack map cookie. Which of the two is measured is up to
 * whoever loads the module (options/stackmap); "mode" only labels the line.
 *
 * A kthread on one CPU builds call chains of exactly "frames" frames, from
 * "stacks" different chains (one: the same stack over and over; more: each
 * in turn, more than the CPU's table of recent stacks holds), and times
 * "iters" stacks per pass with local_clock(), less the time of the same
 * walk with no stack recorded. Pass 0 only warms up (every stack is in the
 * map after it); the others give the median, minimum and maximum per
 * stack. Under QEMU with -icount shift=0 the clock counts guest
 * instructions. Loading prints one line and returns 0; unload at once.
 */
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/stacktrace.h>

#define BENCH_MAX_FRAMES	64
#define BENCH_MAX_PASSES	64

static unsigned int frames = 16;
module_param(frames, uint, 0444);
MODULE_PARM_DESC(frames, "frames per recorded stack (at most 64)");
static unsigned int stacks = 1;
module_param(stacks, uint, 0444);
MODULE_PARM_DESC(stacks, "distinct stacks, recorded in turn (at most 2^(frames - base))");
static unsigned int iters = 2000;
module_param(iters, uint, 0444);
MODULE_PARM_DESC(iters, "stacks recorded per pass");
static unsigned int passes = 15;
module_param(passes, uint, 0444);
MODULE_PARM_DESC(passes, "timed passes, after one warm-up pass");
static char *mode = "?";
module_param(mode, charp, 0444);
MODULE_PARM_DESC(mode, "label of the output line (full, map)");

static void bench_a(unsigned int bits, unsigned int levels, bool record);
static void bench_b(unsigned int bits, unsigned int levels, bool record);

/* Inlined: the stack starts at the last level, as bench_probe()'s does. */
static __always_inline void bench_leaf(bool record)
{
	if (record)
		trace_dump_stack(0);
}

/*
 * One frame per level. Each level calls one of two functions from one of
 * two call sites by a bit of "bits", so that 2^levels chains differ in
 * their return addresses. __noipa: the two identical bodies must stay two
 * functions; barrier(): a call, not a tail jump.
 */
static __noipa void bench_a(unsigned int bits, unsigned int levels, bool record)
{
	if (!levels)
		bench_leaf(record);
	else if (bits & 1)
		bench_b(bits >> 1, levels - 1, record);
	else
		bench_a(bits >> 1, levels - 1, record);
	barrier();
}

static __noipa void bench_b(unsigned int bits, unsigned int levels, bool record)
{
	if (!levels)
		bench_leaf(record);
	else if (bits & 1)
		bench_b(bits >> 1, levels - 1, record);
	else
		bench_a(bits >> 1, levels - 1, record);
	barrier();
}

static unsigned long bench_entries[BENCH_MAX_FRAMES + 8];
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
	unsigned int		nstacks;
	unsigned int		depth;
	u64			per_stack[BENCH_MAX_PASSES];
	int			ret;
};

static u64 bench_pass(struct bench_ctx *ctx, bool record)
{
	unsigned int i;
	u64 t0;

	t0 = local_clock();
	for (i = 0; i < iters; i++)
		bench_a(i % ctx->nstacks, ctx->levels, record);
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
	ctx->nstacks = stacks;
	if (ctx->levels < 31 && stacks > 1U << ctx->levels)
		ctx->nstacks = 1U << ctx->levels;

	for (p = 0; p <= passes; p++) {
		u64 rec, walk;

		rec = bench_pass(ctx, true);
		walk = bench_pass(ctx, false);
		if (p)
			ctx->per_stack[p - 1] = rec > walk ? div_u64(rec - walk, iters) : 0;
		cond_resched();
	}
out:
	complete(&ctx->done);
	return 0;
}

static int __init stackmap_bench_init(void)
{
	struct bench_ctx *ctx;
	struct task_struct *t;
	unsigned int cpu;
	int ret;

	if (frames > BENCH_MAX_FRAMES || !passes || passes > BENCH_MAX_PASSES || !iters || !stacks) {
		pr_err("stackmap_bench: frames 1-%d, passes 1-%d, iters and stacks at least 1\n",
		       BENCH_MAX_FRAMES, BENCH_MAX_PASSES);
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
	pr_info("stackmap_bench: depth %u frames, %u stacks, %s: %llu (%llu-%llu) per stack, %u passes of %u\n",
		ctx->depth, ctx->nstacks, mode, ctx->per_stack[passes / 2], ctx->per_stack[0],
		ctx->per_stack[passes - 1], passes, iters);
out:
	kfree(ctx);
	return ret;
}

static void __exit stackmap_bench_exit(void)
{
}

module_init(stackmap_bench_init);
module_exit(stackmap_bench_exit);
MODULE_DESCRIPTION("Micro-benchmark of recording kernel stacks in the trace, full or as stack map cookies");
MODULE_LICENSE("GPL");
