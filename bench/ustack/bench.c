// SPDX-License-Identifier: GPL-2.0
/*
 * stackmap-bench: kernel/trace/trace_stackmap.c, built in user space with
 * the shims of include/, timed on this machine in ns and TSC cycles.
 *
 *   stackmap-bench [-s SCALE]   the benchmark: a line per figure, then tables
 *   stackmap-bench stress [-n OPS]
 *                               the concurrent workload the TSan build runs
 *
 * Each thread is a CPU (include/linux/percpu.h): the benchmark runs one
 * thread pinned to CPU 0, or two pinned to CPUs 0 and 1. An operation is
 * what the recording path does for one stack (record.c): make the stack,
 * look it up or store it, count it, in an RCU read-side section.
 */
#define _GNU_SOURCE
#include <linux/limits.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include <x86intrin.h>

#include "trace_stackmap.h"
#include "record.h"

/* Declared by liburcu's inline read side only. */
#ifndef _LGPL_SOURCE
extern int urcu_memb_has_sys_membarrier;
#endif

#define REPS		5	/* timed runs per figure, after a warm-up run */
#define MAX_THREADS	2
#define RECENT_SET	16	/* stacks that stay in the CPU's recent table */
#define MAX_RETRIES	100	/* runs done again per figure, at most */
/*
 * Operations per run, over the depth: a run takes about a millisecond, less
 * than the scheduler gives a thread when other work shares the machine.
 */
#define FAST_OPS	400000	/* lookups in the recent table, the floor */
#define SLOW_OPS	160000	/* lookups in the map */
#define HOT_OPS		80000	/* one stack from both CPUs: 150 ns an operation */

static const unsigned int depths[] = { 8, 16, 32, 64 };
static const unsigned int fills[] = { 25, 90 };
#define NR_DEPTHS	4
#define NR_FILLS	2

static double scale = 1.0;
static double tsc_ghz;

static void __attribute__((__noreturn__, __format__(printf, 1, 2))) die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("stackmap-bench: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(2);
}

static u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* lfence keeps the loads of the timed loop from starting before it. */
static u64 tsc(void)
{
	_mm_lfence();
	return __rdtsc();
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set))
		die("cannot pin a thread to CPU %d", cpu);
}

/* xorshift64*, one per thread, for the orders of the stacks. */
static u64 rnd(u64 *state)
{
	*state ^= *state >> 12;
	*state ^= *state << 25;
	*state ^= *state >> 27;
	return *state * 0x2545f4914f6cdd1dULL;
}

/* ---------------------------------------------------------------------- */
/* The benchmark */

enum op {
	OP_NONE,	/* ustack_record_none(): the floor */
	OP_FULL,	/* ustack_record_full() */
	OP_MAP,		/* ustack_record_map(), trace_stackmap_count() */
	OP_PERCPU,	/* ustack_record_map(), per-CPU counts */
	OP_COOKIE,	/* ustack_record_cookie() */
};

/* A spinning barrier: the threads of a figure start their runs together. */
struct barrier {
	unsigned int	count;
	unsigned int	gen;
};

static void barrier_wait(struct barrier *b, unsigned int threads)
{
	unsigned int gen = __atomic_load_n(&b->gen, __ATOMIC_ACQUIRE);
	unsigned long spins = 0;

	if (__atomic_add_fetch(&b->count, 1, __ATOMIC_ACQ_REL) == threads) {
		__atomic_store_n(&b->count, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&b->gen, gen + 1, __ATOMIC_RELEASE);
		return;
	}
	/* Spin, as the start must be tight; yield in a long wait (a prefill). */
	while (__atomic_load_n(&b->gen, __ATOMIC_ACQUIRE) == gen) {
		if (++spins > 100000)
			sched_yield();
		else
			_mm_pause();
	}
}

/* One figure: what each thread runs, and what it measured. */
struct job {
	enum op			op;
	struct trace_stackmap	*map;
	unsigned int		nr;		/* frames per stack */
	unsigned int		threads;
	unsigned long		iters;		/* operations per batch */
	unsigned int		batches;	/* per run */
	/* Run by thread 0 before each batch, untimed: reset and prefill. */
	void			(*prepare)(struct job *job);
	unsigned int		prefill;	/* stacks 0 .. prefill - 1 */
	const u32		*ids[MAX_THREADS];
	unsigned int		nr_ids[MAX_THREADS];
	unsigned int		cursor[MAX_THREADS];
	u32			*counts[MAX_THREADS];
	struct ustack_page	*page[MAX_THREADS];
	struct barrier		barrier;
	/* Per thread and run (run 0 is the warm-up): ns and TSC cycles. */
	u64			ns[MAX_THREADS][REPS + 1];
	u64			cycles[MAX_THREADS][REPS + 1];
	/* Timed operations by how the map took them: recent, find, failed. */
	unsigned long		paths[3];
	/* A thread was switched out during this run; runs done again. */
	bool			disturbed;
	unsigned int		retries;
};

struct figure {
	double	ns, ns_min, ns_max, cycles;
};

static void count_path(unsigned long *paths, int ret)
{
	paths[ret < 0 ? 2 : ret]++;
}

