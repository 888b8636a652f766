/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _USTACK_ASM_LOCAL_H
#define _USTACK_ASM_LOCAL_H

/*
 * local_t: a long that only its CPU (thread) changes and others may read,
 * as atomic_long_read() reads it in the kernel: relaxed loads and stores,
 * plain moves on x86_64. There is no NMI here to interrupt an increment.
 */
#include <linux/compiler.h>

typedef struct {
	long	a;
} local_t;

static __always_inline long local_read(const local_t *l)
{
	return __atomic_load_n(&l->a, __ATOMIC_RELAXED);
}

static __always_inline void local_set(local_t *l, long i)
{
	__atomic_store_n(&l->a, i, __ATOMIC_RELAXED);
}

static __always_inline void local_inc(local_t *l)
{
	local_set(l, local_read(l) + 1);
}

#endif
