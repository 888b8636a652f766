// SPDX-License-Identifier: GPL-2.0
/*
 * Publication races on the stack map, for the KCSAN run of the harness
 * (SANITIZER=kcsan ./harness stress; not part of the series). Two kthreads,
 * on CPUs 0 and 1, look up the same sequence of made-up stacks through
 * trace_stackmap_find() on a map of their own, in step: each waits for the
 * other before it starts on the next stack. Whichever claims a stack
 * first stores it; the other gets -EAGAIN while the store is in flight and
 * asks again at once, so that it reads the new element right after it is
 * published. When the map is full both wait, their cookies are compared
 * and the map is reset; this goes on for "secs" seconds. A store whose
 * writes are not ordered before the publication is then read while those
 * writes may still be in flight: what KCSAN, with CONFIG_KCSAN_WEAK_MEMORY
 * and a low skip_watch, reports. Where the reordering really happens, the
 * other CPU may also fail to match the stack and store it a second time.
 *
 * Loading does the whole run and prints one line; unload at once. A
 * result but a cookie or -EAGAIN, a lookup that never stops returning
 * -EAGAIN, or a stack for which the two CPUs got different cookies fails
 * the load with -EIO.
 */
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/version.h>

#include "trace_stackmap.h"

#define RACE_BITS	10	/* 1024 stacks a round */
#define RACE_FRAMES	8
#define RACE_SPINS	1000000
#define RACE_STACKS	(1U << RACE_BITS)

static unsigned int secs = 10;
module_param(secs, uint, 0444);
MODULE_PARM_DESC(secs, "how long to run, in seconds (default 10)");

struct race_ctx {
	struct trace_stackmap *map;
	struct completion done[2];
	unsigned int round;
	unsigned int at[2];
	unsigned long spins[2];
	u64 cookies[2][RACE_STACKS];
	int err;
};

static void race_stack(unsigned long *ips, unsigned int round, unsigned int i)
{
	unsigned int f;

	/* Never run as code: only compared and hashed. */
	for (f = 0; f < RACE_FRAMES; f++)
		ips[f] = 0xfeed0000UL + ((unsigned long)round << 24) + (i << 4) + f;
}

static int race_thread(void *data)
{
	struct race_ctx *ctx = data;
	/* Bound to CPU 0 or 1. */
	unsigned int me = raw_smp_processor_id() ? 1 : 0;
	unsigned long ips[RACE_FRAMES];
	unsigned int i, n;
	u64 cookie = 0;
	int ret;

	for (i = 0; i < RACE_STACKS && !READ_ONCE(ctx->err); i++) {
		/* In step: both CPUs start on each stack together. */
		WRITE_ONCE(ctx->at[me], i + 1);
		while (READ_ONCE(ctx->at[!me]) < i + 1 && !READ_ONCE(ctx->err))
			cpu_relax();
		race_stack(ips, ctx->round, i);
		for (n = 0; n < RACE_SPINS; n++) {
			/* Inserts run with preemption disabled (see the map). */
			preempt_disable();
			ret = trace_stackmap_find(ctx->map, ips, RACE_FRAMES, &cookie);
			preempt_enable();
			if (ret != -EAGAIN)
				break;
			ctx->spins[me]++;
		}
		if (ret) {
			pr_err("stackmap_race: stack %u of round %u: %d after %u tries\n",
			       i, ctx->round, ret, n);
			WRITE_ONCE(ctx->err, -EIO);
		} else if (trace_stackmap_cookie_slot(cookie) >= RACE_STACKS) {
			pr_err("stackmap_race: cookie %llx out of range\n", cookie);
			WRITE_ONCE(ctx->err, -EIO);
		}
		ctx->cookies[me][i] = cookie;
		cond_resched();
	}
	complete(&ctx->done[me]);
	return 0;
}

static int __init stackmap_race_init(void)
{
	struct race_ctx *ctx;
	struct task_struct *t[2];
	unsigned long end = jiffies + secs * HZ;
	unsigned long stacks = 0;
	unsigned int i;
	int cpu, ret;

	if (!cpu_online(0) || !cpu_online(1))
		return -ENODEV;
	ctx = kvzalloc(sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return -ENOMEM;
	ctx->map = trace_stackmap_create(RACE_BITS);
	if (!ctx->map) {
		kvfree(ctx);
		return -ENOMEM;
	}
	while (time_before(jiffies, end) && !ctx->err) {
		for (cpu = 0; cpu < 2; cpu++) {
			init_completion(&ctx->done[cpu]);
			ctx->at[cpu] = 0;
			t[cpu] = kthread_create_on_cpu(race_thread, ctx, cpu, "stackmap_race/%u");
			if (IS_ERR(t[cpu])) {
				ret = PTR_ERR(t[cpu]);
				goto out;
			}
			get_task_struct(t[cpu]);
		}
		wake_up_process(t[0]);
		wake_up_process(t[1]);
		for (cpu = 0; cpu < 2; cpu++) {
			wait_for_completion(&ctx->done[cpu]);
			kthread_stop(t[cpu]);
			put_task_struct(t[cpu]);
		}
		for (i = 0; i < RACE_STACKS && !ctx->err; i++) {
			if (ctx->cookies[0][i] == ctx->cookies[1][i])
				continue;
			pr_err("stackmap_race: stack %u of round %u stored twice: cookies %llx and %llx\n",
			       i, ctx->round, ctx->cookies[0][i], ctx->cookies[1][i]);
			ctx->err = -EIO;
		}
		stacks += RACE_STACKS;
		ctx->round++;
		trace_stackmap_reset(ctx->map);
	}
	ret = ctx->err;
	pr_info("stackmap_race: %u rounds, %lu stacks looked up on both CPUs, %lu and %lu retries: %s\n",
		ctx->round, stacks, ctx->spins[0], ctx->spins[1], ret ? "FAIL" : "ok");
out:
	trace_stackmap_destroy(ctx->map, 0);
	kvfree(ctx);
	return ret;
}

static void __exit stackmap_race_exit(void)
{
}

module_init(stackmap_race_init);
module_exit(stackmap_race_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Publication races on the stack map, for KCSAN (harness only)");
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING");
#else
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
#endif
