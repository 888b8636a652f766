/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _USTACK_LINUX_COMPILER_H
#define _USTACK_LINUX_COMPILER_H

/* What compiler_types.h, compiler.h and rwonce.h give the map. */
#include <linux/types.h>

/* The C library's <sys/cdefs.h> has its own, the same. */
#ifndef __always_inline
#define __always_inline		inline __attribute__((__always_inline__))
#endif
#define noinline		__attribute__((__noinline__))
#define fallthrough		__attribute__((__fallthrough__))
#define __aligned(x)		__attribute__((__aligned__(x)))
#define __percpu
#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)
#define barrier()		__asm__ __volatile__("" : : : "memory")

/*
 * Marked accesses: relaxed atomics, which is what KCSAN takes them for and
 * what TSan understands. On x86_64 they compile to the plain moves the
 * kernel's volatile accesses compile to.
 */
#define READ_ONCE(x)		__atomic_load_n(&(x), __ATOMIC_RELAXED)
#define WRITE_ONCE(x, val)	__atomic_store_n(&(x), (val), __ATOMIC_RELAXED)

/*
 * data_race(): an access the code means to race, which KCSAN does not
 * watch. A relaxed atomic would not do for TSan, which reports a relaxed
 * read against the plain memcpy() that writes the same frames; TSan's
 * own annotation does what KCSAN does: it does not see the access.
 */
#ifdef __SANITIZE_THREAD__
void AnnotateIgnoreReadsBegin(const char *file, int line);
void AnnotateIgnoreReadsEnd(const char *file, int line);
#define data_race(expr)							\
({									\
	AnnotateIgnoreReadsBegin(__FILE__, __LINE__);			\
	__auto_type __v = (expr);					\
	AnnotateIgnoreReadsEnd(__FILE__, __LINE__);			\
	__v;								\
})
#else
#define data_race(expr)		(expr)
#endif

#endif
