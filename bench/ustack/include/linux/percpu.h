/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _USTACK_LINUX_PERCPU_H
#define _USTACK_LINUX_PERCPU_H

/*
 * Each thread of the benchmark is a CPU: it sets ustack_cpu, below
 * nr_cpu_ids, before it calls into the map, and this_cpu_ptr() is its
 * copy. The copies are laid out as the kernel's per-CPU units are, each
 * on cache lines of its own (128 bytes: the adjacent-line prefetcher
 * pairs them), so that two CPUs share no line through them.
 */
#include <linux/compiler.h>
#include <stdlib.h>

extern unsigned int nr_cpu_ids;
extern __thread int ustack_cpu;

#define smp_processor_id()		ustack_cpu
#define num_possible_cpus()		nr_cpu_ids
#define for_each_possible_cpu(cpu)	for ((cpu) = 0; (cpu) < nr_cpu_ids; (cpu)++)

#define PCPU_UNIT(size)			(((size) + 127) & ~(size_t)127)

void *__alloc_percpu(size_t size);

#define alloc_percpu(type)		((type __percpu *)__alloc_percpu(sizeof(type)))
#define free_percpu(ptr)		free(ptr)
#define per_cpu_ptr(ptr, cpu)						\
	((__typeof__(ptr))((char *)(ptr) + (size_t)(cpu) * PCPU_UNIT(sizeof(*(ptr)))))
#define this_cpu_ptr(ptr)		per_cpu_ptr(ptr, smp_processor_id())

#endif