/* One batch of thread @t: job->iters operations from its cursor on. */
static void run_batch(struct job *job, int t, unsigned long *paths)
{
	unsigned int pos = job->prepare ? 0 : job->cursor[t];
	const u32 *ids = job->ids[t];
	unsigned long i;

	for (i = 0; i < job->iters; i++) {
		u32 id = ids[pos];

		if (++pos == job->nr_ids[t])
			pos = 0;
		switch (job->op) {
		case OP_NONE:
			ustack_record_none(id, job->nr);
			break;
		case OP_FULL:
			ustack_record_full(job->page[t], id, job->nr);
			break;
		case OP_MAP:
			count_path(paths, ustack_record_map(job->map, NULL, id, job->nr));
			break;
		case OP_PERCPU:
			count_path(paths, ustack_record_map(job->map, job->counts[t], id,
							    job->nr));
			break;
		case OP_COOKIE:
			count_path(paths, ustack_record_cookie(job->map, job->page[t], id,
							       job->nr));
			break;
		}
	}
	job->cursor[t] = pos;
}

/* Context switches of the calling thread so far. */
static long switches(void)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	return ru.ru_nvcsw + ru.ru_nivcsw;
}

/*
 * One run of thread @t: job->batches batches, each after the untimed
 * prepare. Returns true if the thread was switched out while timed.
 */
static bool run_once(struct job *job, int t, int rep, unsigned long *paths)
{
	u64 ns = 0, cycles = 0;
	long sw = 0;
	unsigned int b;

	for (b = 0; b < job->batches; b++) {
		u64 ns0, c0;
		long sw0;

		barrier_wait(&job->barrier, job->threads);
		if (t == 0 && job->prepare)
			job->prepare(job);
		barrier_wait(&job->barrier, job->threads);
		sw0 = switches();
		ns0 = now_ns();
		c0 = tsc();
		run_batch(job, t, paths);
		cycles += tsc() - c0;
		ns += now_ns() - ns0;
		sw += switches() - sw0;
	}
	job->ns[t][rep] = ns;
	job->cycles[t][rep] = cycles;
	return sw != 0;
}

/*
 * Thread @t's part of a figure: a warm-up run, then REPS timed runs. A run
 * in which a thread was switched out measured the scheduler, not the map:
 * it is run again, up to MAX_RETRIES times in all, as other work shares
 * the machine.
 */
static void run_thread(struct job *job, int t)
{
	unsigned long paths[3];
	unsigned int rep = 0, i;

	while (rep <= REPS) {
		bool again;

		memset(paths, 0, sizeof(paths));
		if (run_once(job, t, rep, paths))
			__atomic_store_n(&job->disturbed, true, __ATOMIC_RELAXED);
		barrier_wait(&job->barrier, job->threads);
		again = __atomic_load_n(&job->disturbed, __ATOMIC_RELAXED) &&
			job->retries < MAX_RETRIES;
		barrier_wait(&job->barrier, job->threads);
		if (t == 0) {
			__atomic_store_n(&job->disturbed, false, __ATOMIC_RELAXED);
			job->retries += again;
		}
		if (again)
			continue;
		if (rep) {
			for (i = 0; i < 3; i++)
				__atomic_add_fetch(&job->paths[i], paths[i], __ATOMIC_RELAXED);
		}
		rep++;
	}
}

