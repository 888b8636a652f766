/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _USTACK_LINUX_VMALLOC_H
#define _USTACK_LINUX_VMALLOC_H

#include <linux/types.h>
#include <stdlib.h>

/* Zeroed, page-aligned and resident, as vmalloc()ed memory is. */
void *vcalloc(size_t n, size_t size);

static inline void vfree(const void *addr)
{
	free((void *)addr);
}

#endif
