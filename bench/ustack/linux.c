// SPDX-License-Identifier: GPL-2.0
/*
 * What the shims of include/ need at run time: the CPUs, per-CPU and
 * vmalloc memory, the random seed.
 */
#include <linux/percpu.h>
#include <linux/random.h>
#include <linux/rcupdate.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include <stdint.h>

/* Set by the benchmark to its thread count before it creates a map. */
unsigned int nr_cpu_ids = 1;
__thread int ustack_cpu;

#ifdef __SANITIZE_THREAD__
char ustack_rcu_gp;
#endif

void *__alloc_percpu(size_t size)
{
	size_t len = nr_cpu_ids * PCPU_UNIT(size);
	void *p = aligned_alloc(128, len);

	if (p)
		memset(p, 0, len);
	return p;
}

void *vcalloc(size_t n, size_t size)
{
	size_t len;
	void *p;

	if (__builtin_mul_overflow(n, size, &len) || len > SIZE_MAX - 4095)
		return NULL;
	len = (len + 4095) & ~(size_t)4095;
	p = aligned_alloc(4096, len);
	/* Writing every page makes them resident now, not on the hot path. */
	if (p)
		memset(p, 0, len);
	return p;
}

/* splitmix64, from a fixed seed. */
u32 get_random_u32(void)
{
	static u64 state = 0x5eed5eed5eed5eedULL;
	u64 z = __atomic_add_fetch(&state, 0x9e3779b97f4a7c15ULL, __ATOMIC_RELAXED);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (u32)(z ^ (z >> 31));
}
