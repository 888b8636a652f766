// SPDX-License-Identifier: GPL-2.0
/*
 * A load for the stack map's stress run, built out of tree against the
 * patched kernel (not part of the series): loading the module records
 * kernel stacks with trace_dump_stack() from 2^LOAD_BITS distinct call
 * chains, twice as many as a default map holds, on every online CPU at once
 * and in the same order, so that the same stacks are inserted concurrently;
 * then LOAD_DEEP_STACKS stacks per CPU deeper than the map stores. What the
 * trace does with them (the stackmap option, resets, frees) is up to
 * whoever loads it, who checks the trace and the map afterwards. The module
 * does its work in its init function and can be unloaded at once.
 */
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>

#define LOAD_BITS		15
#define LOAD_DEEP		40	/* levels, two frames each: deeper than 64 frames */
#define LOAD_DEEP_STACKS	16

static noinline void load_walk(unsigned int bits, unsigned int levels);

/*
 * Two callers of load_walk(): the stack records which one each level took.
 * __noipa: identical bodies must stay two functions, not be folded into one.
 */
static __noipa void load_left(unsigned int bits, unsigned int levels)
{
	load_walk(bits, levels);
	barrier();	/* a call, not a tail jump: this frame must be on the stack */
}

static __noipa void load_right(unsigned int bits, unsigned int levels)
{
	load_walk(bits, levels);
	barrier();
}

static noinline void load_walk(unsigned int bits, unsigned int levels)
{
	if (!levels) {
		trace_dump_stack(0);
		return;
	}
	if (bits & 1)
		load_right(bits >> 1, levels - 1);
	else
		load_left(bits >> 1, levels - 1);
	barrier();
}

struct load_ctx {
	struct completion	done;
};

static int load_thread(void *data)
{
	struct load_ctx *ctx = data;
	unsigned int i;

	for (i = 0; i < 1U << LOAD_BITS; i++) {
		load_walk(i, LOAD_BITS);
		cond_resched();
	}
	for (i = 0; i < LOAD_DEEP_STACKS; i++)
		load_walk(i, LOAD_DEEP);
	complete(&ctx->done);
	return 0;
}

static int __init stackmap_load_init(void)
{
	unsigned int cpu, n = 0, want;
	struct load_ctx *ctx;
	cpumask_var_t cpus;

	if (!alloc_cpumask_var(&cpus, GFP_KERNEL))
		return -ENOMEM;
	/* One set of CPUs for the start and the wait, whatever hotplug does. */
	cpumask_copy(cpus, cpu_online_mask);
	want = cpumask_weight(cpus);
	ctx = kcalloc(nr_cpu_ids, sizeof(*ctx), GFP_KERNEL);
	if (!ctx) {
		free_cpumask_var(cpus);
		return -ENOMEM;
	}
	for_each_cpu(cpu, cpus) {
		struct task_struct *t;

		init_completion(&ctx[cpu].done);
		t = kthread_run_on_cpu(load_thread, &ctx[cpu], cpu, "stackmap-load/%u");
		/* Those started already finish on their own; wait for them below. */
		if (IS_ERR(t))
			complete(&ctx[cpu].done);
		else
			n++;
	}
	for_each_cpu(cpu, cpus)
		wait_for_completion(&ctx[cpu].done);
	kfree(ctx);
	free_cpumask_var(cpus);
	if (n != want) {
		pr_err("stackmap_load: started on %u of %u CPUs\n", n, want);
		return -EAGAIN;
	}
	pr_info("stackmap_load: %u CPUs recorded %u call chains each, and %u deeper than 64 frames\n",
		n, 1U << LOAD_BITS, LOAD_DEEP_STACKS);
	return 0;
}

static void __exit stackmap_load_exit(void)
{
}

module_init(stackmap_load_init);
module_exit(stackmap_load_exit);
MODULE_DESCRIPTION("Load for the ftrace stack map's stress run: many distinct kernel stacks");
MODULE_LICENSE("GPL");
