// SPDX-License-Identifier: GPL-2.0
/*
 * The recording path: what kernel/trace/trace.c does with a stack it has
 * unwound, with the stack map (stackmap_record()) and without it
 * (__ftrace_trace_stack()), less the ring buffer's reservation and commit.
 * Built with kbuild's code generation flags, as trace.c is, since it
 * inlines the map's hot path from trace_stackmap.h.
 *
 * rcu_read_lock() stands for the preemption-disabled section the kernel
 * records in: to trace_stackmap_reset(), that section is an RCU reader.
 */
#include <linux/limits.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/string.h>
#include <asm/local.h>

#include "trace_stackmap.h"
#include "record.h"

/* The CPU's buffer the unwinder writes to, as ftrace_stacks is. */
static __thread unsigned long ustack_calls[TRACE_STACKMAP_MAX_DEPTH];

/*
 * Stack @id: kernel text addresses, 0xffffffff81xxxxxx, whose low 24 bits
 * mix the frame's position with @id * ID_MUL. Every frame differs between
 * two stacks, and @id comes back from frame 0 (ustack_stack_id()).
 */
#define KTEXT		0xffffffff81000000UL
#define ID_MUL		0x9e3779b1U
#define ID_MUL_INV	0x0e8b2f51U	/* ID_MUL * ID_MUL_INV == 1 mod 2^32 */
#define POS_MUL		0x2545f491U

/*
 * Out of line, as the unwinder is, and the same code for every path: the
 * floor it sets is the same in every figure.
 */
noinline void ustack_make(unsigned long *calls, u32 id, unsigned int nr)
{
	u32 mix = id * ID_MUL;
	unsigned int i;

	for (i = 0; i < nr; i++)
		calls[i] = KTEXT | ((mix ^ (i + 1) * POS_MUL) & 0xffffff);
}

/* The id of a stack made by ustack_make(), if below 1 << 24. */
int ustack_stack_id(const unsigned long *calls)
{
	u32 mix = (calls[0] ^ POS_MUL) & 0xffffff;

	return (mix * ID_MUL_INV) & 0xffffff;
}

static __always_inline u8 *page_reserve(struct ustack_page *page, unsigned int len)
{
	u8 *p;

	/* The next page, which is this one again. */
	if (page->pos + len > USTACK_PAGE_SIZE)
		page->pos = 0;
	p = page->data + page->pos;
	page->pos += len;
	return p;
}

/*
 * 12 bytes: the ring buffer's event header (length and time delta) and the
 * event's struct trace_entry (type, flags, preempt count, pid).
 */
static __always_inline void page_header(u8 *p, unsigned int len, u32 pid)
{
	u32 *h = (u32 *)p;

	h[0] = len;
	h[1] = 0x0c;
	h[2] = pid;
}

/* The floor of every figure: making the stack and the RCU section. */
noinline void ustack_record_none(u32 id, unsigned int nr)
{
	rcu_read_lock();
	ustack_make(ustack_calls, id, nr);
	rcu_read_unlock();
}

/* The stack written in full, as without the map. */
noinline void ustack_record_full(struct ustack_page *page, u32 id, unsigned int nr)
{
	unsigned int len = 12 + nr * sizeof(unsigned long);
	u8 *p;

	rcu_read_lock();
	ustack_make(ustack_calls, id, nr);
	p = page_reserve(page, len);
	page_header(p, len, id);
	memcpy(p + 12, ustack_calls, nr * sizeof(unsigned long));
	rcu_read_unlock();
}

/* The lookup of stackmap_record(): the CPU's recent stacks, then the map. */
static __always_inline int map_lookup(struct trace_stackmap *map, const unsigned long *calls,
				      unsigned int nr, u64 *cookie)
{
	int ret;

	if (trace_stackmap_find_recent(map, calls, nr, cookie))
		return USTACK_RECENT;
	ret = trace_stackmap_find(map, calls, nr, cookie);
	return ret ?: USTACK_FIND;
}

/*
 * trace_stackmap_count() as the v2 series plans it: each CPU counts the
 * uses of a stack in an array of its own, saturating u32s indexed by slot
 * and summed when the map is read, instead of the stack's shared ref.
 */
static __always_inline void count_percpu(struct trace_stackmap *map, u32 *counts, u64 cookie)
{
	u32 *count = &counts[trace_stackmap_cookie_slot(cookie)];
	u32 n = READ_ONCE(*count);

	if (n != U32_MAX)
		WRITE_ONCE(*count, n + 1);
	local_inc(&this_cpu_ptr(map->stats)->successes);
}

/*
 * A stack looked up and counted: with trace_stackmap_count() as the
 * recording path counts a cookie, or in @counts, this CPU's per-slot
 * counts, if not NULL. One function for both, so that the two differ in
 * the count alone and not in where the compiler put their loops.
 */
noinline int ustack_record_map(struct trace_stackmap *map, u32 *counts, u32 id,
			       unsigned int nr)
{
	u64 cookie;
	int ret;

	rcu_read_lock();
	ustack_make(ustack_calls, id, nr);
	ret = map_lookup(map, ustack_calls, nr, &cookie);
	if (ret >= 0) {
		if (counts)
			count_percpu(map, counts, cookie);
		else
			trace_stackmap_count(map, cookie);
	}
	rcu_read_unlock();
	return ret;
}

/*
 * stackmap_record() whole: the lookup, the 20-byte cookie record in the
 * page (its 12-byte header and the cookie), the count; the stack in full
 * if the map did not take it.
 */
noinline int ustack_record_cookie(struct trace_stackmap *map, struct ustack_page *page,
				  u32 id, unsigned int nr)
{
	unsigned int len = 12 + sizeof(u64);
	u64 cookie;
	u8 *p;
	int ret;

	rcu_read_lock();
	ustack_make(ustack_calls, id, nr);
	ret = map_lookup(map, ustack_calls, nr, &cookie);
	if (ret >= 0) {
		p = page_reserve(page, len);
		page_header(p, len, id);
		trace_stackmap_count(map, cookie);
		__builtin_memcpy(p + 12, &cookie, sizeof(cookie));
	}
	rcu_read_unlock();
	if (ret < 0)
		ustack_record_full(page, id, nr);
	return ret;
}