static void *helper_main(void *arg)
{
	ustack_cpu = 1;
	pin(1);
	rcu_register_thread();
	run_thread(arg, 1);
	rcu_unregister_thread();
	return NULL;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Runs a figure; its ns and cycles per operation, as one thread sees them. */
static struct figure run_job(struct job *job)
{
	double ns[REPS], cycles[REPS];
	unsigned long ops = job->iters * job->batches;
	struct figure f;
	pthread_t helper;
	unsigned int rep, t;

	memset(job->paths, 0, sizeof(job->paths));
	if (job->threads > 1 && pthread_create(&helper, NULL, helper_main, job))
		die("pthread_create failed");
	run_thread(job, 0);
	if (job->threads > 1)
		pthread_join(helper, NULL);

	for (rep = 0; rep < REPS; rep++) {
		ns[rep] = 0;
		cycles[rep] = 0;
		for (t = 0; t < job->threads; t++) {
			ns[rep] += (double)job->ns[t][rep + 1] / ops / job->threads;
			cycles[rep] += (double)job->cycles[t][rep + 1] / ops / job->threads;
		}
	}
	qsort(ns, REPS, sizeof(double), cmp_double);
	qsort(cycles, REPS, sizeof(double), cmp_double);
	f.ns = ns[REPS / 2];
	f.ns_min = ns[0];
	f.ns_max = ns[REPS - 1];
	f.cycles = cycles[REPS / 2];
	return f;
}

/* The stacks of each depth that a map of TRACE_STACKMAP_BITS holds. */
static unsigned int holds(struct trace_stackmap_stats *st, unsigned int nr)
{
	unsigned int by_frames = st->frame_capacity / nr;

	return by_frames < st->capacity ? by_frames : st->capacity;
}

/* Empties the map and stores stacks 0 .. n - 1 in it, from this thread. */
static void prefill(struct trace_stackmap *map, unsigned int n, unsigned int nr)
{
	unsigned int id;

	trace_stackmap_reset(map);
	for (id = 0; id < n; id++) {
		if (ustack_record_map(map, NULL, id, nr) < 0)
			die("prefill: stack %u of %u frames not stored", id, nr);
	}
}

static void prepare_insert(struct job *job)
{
	prefill(job->map, job->prefill, job->nr);
}

/* RECENT_SET stored stacks from @first on that have recent slots of their own. */
static void pick_recent(u32 *ids, u32 first, unsigned int nr)
{
	bool used[1 << TRACE_STACKMAP_RECENT_BITS] = { 0 };
	unsigned long calls[TRACE_STACKMAP_MAX_DEPTH];
	unsigned int n = 0;
	u32 id;

	for (id = first; n < RECENT_SET; id++) {
		unsigned int slot;

		ustack_make(calls, id, nr);
		slot = trace_stackmap_recent_slot(calls, nr);
		if (!used[slot]) {
			used[slot] = true;
			ids[n++] = id;
		}
	}
}

/* Stacks 0 .. n - 1 in an order of their own, per thread. */
static u32 *shuffled(unsigned int n, u64 seed)
{
	u32 *ids = malloc(n * sizeof(*ids));
	unsigned int i;

	if (!ids)
		die("out of memory");
	for (i = 0; i < n; i++)
		ids[i] = i;
	for (i = n - 1; i > 0; i--) {
		unsigned int j = rnd(&seed) % (i + 1);
		u32 tmp = ids[i];

		ids[i] = ids[j];
		ids[j] = tmp;
	}
	return ids;
}

static unsigned long iters(unsigned long n)
{
	unsigned long v = n * scale;

	return v ? v : 1;
}

/* The figures of the benchmark, in the order they are printed. */
enum fig {
	F_NONE, F_FULL, F_COOKIE_RECENT, F_COOKIE_FIND,
	F_HIT_RECENT, F_HIT_FIND, F_INSERT, F_HOT_SHARED, F_HOT_PERCPU, F_FIND_PERCPU,
	NR_FIGS
};

static const char *const fig_name[NR_FIGS] = {
	"none", "full", "cookie_recent", "cookie_find",
	"hit_recent", "hit_find", "insert", "hot_shared", "hot_percpu", "find_percpu",
};

/* [figure][depth][fill][threads - 1] */
static struct figure figs[NR_FIGS][NR_DEPTHS][NR_FILLS][MAX_THREADS];
/* Share of the timed lookups found in the recent table, for hit_find. */
static double recent_share[NR_DEPTHS][NR_FILLS][MAX_THREADS];
static unsigned int held[NR_DEPTHS];
static unsigned long retried, gave_up;

static void print_fig(enum fig fg, int d, int f, int t, struct job *job)
{
	struct figure *x = &figs[fg][d][f][t];
	unsigned long ops = job->paths[0] + job->paths[1] + job->paths[2];

	printf("ustack %s depth=%u", fig_name[fg], depths[d]);
	if (fg != F_NONE && fg != F_FULL)
		printf(" fill=%u", fills[f]);
	printf(" threads=%d ns=%.1f cycles=%.1f ns_min=%.1f ns_max=%.1f retries=%u",
	       t + 1, x->ns, x->cycles, x->ns_min, x->ns_max, job->retries);
	if (ops)
		printf(" recent=%.3f failed=%lu", (double)job->paths[0] / ops, job->paths[2]);
	putchar('\n');
	fflush(stdout);
}

/* Runs @job as figure @fg and prints it; fails a figure whose map failed. */
static void figure(struct job *job, enum fig fg, int d, int f, unsigned int threads)
{
	int t = threads - 1;

	job->threads = threads;
	job->retries = 0;
	memset(job->cursor, 0, sizeof(job->cursor));
	figs[fg][d][f][t] = run_job(job);
	if (job->paths[2])
		die("%s: %lu operations not taken by the map", fig_name[fg], job->paths[2]);
	retried += job->retries;
	gave_up += job->retries == MAX_RETRIES;
	if (fg == F_HIT_FIND) {
		unsigned long ops = job->paths[0] + job->paths[1];

		recent_share[d][f][t] = (double)job->paths[0] / ops;
	}
	print_fig(fg, d, f, t, job);
}

struct bench {
	struct trace_stackmap	*map;
	struct ustack_page	*page[MAX_THREADS];
	u32			*counts[MAX_THREADS];
};

static struct job *new_job(struct bench *b, enum op op, unsigned int nr)
{
	struct job *job = calloc(1, sizeof(*job));
	int t;

	if (!job)
		die("out of memory");
	job->op = op;
	job->map = b->map;
	job->nr = nr;
	job->batches = 1;
	for (t = 0; t < MAX_THREADS; t++) {
		job->page[t] = b->page[t];
		job->counts[t] = b->counts[t];
	}
	return job;
}

/* 1. Hits and inserts at one depth and fill, on 1 and 2 threads. */
static void bench_lookups(struct bench *b, int d, int f)
{
	unsigned int nr = depths[d], n = held[d] * fills[f] / 100;
	u32 recent[MAX_THREADS][RECENT_SET], *order[MAX_THREADS], *fresh[MAX_THREADS];
	unsigned int m = held[d] / 100, threads, t, i;
	struct job *job;

	prefill(b->map, n, nr);
	for (t = 0; t < MAX_THREADS; t++) {
		pick_recent(recent[t], t * n / 2, nr);
		order[t] = shuffled(n, 0x1234 + t);
		fresh[t] = malloc(m * sizeof(u32));
		if (!fresh[t])
			die("out of memory");
		for (i = 0; i < m; i++)
			fresh[t][i] = n + t * m + i;
	}

	for (threads = 1; threads <= MAX_THREADS; threads++) {
		job = new_job(b, OP_MAP, nr);
		job->iters = iters(FAST_OPS / nr);
		for (t = 0; t < MAX_THREADS; t++) {
			job->ids[t] = recent[t];
			job->nr_ids[t] = RECENT_SET;
		}
		figure(job, F_HIT_RECENT, d, f, threads);
		for (t = 0; t < MAX_THREADS; t++) {
			job->ids[t] = order[t];
			job->nr_ids[t] = n;
		}
		job->iters = iters(SLOW_OPS / nr);
		figure(job, F_HIT_FIND, d, f, threads);
		job->op = OP_PERCPU;
		figure(job, F_FIND_PERCPU, d, f, threads);
		free(job);
	}

	/* Inserts: m new stacks per thread into a map refilled to n each batch. */
	for (threads = 1; threads <= MAX_THREADS; threads++) {
		job = new_job(b, OP_MAP, nr);
		job->prepare = prepare_insert;
		job->prefill = n;
		job->iters = m;
		job->batches = (iters(2000) + m - 1) / m;
		for (t = 0; t < MAX_THREADS; t++) {
			job->ids[t] = fresh[t];
			job->nr_ids[t] = m;
		}
		figure(job, F_INSERT, d, f, threads);
		free(job);
	}
	for (t = 0; t < MAX_THREADS; t++) {
		free(order[t]);
		free(fresh[t]);
	}
}

/*
 * 2. One stack, found in the recent table from both CPUs at once, counted
 * in its shared ref or per CPU. 3. The stack written in full against the
 * map's whole path with its cookie record. Both on a map filled to 25%.
 */
static void bench_hot_and_full(struct bench *b, int d)
{
	unsigned int nr = depths[d], n = held[d] / 4;
	u32 recent[RECENT_SET], *order, hot = 0;
	unsigned int threads, t;
	struct job *job;

	prefill(b->map, n, nr);
	pick_recent(recent, 0, nr);
	order = shuffled(n, 0x5678);

	for (threads = 1; threads <= MAX_THREADS; threads++) {
		job = new_job(b, OP_MAP, nr);
		job->iters = iters(HOT_OPS / nr);
		for (t = 0; t < MAX_THREADS; t++) {
			job->ids[t] = &hot;
			job->nr_ids[t] = 1;
		}
		figure(job, F_HOT_SHARED, d, 0, threads);
		job->op = OP_PERCPU;
		figure(job, F_HOT_PERCPU, d, 0, threads);
		free(job);
	}

	job = new_job(b, OP_NONE, nr);
	job->iters = iters(FAST_OPS / nr);
	job->ids[0] = recent;
	job->nr_ids[0] = RECENT_SET;
	figure(job, F_NONE, d, 0, 1);
	job->op = OP_FULL;
	figure(job, F_FULL, d, 0, 1);
	job->op = OP_COOKIE;
	figure(job, F_COOKIE_RECENT, d, 0, 1);
	job->ids[0] = order;
	job->nr_ids[0] = n;
	job->iters = iters(SLOW_OPS / nr);
	figure(job, F_COOKIE_FIND, d, 0, 1);
	free(job);
	free(order);
}

/* ---------------------------------------------------------------------- */
/* The report */

static void cpuinfo(const char *key, char *buf, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[4096];

	snprintf(buf, len, "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (!colon || strncmp(line, key, strlen(key)))
			continue;
		colon += 1 + (colon[1] == ' ');
		colon[strcspn(colon, "\n")] = 0;
		snprintf(buf, len, "%s", colon);
		break;
	}
	fclose(f);
}

static bool has_flag(const char *flags, const char *flag)
{
	size_t n = strlen(flag);
	const char *p;

	for (p = strstr(flags, flag); p; p = strstr(p + 1, flag)) {
		if ((p == flags || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return true;
	}
	return false;
}

/* The TSC's rate against CLOCK_MONOTONIC, over 200 ms. */
static double measure_tsc_ghz(void)
{
	struct timespec d = { 0, 200000000 };
	u64 ns0 = now_ns(), c0 = tsc();

	nanosleep(&d, NULL);
	return (double)(tsc() - c0) / (now_ns() - ns0);
}

static void print_machine(void)
{
	char model[256], mhz[64], flags[4096];
	double load[3] = { 0 };

	cpuinfo("model name", model, sizeof(model));
	cpuinfo("cpu MHz", mhz, sizeof(mhz));
	cpuinfo("flags", flags, sizeof(flags));
	getloadavg(load, 3);
	printf("ustack machine model=\"%s\" cpus=%ld tsc_mhz=%.1f cpuinfo_mhz=%s hypervisor=%d constant_tsc=%d fsrm=%d membarrier=%d load=%.2f\n",
	       model, sysconf(_SC_NPROCESSORS_ONLN), tsc_ghz * 1000, mhz,
	       has_flag(flags, "hypervisor"), has_flag(flags, "constant_tsc"),
	       has_flag(flags, "fsrm"), urcu_memb_has_sys_membarrier, load[0]);
	printf("\n## The stack map in user space, on %s\n\n", model);
	printf("%ld CPUs online%s; TSC %.1f MHz measured against CLOCK_MONOTONIC (cpuinfo: %s MHz%s); "
	       "load average %.2f %.2f %.2f at the start; RCU readers %s.\n\n",
	       sysconf(_SC_NPROCESSORS_ONLN),
	       has_flag(flags, "hypervisor") ? ", under a hypervisor" : "", tsc_ghz * 1000, mhz,
	       has_flag(flags, "constant_tsc") ? ", constant_tsc" : "", load[0], load[1], load[2],
	       urcu_memb_has_sys_membarrier ? "without barriers (membarrier)" :
	       "with full barriers (no membarrier)");
}

static void cell(enum fig fg, int d, int f, int t)
{
	struct figure *x = &figs[fg][d][f][t];

	printf(" %.1f (%.1f-%.1f) ns, %.0f cyc |", x->ns, x->ns_min, x->ns_max, x->cycles);
}

static void row(const char *what, enum fig fg, int f, int t)
{
	int d;

	printf("| %s |", what);
	for (d = 0; d < NR_DEPTHS; d++)
		cell(fg, d, f, t);
	putchar('\n');
}

/* How many times figure @a's time is @b's. */
static double ratio(enum fig a, enum fig b, int d, int f, int t)
{
	return figs[a][d][f][t].ns / figs[b][d][f][t].ns;
}

/* How many ns more figure @a takes than @b. */
static double diff(enum fig a, enum fig b, int d, int f, int t)
{
	return figs[a][d][f][t].ns - figs[b][d][f][t].ns;
}

/* A table row of a against b at every depth: their ratio, or their difference in ns. */
static void compare_row(const char *what, bool as_diff, enum fig a, enum fig b, int f, int t)
{
	int d;

	printf("| %s |", what);
	for (d = 0; d < NR_DEPTHS; d++) {
		if (as_diff)
			printf(" %+.1f ns |", diff(a, b, d, f, t));
		else
			printf(" %.2fx |", ratio(a, b, d, f, t));
	}
	putchar('\n');
}

#define ratio_row(what, a, b, f, t)	compare_row(what, false, a, b, f, t)
#define diff_row(what, a, b, f, t)	compare_row(what, true, a, b, f, t)

static void print_ratio(const char *name, enum fig a, enum fig b, int f, int t)
{
	int d;

	for (d = 0; d < NR_DEPTHS; d++)
		printf("ustack ratio name=%s depth=%u fill=%u threads=%d value=%.3f\n",
		       name, depths[d], fills[f], t + 1, ratio(a, b, d, f, t));
}

static void print_diff(const char *name, enum fig a, enum fig b, int f, int t)
{
	int d;

	for (d = 0; d < NR_DEPTHS; d++)
		printf("ustack diff name=%s depth=%u fill=%u threads=%d ns=%.1f\n",
		       name, depths[d], fills[f], t + 1, diff(a, b, d, f, t));
}

/* The ratios of the tables, as lines of their own. */
static void print_ratios(void)
{
	int f, t;

	for (t = 0; t < MAX_THREADS; t++) {
		print_ratio("hot_shared/hot_percpu", F_HOT_SHARED, F_HOT_PERCPU, 0, t);
		for (f = 0; f < NR_FILLS; f++)
			print_ratio("hit_find/find_percpu", F_HIT_FIND, F_FIND_PERCPU, f, t);
	}
	print_ratio("cookie_recent/full", F_COOKIE_RECENT, F_FULL, 0, 0);
	print_ratio("cookie_find/full", F_COOKIE_FIND, F_FULL, 0, 0);
	print_diff("cookie_recent-full", F_COOKIE_RECENT, F_FULL, 0, 0);
	print_diff("cookie_find-full", F_COOKIE_FIND, F_FULL, 0, 0);
}

static void table_head(const char *first)
{
	int d;

	printf("| %s |", first);
	for (d = 0; d < NR_DEPTHS; d++)
		printf(" %u frames |", depths[d]);
	printf("\n|---|");
	for (d = 0; d < NR_DEPTHS; d++)
		printf("---|");
	putchar('\n');
}

static void table_lookups(void)
{
	char what[128];
	int d, f, t;

	printf("### 1. Lookups and inserts, each followed by trace_stackmap_count()\n\n");
	table_head("operation, map fill, threads");
	row("floor: make the stack, RCU section", F_NONE, 0, 0);
	for (f = 0; f < NR_FILLS; f++) {
		for (t = 0; t < MAX_THREADS; t++) {
			snprintf(what, sizeof(what), "hit, recent table, %u%%, %d",
				 fills[f], t + 1);
			row(what, F_HIT_RECENT, f, t);
			snprintf(what, sizeof(what), "hit, trace_stackmap_find(), %u%%, %d",
				 fills[f], t + 1);
			row(what, F_HIT_FIND, f, t);
			snprintf(what, sizeof(what), "miss that stores the stack, %u%%, %d",
				 fills[f], t + 1);
			row(what, F_INSERT, f, t);
		}
	}
	printf("\nThe map: %u stacks (TRACE_STACKMAP_BITS), a table of twice as many "
	       "entries, a pool of %u frames. Fill: the share of the stacks of that depth it "
	       "can hold (", 1U << TRACE_STACKMAP_BITS,
	       (1U << TRACE_STACKMAP_BITS) * TRACE_STACKMAP_POOL_FRAMES);
	for (d = 0; d < NR_DEPTHS; d++)
		printf("%s%u at %u frames", d ? ", " : "", held[d], depths[d]);
	printf("; deeper stacks run out of frames first). Recent table: %d of the stored "
	       "stacks over and over, each in a slot of its own (per thread, disjoint). "
	       "trace_stackmap_find(): every stored stack, in an order of the thread's own; "
	       "the recent table found ", RECENT_SET);
	for (d = 0; d < NR_DEPTHS; d++)
		printf("%s%.1f%%", d ? ", " : "", 100 * recent_share[d][NR_FILLS - 1][0]);
	printf(" of them at %u%% fill. A miss: new stacks, 1%% of what the map holds per "
	       "thread and batch, into a map reset and refilled (untimed) before each batch; "
	       "with 2 threads both insert at once.\n\n", fills[NR_FILLS - 1]);
}

static void table_count(void)
{
	char what[128];
	int f, t;

	printf("### 2. The shared count against per-CPU counts\n\n");
	table_head("stacks, count, threads");
	for (t = 0; t < MAX_THREADS; t++) {
		snprintf(what, sizeof(what), "one hot stack, shared ref, %d", t + 1);
		row(what, F_HOT_SHARED, 0, t);
		snprintf(what, sizeof(what), "one hot stack, per-CPU counts, %d", t + 1);
		row(what, F_HOT_PERCPU, 0, t);
		snprintf(what, sizeof(what), "one hot stack, shared / per-CPU, %d", t + 1);
		ratio_row(what, F_HOT_SHARED, F_HOT_PERCPU, 0, t);
	}
	for (f = 0; f < NR_FILLS; f++) {
		for (t = 0; t < MAX_THREADS; t++) {
			snprintf(what, sizeof(what), "all stored, %u%%, per-CPU counts, %d",
				 fills[f], t + 1);
			row(what, F_FIND_PERCPU, f, t);
			snprintf(what, sizeof(what),
				 "all stored, %u%%, shared (table 1) / per-CPU, %d",
				 fills[f], t + 1);
			ratio_row(what, F_HIT_FIND, F_FIND_PERCPU, f, t);
		}
	}
	printf("\nOne hot stack: the same stack from every thread, found in the recent "
	       "table each time. Shared ref: trace_stackmap_count() as it is, "
	       "atomic_add_unless() on the element's ref, whose cache line also holds the "
	       "depth and frame index that the lookup reads. Per-CPU counts: a saturating u32 "
	       "per slot in an array of the thread's own, summed when read (the v2 plan). "
	       "All stored: the stacks of the trace_stackmap_find() rows of table 1, which "
	       "both threads look up at once in orders of their own.\n\n");
}

static void table_full(void)
{
	printf("### 3. The cost the map replaces: the stack in full\n\n");
	table_head("record, 1 thread, 25% fill");
	row("stack in full: 12-byte header and 8 bytes a frame", F_FULL, 0, 0);
	row("cookie, recent table: lookup, count, 20-byte record", F_COOKIE_RECENT, 0, 0);
	row("cookie, trace_stackmap_find()", F_COOKIE_FIND, 0, 0);
	ratio_row("map / full, recent table", F_COOKIE_RECENT, F_FULL, 0, 0);
	ratio_row("map / full, trace_stackmap_find()", F_COOKIE_FIND, F_FULL, 0, 0);
	diff_row("map - full, recent table", F_COOKIE_RECENT, F_FULL, 0, 0);
	diff_row("map - full, trace_stackmap_find()", F_COOKIE_FIND, F_FULL, 0, 0);
	printf("\nRecords go to a 4096-byte page, wrapping; memcpy() is rep movsb, as the "
	       "kernel's on a CPU with FSRM. Neither path includes the ring buffer's "
	       "reservation and commit, the same for both, nor a real unwinder: the floor "
	       "(table 1) makes the stack from a formula, where the kernel walks the stack "
	       "at a far higher cost per frame, which both paths pay, and which would bring "
	       "the ratios closer to 1. The difference in ns does not depend on it.\n");
}

static void print_tables(void)
{
	printf("Medians of %d runs of a fixed number of operations after a warm-up run, "
	       "(min-max) of the %d; ns from CLOCK_MONOTONIC, cycles from the TSC (at the "
	       "TSC's rate: core cycles cannot be read here). An operation makes the stack "
	       "(the unwinder's work) and runs in an RCU read-side section (the kernel's "
	       "preemption-disabled section): the floor row is that alone. With 2 threads, "
	       "each pinned to a CPU of its own, both run at once; the figure is the time "
	       "an operation takes on one of them. A run in which a thread was switched out "
	       "was done again: %lu runs (%lu figures still had one after %d).\n\n",
	       REPS, REPS, retried, gave_up, MAX_RETRIES);
	table_lookups();
	table_count();
	table_full();
}

static int bench_main(void)
{
	struct trace_stackmap_stats st;
	struct bench b = { 0 };
	int d, f, t;

	nr_cpu_ids = MAX_THREADS;
	ustack_cpu = 0;
	pin(0);
	rcu_register_thread();
	tsc_ghz = measure_tsc_ghz();
	print_machine();

	b.map = trace_stackmap_create(TRACE_STACKMAP_BITS);
	if (!b.map)
		die("trace_stackmap_create failed");
	trace_stackmap_get_stats(b.map, &st);
	for (t = 0; t < MAX_THREADS; t++) {
		b.page[t] = aligned_alloc(64, sizeof(struct ustack_page));
		b.counts[t] = aligned_alloc(128, st.capacity * sizeof(u32));
		if (!b.page[t] || !b.counts[t])
			die("out of memory");
		memset(b.page[t], 0, sizeof(struct ustack_page));
		memset(b.counts[t], 0, st.capacity * sizeof(u32));
	}
	for (d = 0; d < NR_DEPTHS; d++)
		held[d] = holds(&st, depths[d]);

	for (d = 0; d < NR_DEPTHS; d++) {
		bench_hot_and_full(&b, d);
		for (f = 0; f < NR_FILLS; f++)
			bench_lookups(&b, d, f);
	}
	print_ratios();
	print_tables();

	trace_stackmap_destroy(b.map, 0);
	rcu_unregister_thread();
	return 0;
}

/* ---------------------------------------------------------------------- */
/* The concurrent workload, for the TSan build */

#define STRESS_BITS	11		/* 2048 stacks: the pools run out often */
#define STRESS_SPAN	1536		/* stacks per worker; they overlap by half */
#define RING		256		/* cookies published for the reader */

struct stress {
	struct trace_stackmap	*map;
	unsigned long		ops;		/* per worker */
	unsigned int		running;	/* workers not finished */
	/* Published cookies: generation << 32 | stack id << 10 | slot. */
	u64			ring[RING];
	unsigned long		ring_pos;
	/* What went wrong: a cookie that did not name its stack. */
	unsigned long		bad;
	unsigned long		cookies, peeks, stale, resets, freezes, dumped;
	/* Peeks whose frames were overwritten while read, and found out. */
	unsigned long		caught;
	/* Stacks the map did not take, by reason: -EAGAIN, -ENOMEM, -ENOSPC. */
	unsigned long		busy, nomem, nospc;
};

static unsigned int stress_depth(u32 id)
{
	return 1 + id % TRACE_STACKMAP_MAX_DEPTH;
}

static void add(unsigned long *counter, unsigned long n)
{
	__atomic_add_fetch(counter, n, __ATOMIC_RELAXED);
}

static bool same_stack(const unsigned long *ips, unsigned int nr, u32 id)
{
	unsigned long calls[TRACE_STACKMAP_MAX_DEPTH];

	if (nr != stress_depth(id))
		return false;
	ustack_make(calls, id, nr);
	return !memcmp(calls, ips, nr * sizeof(*ips));
}

/*
 * A cookie handed out in this section names its stack until the section
 * ends: a reset waits for it. Checks that, then publishes the cookie.
 */
static void stress_check(struct stress *s, u64 cookie, u32 id, const unsigned long *calls,
			 unsigned int nr)
{
	const unsigned long *ips;
	unsigned long pos;
	u64 packed;

	if (trace_stackmap_peek(s->map, cookie, &ips) != nr ||
	    memcmp(ips, calls, nr * sizeof(*ips)) ||
	    !trace_stackmap_peek_valid(s->map, cookie)) {
		fprintf(stderr, "stress: cookie %#llx does not name stack %u\n",
			(unsigned long long)cookie, id);
		add(&s->bad, 1);
	}
	packed = cookie >> 32 << 32 | (u64)id << STRESS_BITS | trace_stackmap_cookie_slot(cookie);
	pos = __atomic_fetch_add(&s->ring_pos, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&s->ring[pos % RING], packed, __ATOMIC_RELAXED);
}

/* Two workers record stacks as the recording path does, overlapping by half. */
static void *stress_worker(void *arg)
{
	struct stress *s = arg;
	unsigned long calls[TRACE_STACKMAP_MAX_DEPTH], i, cookies = 0;
	unsigned long busy = 0, nomem = 0, nospc = 0;
	u64 seed = 0x9876 + ustack_cpu;
	u32 first = ustack_cpu * STRESS_SPAN / 2;

	rcu_register_thread();
	for (i = 0; i < s->ops; i++) {
		u32 id = first + rnd(&seed) % STRESS_SPAN;
		unsigned int nr = stress_depth(id);
		u64 cookie;
		int ret = 0;

		ustack_make(calls, id, nr);
		rcu_read_lock();
		if (!trace_stackmap_find_recent(s->map, calls, nr, &cookie))
			ret = trace_stackmap_find(s->map, calls, nr, &cookie);
		if (!ret) {
			trace_stackmap_count(s->map, cookie);
			stress_check(s, cookie, id, calls, nr);
		}
		rcu_read_unlock();
		/*
		 * A thread preempted in a read-side section holds up the
		 * grace period until it runs again: there are more threads
		 * than CPUs. Give the CPU up outside, now and then.
		 */
		if (i % 256 == 255)
			sched_yield();
		cookies += !ret;
		busy += ret == -EAGAIN;
		nomem += ret == -ENOMEM;
		nospc += ret == -ENOSPC;
	}
	add(&s->cookies, cookies);
	add(&s->busy, busy);
	add(&s->nomem, nomem);
	add(&s->nospc, nospc);
	__atomic_sub_fetch(&s->running, 1, __ATOMIC_RELEASE);
	rcu_unregister_thread();
	return NULL;
}

static bool stress_running(struct stress *s)
{
	return __atomic_load_n(&s->running, __ATOMIC_ACQUIRE);
}

/*
 * The trace output's reader (trace_stackmap_ftrace.c): peeks at the stack
 * of a published cookie without a lock, reads the frames as they may be
 * rewritten, and keeps them only if trace_stackmap_peek_valid() says so.
 * The kernel's reader formats each frame (a kallsyms lookup) as it goes;
 * this one yields the CPU now and then instead, so that a reset that was
 * waiting for a grace period when the read began, and the inserts after
 * it, can overwrite the frames while they are read.
 */
static void stress_read(struct stress *s, u64 packed)
{
	unsigned long ips[TRACE_STACKMAP_MAX_DEPTH];
	u64 cookie = packed >> 32 << 32 | (packed & ((1U << STRESS_BITS) - 1));
	u32 id = (u32)packed >> STRESS_BITS;
	const unsigned long *frames;
	bool valid;
	int i, nr;

	rcu_read_lock();
	nr = trace_stackmap_peek(s->map, cookie, &frames);
	for (i = 0; i < nr; i++) {
		/* A reset and an insert may overwrite the frames: checked below. */
		ips[i] = data_race(frames[i]);
		if (i % 16 == 15)
			sched_yield();
	}
	valid = nr > 0 && trace_stackmap_peek_valid(s->map, cookie);
	rcu_read_unlock();

	add(&s->peeks, 1);
	if (!valid) {
		add(&s->stale, 1);
		if (nr > 0 && !same_stack(ips, nr, id))
			add(&s->caught, 1);
	} else if (!same_stack(ips, nr, id)) {
		fprintf(stderr, "stress: a valid peek of cookie %#llx read another stack than %u\n",
			(unsigned long long)cookie, id);
		add(&s->bad, 1);
	}
}

static void *stress_reader(void *arg)
{
	struct stress *s = arg;
	unsigned int i;

	rcu_register_thread();
	while (stress_running(s)) {
		for (i = 0; i < RING; i++) {
			u64 packed = __atomic_load_n(&s->ring[i], __ATOMIC_RELAXED);

			if (packed)
				stress_read(s, packed);
		}
	}
	rcu_unregister_thread();
	return NULL;
}

/* A dump, as stack_map's reader does it: every stored stack must be whole. */
static void stress_dump(struct stress *s)
{
	struct trace_stackmap_entry ent;
	struct trace_stackmap_stats st;
	unsigned long n = 0;
	u32 pos = 0;

	trace_stackmap_get(s->map);
	trace_stackmap_read_lock(s->map);
	while (trace_stackmap_next(s->map, &pos, &ent)) {
		if (!same_stack(ent.ips, ent.nr, ustack_stack_id(ent.ips))) {
			fprintf(stderr, "stress: the dump has a torn stack in slot %u\n", ent.slot);
			add(&s->bad, 1);
		}
		n++;
	}
	trace_stackmap_read_unlock(s->map);
	trace_stackmap_get_stats(s->map, &st);
	trace_stackmap_put(s->map);
	add(&s->dumped, n);
}

/* Resets the map now and then, and freezes and dumps it before some resets. */
static void *stress_resetter(void *arg)
{
	struct stress *s = arg;
	unsigned long n;

	rcu_register_thread();
	for (n = 0; stress_running(s); n++) {
		usleep(1000 + n % 5 * 500);
		if (n % 4 == 0) {
			trace_stackmap_freeze(s->map);
			add(&s->freezes, 1);
		}
		if (n % 2 == 0)
			stress_dump(s);
		trace_stackmap_reset(s->map);
		add(&s->resets, 1);
	}
	rcu_unregister_thread();
	return NULL;
}

struct stress_thread {
	struct stress	*s;
	int		cpu;
	void		*(*fn)(void *);
};

static void *stress_start(void *arg)
{
	struct stress_thread *st = arg;

	ustack_cpu = st->cpu;
	return st->fn(st->s);
}

static int stress_main(unsigned long ops)
{
	static void *(*const fns[])(void *) = {
		stress_worker, stress_worker, stress_resetter, stress_reader,
	};
	struct stress_thread th[4];
	struct stress s = { .ops = ops, .running = 2 };
	pthread_t tid[4];
	int i;

	/* Four threads, four CPUs; the last two only run the map's slow paths. */
	nr_cpu_ids = 4;
	s.map = trace_stackmap_create(STRESS_BITS);
	if (!s.map)
		die("trace_stackmap_create failed");
	for (i = 0; i < 4; i++) {
		th[i] = (struct stress_thread){ .s = &s, .cpu = i, .fn = fns[i] };
		if (pthread_create(&tid[i], NULL, stress_start, &th[i]))
			die("pthread_create failed");
	}
	for (i = 0; i < 4; i++)
		pthread_join(tid[i], NULL);
	rcu_register_thread();
	trace_stackmap_destroy(s.map, 0);
	rcu_unregister_thread();

	printf("ustack stress ops=%lu cookies=%lu busy=%lu nomem=%lu nospc=%lu resets=%lu freezes=%lu dumped=%lu peeks=%lu stale=%lu caught=%lu bad=%lu\n",
	       2 * ops, s.cookies, s.busy, s.nomem, s.nospc, s.resets, s.freezes, s.dumped,
	       s.peeks, s.stale, s.caught, s.bad);
	if (!s.resets || !s.cookies || s.peeks == s.stale)
		die("the workload did not exercise the map: no reset, cookie or valid peek");
	return s.bad ? 1 : 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: stackmap-bench [-s SCALE] | stackmap-bench stress [-n OPS]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	bool stress = argc > 1 && !strcmp(argv[1], "stress");
	unsigned long ops = 200000;
	int opt;

	if (stress) {
		argc--;
		argv++;
	}
	while ((opt = getopt(argc, argv, "s:n:")) != -1) {
		switch (opt) {
		case 's':
			scale = atof(optarg);
			break;
		case 'n':
			ops = strtoul(optarg, NULL, 0);
			break;
		default:
			usage();
		}
	}
	if (optind != argc || scale <= 0 || !ops)
		usage();
	return stress ? stress_main(ops) : bench_main();
}
