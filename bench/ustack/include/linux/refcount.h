/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _USTACK_LINUX_REFCOUNT_H
#define _USTACK_LINUX_REFCOUNT_H

/* The orderings of lib/refcount.c, without its saturation checks. */
#include <linux/atomic.h>

typedef struct {
	atomic_t	refs;
} refcount_t;

static inline void refcount_set(refcount_t *r, int n)
{
	atomic_set(&r->refs, n);
}

static inline unsigned int refcount_read(const refcount_t *r)
{
	return atomic_read(&r->refs);
}

static inline void refcount_inc(refcount_t *r)
{
	__atomic_fetch_add(&r->refs.counter, 1, __ATOMIC_RELAXED);
}

/* Release, and acquire when it drops the last reference. */
static inline bool refcount_dec_and_test(refcount_t *r)
{
	return __atomic_sub_fetch(&r->refs.counter, 1, __ATOMIC_ACQ_REL) == 0;
}

#endif
