/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _USTACK_LINUX_RANDOM_H
#define _USTACK_LINUX_RANDOM_H

#include <linux/types.h>

/* A fixed-seed generator: every run hashes the same stacks the same way. */
u32 get_random_u32(void);

#endif
