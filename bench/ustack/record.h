/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _USTACK_RECORD_H
#define _USTACK_RECORD_H

#include <linux/compiler.h>

struct trace_stackmap;

/* The size of a ring-buffer page, which a full stack is written into. */
#define USTACK_PAGE_SIZE	4096

/* A ring-buffer page that the records of one thread go to, wrapping. */
struct ustack_page {
	unsigned int	pos;
	u8		data[USTACK_PAGE_SIZE] __aligned(64);
};

/* How a stack was recorded as a cookie, or -errno if it was not. */
enum {
	USTACK_RECENT,	/* found by trace_stackmap_find_recent() */
	USTACK_FIND,	/* found or stored by trace_stackmap_find() */
};

void ustack_make(unsigned long *calls, u32 id, unsigned int nr);
int ustack_stack_id(const unsigned long *calls);
void ustack_record_none(u32 id, unsigned int nr);
void ustack_record_full(struct ustack_page *page, u32 id, unsigned int nr);
int ustack_record_map(struct trace_stackmap *map, u32 *counts, u32 id, unsigned int nr);
int ustack_record_cookie(struct trace_stackmap *map, struct ustack_page *page,
			 u32 id, unsigned int nr);

#endif
