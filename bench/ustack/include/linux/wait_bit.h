/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _USTACK_LINUX_WAIT_BIT_H
#define _USTACK_LINUX_WAIT_BIT_H

#include <sched.h>

/*
 * trace_stackmap_destroy() waits for the map's last reader: no wait queue,
 * it polls, and so wake_up_var() has no one to wake.
 */
#define wake_up_var(var)	do { (void)(var); } while (0)
#define wait_var_event_interruptible(var, condition)			\
({									\
	while (!(condition))						\
		sched_yield();						\
	0;								\
})

#endif
