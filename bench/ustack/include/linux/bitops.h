/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _USTACK_LINUX_BITOPS_H
#define _USTACK_LINUX_BITOPS_H

/* What the kernel's jhash.h takes from bitops.h. */
#include <linux/bits.h>
#include <linux/compiler.h>

static __always_inline u32 rol32(u32 word, unsigned int shift)
{
	return (word << (shift & 31)) | (word >> ((-shift) & 31));
}

#endif
