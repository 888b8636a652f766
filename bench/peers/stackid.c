// SPDX-License-Identifier: GPL-2.0
/*
 * stackid: loads one program of stackid.bpf.o, attaches it to a tracepoint
 * and keeps it there until SIGTERM or SIGINT; then prints what its maps
 * hold, from the kernel's own accounting (memlock in the maps' fdinfo);
 * calls are counted by the count program only:
 *
 *   BPF PROG CATEGORY:EVENT calls N errors N stored N stack_map_bytes N
 *       count_map_bytes N
 *
 * "ready" on standard output says the program is attached.
 * Usage: stackid OBJ PROG CATEGORY:EVENT ENTRIES [CPU]
 * CPU: the count program counts the events of that CPU only.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

static volatile sig_atomic_t stop;

static void on_signal(int sig __attribute__((unused)))
{
	stop = 1;
}

static long long memlock(int fd)
{
	char path[64], line[256];
	long long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "memlock: %lld", &v) == 1)
			break;
	fclose(f);
	return v;
}

static long long stored(int fd)
{
	__u32 key, next;
	long long n = 0;
	void *prev = NULL;

	while (!bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		n++;
	}
	return n;
}

int main(int argc, char **argv)
{
	struct bpf_object *obj;
	struct bpf_program *prog, *p;
	struct bpf_map *stacks, *counts, *stats;
	struct bpf_link *link;
	struct sigaction sa = { .sa_handler = on_signal };
	unsigned long entries;
	char *cat, *ev, *end;
	__u64 data[3] = { 0, 0, 0 };
	__u32 zero = 0;

	if (argc < 5 || argc > 6 || !strchr(argv[3], ':')) {
		fprintf(stderr, "usage: stackid OBJ PROG CATEGORY:EVENT ENTRIES [CPU]\n");
		return 2;
	}
	if (argc == 6) {
		data[2] = strtoul(argv[5], &end, 10) + 1;
		if (*end || !*argv[5]) {
			fprintf(stderr, "stackid: CPU is a CPU number, not '%s'\n", argv[5]);
			return 2;
		}
	}
	entries = strtoul(argv[4], &end, 10);
	if (*end || !entries) {
		fprintf(stderr, "stackid: ENTRIES is a number of stacks, not '%s'\n", argv[4]);
		return 2;
	}
	cat = strdup(argv[3]);
	ev = strchr(cat, ':');
	*ev++ = '\0';
	libbpf_set_strict_mode(LIBBPF_STRICT_ALL);
	obj = bpf_object__open_file(argv[1], NULL);
	if (!obj) {
		fprintf(stderr, "stackid: cannot open %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	prog = bpf_object__find_program_by_name(obj, argv[2]);
	if (!prog) {
		fprintf(stderr, "stackid: %s has no program %s\n", argv[1], argv[2]);
		return 2;
	}
	bpf_object__for_each_program(p, obj)
		bpf_program__set_autoload(p, p == prog);
	stacks = bpf_object__find_map_by_name(obj, "stacks");
	counts = bpf_object__find_map_by_name(obj, "counts");
	stats = bpf_object__find_map_by_name(obj, "stats");
	if (!stacks || !counts || !stats) {
		fprintf(stderr, "stackid: %s lacks the stacks, counts or stats map\n", argv[1]);
		return 1;
	}
	if (bpf_map__set_max_entries(stacks, entries) || bpf_map__set_max_entries(counts, entries) ||
	    bpf_object__load(obj) ||
	    bpf_map__update_elem(stats, &zero, sizeof(zero), data, sizeof(data), 0)) {
		fprintf(stderr, "stackid: cannot load %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	link = bpf_program__attach_tracepoint(prog, cat, ev);
	if (!link) {
		fprintf(stderr, "stackid: cannot attach %s to %s:%s: %s\n", argv[2], cat, ev,
			strerror(errno));
		return 1;
	}
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	printf("ready\n");
	fflush(stdout);
	/* sleep(), not pause(): a signal just before it must not be lost. */
	while (!stop)
		sleep(1);
	bpf_link__destroy(link);
	if (bpf_map__lookup_elem(stats, &zero, sizeof(zero), data, sizeof(data), 0))
		fprintf(stderr, "stackid: cannot read the counters: %s\n", strerror(errno));
	printf("BPF %s %s calls %llu errors %llu stored %lld stack_map_bytes %lld count_map_bytes %lld\n",
	       argv[2], argv[3], (unsigned long long)data[0], (unsigned long long)data[1],
	       stored(bpf_map__fd(stacks)), memlock(bpf_map__fd(stacks)),
	       memlock(bpf_map__fd(counts)));
	bpf_object__close(obj);
	return 0;
}
