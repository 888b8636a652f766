/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _USTACK_LINUX_RCUPDATE_H
#define _USTACK_LINUX_RCUPDATE_H

/*
 * RCU from liburcu, its membarrier flavour: a reader costs a few loads and
 * stores to thread-local data, like preempt_disable(), and
 * synchronize_rcu() waits for the readers of the threads that registered.
 * The benchmark's threads call rcu_read_lock() where the kernel's callers
 * of the map have preemption disabled.
 */
#include <urcu/urcu-memb.h>

/*
 * TSan does not see liburcu's grace periods (membarrier and futexes), and
 * would take what a reset does after synchronize_rcu() for a race with the
 * readers it waited for. Tell it: the end of every read-side section
 * happens before synchronize_rcu() returns. The map orders the rest, a
 * reader that begins after a reset, with its own acquire and release.
 */
#ifdef __SANITIZE_THREAD__
void __tsan_acquire(void *addr);
void __tsan_release(void *addr);
extern char ustack_rcu_gp;
#define rcu_tsan_release()	__tsan_release(&ustack_rcu_gp)
#define rcu_tsan_acquire()	__tsan_acquire(&ustack_rcu_gp)
#else
#define rcu_tsan_release()	do { } while (0)
#define rcu_tsan_acquire()	do { } while (0)
#endif

static inline void rcu_register_thread(void)
{
	urcu_memb_register_thread();
}

static inline void rcu_unregister_thread(void)
{
	urcu_memb_unregister_thread();
}

static inline void rcu_read_lock(void)
{
	urcu_memb_read_lock();
}

static inline void rcu_read_unlock(void)
{
	rcu_tsan_release();
	urcu_memb_read_unlock();
}

static inline void synchronize_rcu(void)
{
	urcu_memb_synchronize_rcu();
	rcu_tsan_acquire();
}

#endif
