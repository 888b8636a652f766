/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _USTACK_LINUX_ATOMIC_H
#define _USTACK_LINUX_ATOMIC_H

/*
 * atomic_t, cmpxchg() and the barriers, with the kernel's semantics
 * (Documentation/atomic_t.txt) in GCC's __atomic builtins: a value-returning
 * read-modify-write is fully ordered (SEQ_CST, a lock-prefixed instruction
 * on x86_64, as in the kernel), a failed cmpxchg orders nothing,
 * atomic_read() and atomic_set() are relaxed.
 */
#include <linux/compiler.h>

#define ATOMIC_INIT(i)		{ (i) }

static __always_inline int atomic_read(const atomic_t *v)
{
	return __atomic_load_n(&v->counter, __ATOMIC_RELAXED);
}

static __always_inline void atomic_set(atomic_t *v, int i)
{
	__atomic_store_n(&v->counter, i, __ATOMIC_RELAXED);
}

static __always_inline int atomic_inc_return(atomic_t *v)
{
	return __atomic_add_fetch(&v->counter, 1, __ATOMIC_SEQ_CST);
}

static __always_inline bool atomic_try_cmpxchg(atomic_t *v, int *old, int new)
{
	return __atomic_compare_exchange_n(&v->counter, old, new, false,
					   __ATOMIC_SEQ_CST, __ATOMIC_RELAXED);
}

/* As the generic fallback in include/linux/atomic/atomic-arch-fallback.h. */
static __always_inline int atomic_fetch_add_unless(atomic_t *v, int a, int u)
{
	int c = atomic_read(v);

	do {
		if (unlikely(c == u))
			break;
	} while (!atomic_try_cmpxchg(v, &c, c + a));
	return c;
}

static __always_inline bool atomic_add_unless(atomic_t *v, int a, int u)
{
	return atomic_fetch_add_unless(v, a, u) != u;
}

#define cmpxchg(ptr, old, new)						\
({									\
	__typeof__(*(ptr)) __old = (old);				\
	__atomic_compare_exchange_n((ptr), &__old, (new), false,	\
				    __ATOMIC_SEQ_CST, __ATOMIC_RELAXED);\
	__old;								\
})

#define smp_load_acquire(p)	__atomic_load_n((p), __ATOMIC_ACQUIRE)
#define smp_store_release(p, v)	__atomic_store_n((p), (v), __ATOMIC_RELEASE)

/*
 * TSan does not model fences (GCC refuses them with -Wtsan). It runs on
 * x86_64 only here, where the kernel's smp_wmb() and smp_rmb() are
 * compiler barriers too, and smp_mb__after_atomic() as well: the atomic
 * before it is lock-prefixed.
 */
#ifdef __SANITIZE_THREAD__
#define smp_mb()		barrier()
#define smp_wmb()		barrier()
#define smp_rmb()		barrier()
#else
#define smp_mb()		__atomic_thread_fence(__ATOMIC_SEQ_CST)
#define smp_wmb()		__atomic_thread_fence(__ATOMIC_RELEASE)
#define smp_rmb()		__atomic_thread_fence(__ATOMIC_ACQUIRE)
#endif
#define smp_mb__after_atomic()	smp_mb()

#endif
