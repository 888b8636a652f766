/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _USTACK_LINUX_BITS_H
#define _USTACK_LINUX_BITS_H

#include <linux/types.h>

#define BIT(nr)			(1UL << (nr))

#endif
