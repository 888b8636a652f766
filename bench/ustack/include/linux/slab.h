/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _USTACK_LINUX_SLAB_H
#define _USTACK_LINUX_SLAB_H

#include <linux/types.h>
#include <linux/vmalloc.h>
#include <stdlib.h>

#define GFP_KERNEL		0U

static inline void *kzalloc(size_t size, gfp_t flags)
{
	return calloc(1, size);
}

#define kzalloc_obj(P, ...)	((__typeof__(P) *)kzalloc(sizeof(P), GFP_KERNEL))

static inline void kfree(const void *p)
{
	free((void *)p);
}

/* The map's table is 256 KiB by default: kvcalloc() vmallocs it. */
static inline void *kvcalloc(size_t n, size_t size, gfp_t flags)
{
	return vcalloc(n, size);
}

static inline void kvfree(const void *addr)
{
	vfree(addr);
}

#endif
