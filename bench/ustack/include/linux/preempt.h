/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _USTACK_LINUX_PREEMPT_H
#define _USTACK_LINUX_PREEMPT_H

/*
 * A thread is never preempted in the kernel's sense, nor in an NMI. What a
 * preemption-disabled section means to the map, an RCU reader for
 * trace_stackmap_reset(), the caller gets from rcu_read_lock().
 */
#define in_nmi()		0

#endif
