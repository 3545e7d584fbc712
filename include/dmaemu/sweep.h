/* SPDX-License-Identifier: MIT */
/*
 * <dmaemu/sweep.h> - sweep seeds over every core, and over many machines.
 *
 * A test under sched=lockstep is one interleaving per seed; a sweep runs
 * it for a range of seeds and names the first that fails, with the
 * command that replays it.  dmaemu_sweep() forks worker processes (one a
 * core by default), each running the test for its share of the seeds, and
 * takes three settings from the environment, so that a CI matrix, GNU
 * parallel or a batch scheduler spreads a long sweep over many machines
 * with no code of the test's:
 *
 *   DMAEMU_SEEDS=A-B   the seeds A to B, both included (or one seed, S);
 *                      unset, the range the caller gives
 *   DMAEMU_SHARD=K/N   only the K-th of N shards: the seeds A+K-1,
 *                      A+K-1+N, A+K-1+2N, ... (default 1/1, every seed)
 *   DMAEMU_JOBS=J      J worker processes (default: the online CPUs)
 *
 *   static int one(unsigned long long seed, void *arg)
 *   {
 *           ... make a machine with "sched=lockstep:seed=<seed>", run ...
 *           return data_right ? 0 : 1;
 *   }
 *   ...
 *   struct dmaemu_sweep_result r;
 *   if (dmaemu_sweep(argv[0], "0-999", one, NULL, &r) == 0 && r.failed)
 *           printf("first failing seed: %llu\n", r.first_failed);
 *
 * Each worker is a fork() of the caller: @one runs in a child process, so
 * what it changes in memory stays there, and it must not rely on threads
 * of the caller (fork() copies the calling thread only).  A worker that
 * crashes fails the seed it was running.  Header-only, like
 * <dmaemu/check.h>, which includes it.
 */
#ifndef DMAEMU_SWEEP_H
#define DMAEMU_SWEEP_H

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Worker processes at most, whatever DMAEMU_JOBS says. */
#define DMAEMU_SWEEP_MAX_JOBS 256

/**
 * struct dmaemu_sweep_result - what a sweep found.
 * @first: the first seed of the range
 * @last: its last seed
 * @shard: this run's shard, 1 to @shards
 * @shards: the number of shards the range is split in
 * @jobs: worker processes used
 * @ran: seeds run (this shard's)
 * @failed: seeds whose test returned non-zero or whose worker died
 * @first_failed: the lowest of those (valid when @failed is not 0)
 */
struct dmaemu_sweep_result {
	unsigned long long first, last;
	unsigned int shard, shards, jobs;
	unsigned long long ran, failed, first_failed;
};

/* parse "A-B" or "S" into *a, *b; false when it is neither. */
static inline bool dmaemu_sweep_range_(const char *s, unsigned long long *a,
				       unsigned long long *b)
{
	char *end;

	if (!s || *s < '0' || *s > '9')
		return false;
	errno = 0;
	*a = strtoull(s, &end, 10);
	if (errno)
		return false;
	if (*end == '\0') {
		*b = *a;
		return true;
	}
	if (*end != '-' || end[1] < '0' || end[1] > '9')
		return false;
	*b = strtoull(end + 1, &end, 10);
	return !errno && *end == '\0' && *b >= *a;
}

/* parse "K/N" (1 <= K <= N) into *k, *n; false otherwise. */
static inline bool dmaemu_sweep_shard_(const char *s, unsigned int *k,
				       unsigned int *n)
{
	char *end;
	unsigned long kk, nn;

	if (!s || *s < '0' || *s > '9')
		return false;
	errno = 0;
	kk = strtoul(s, &end, 10);
	if (errno || *end != '/' || end[1] < '0' || end[1] > '9')
		return false;
	nn = strtoul(end + 1, &end, 10);
	if (errno || *end != '\0' || kk < 1 || kk > nn || nn > 1000000000ul)
		return false;
	*k = (unsigned int)kk;
	*n = (unsigned int)nn;
	return true;
}

/* A worker: run @one for the seeds first + (shard-1) + shards*(job +
 * jobs*i), and write each failing seed to @fd as text, one a line; a
 * line "run S" before each seed, so that the parent knows which seed a
 * worker that died was running.  Never returns. */
static inline void dmaemu_sweep_work_(const struct dmaemu_sweep_result *r,
				      unsigned int job, int fd,
				      int (*one)(unsigned long long, void *),
				      void *arg)
{
	unsigned long long step = (unsigned long long)r->shards * r->jobs;
	unsigned long long s =
		r->first + (r->shard - 1) + (unsigned long long)r->shards * job;
	char line[64];
	int n;

	for (; s >= r->first && s <= r->last; s += step) {
		n = snprintf(line, sizeof(line), "run %llu\n", s);
		if (write(fd, line, (size_t)n) != n)
			_exit(3);
		if (one(s, arg) != 0) {
			n = snprintf(line, sizeof(line), "fail %llu\n", s);
			if (write(fd, line, (size_t)n) != n)
				_exit(3);
		}
		if (step > r->last - s)
			break; /* the next seed would wrap past the range */
	}
	_exit(0);
}

/* Add a failing seed to @r. */
static inline void dmaemu_sweep_fail_(struct dmaemu_sweep_result *r,
				      unsigned long long s)
{
	if (!r->failed || s < r->first_failed)
		r->first_failed = s;
	r->failed++;
}

/* A worker's pipe: text not yet ending in a newline. */
struct dmaemu_sweep_lines_ {
	char buf[256];
	size_t have;
};

/* Read what a worker wrote to @fd and take its whole lines into @r,
 * @running and @busy.  Return: what read() returned (0 at the end). */
static inline ssize_t dmaemu_sweep_read_(struct dmaemu_sweep_result *r,
					 struct dmaemu_sweep_lines_ *l,
					 unsigned long long *running,
					 bool *busy, int fd)
{
	char *line, *nl;
	ssize_t got;

	do
		got = read(fd, l->buf + l->have, sizeof(l->buf) - 1 - l->have);
	while (got < 0 && errno == EINTR);
	if (got <= 0)
		return got;
	l->have += (size_t)got;
	l->buf[l->have] = '\0';
	line = l->buf;
	while ((nl = strchr(line, '\n'))) {
		*nl = '\0';
		if (!strncmp(line, "run ", 4)) {
			*running = strtoull(line + 4, NULL, 10);
			*busy = true;
			r->ran++;
		} else if (!strncmp(line, "fail ", 5)) {
			dmaemu_sweep_fail_(r, strtoull(line + 5, NULL, 10));
		}
		line = nl + 1;
	}
	l->have = (size_t)(l->buf + l->have - line);
	memmove(l->buf, line, l->have);
	return got;
}

/**
 * dmaemu_sweep() - run @one for every seed of a sweep, on all cores.
 * @cmd: the command that runs this sweep (argv[0], with what selects the
 *	 test), for the replay line
 * @seeds: the range when DMAEMU_SEEDS is unset: "A-B" or "S"
 * @one: runs the test for one seed; returns 0 when the seed behaved as
 *	 expected, non-zero when it did not
 * @arg: passed to @one
 * @r: filled with what the sweep found
 *
 * Runs @one for every seed of this shard of the range, in DMAEMU_JOBS
 * worker processes, and prints to stderr one line when a seed failed:
 * how many did, the first, and the command that replays it alone
 * ("DMAEMU_SEEDS=17 DMAEMU_SHARD=1/1 <program>").
 *
 * Return: 0 when the sweep ran (@r says what it found); -EINVAL, with a
 * line on stderr naming the setting, when DMAEMU_SEEDS, DMAEMU_SHARD,
 * DMAEMU_JOBS or @seeds is malformed, or @one or @r is NULL; -errno when
 * a pipe or a worker could not be made (nothing is left running).
 */
static inline int dmaemu_sweep(const char *cmd, const char *seeds,
			       int (*one)(unsigned long long seed, void *arg),
			       void *arg, struct dmaemu_sweep_result *r)
{
	const char *env_seeds = getenv("DMAEMU_SEEDS");
	const char *env_shard = getenv("DMAEMU_SHARD");
	const char *env_jobs = getenv("DMAEMU_JOBS");
	pid_t pid[DMAEMU_SWEEP_MAX_JOBS];
	unsigned long long running[DMAEMU_SWEEP_MAX_JOBS];
	bool busy[DMAEMU_SWEEP_MAX_JOBS];
	int fd[DMAEMU_SWEEP_MAX_JOBS];
	struct dmaemu_sweep_lines_ lines[DMAEMU_SWEEP_MAX_JOBS];
	unsigned long long count;
	unsigned int j, open_fds = 0;
	long cpus;
	char *end;
	int err = 0;

	cmd = cmd ? cmd : "the test";
	if (!one || !r) {
		fprintf(stderr,
			"dmaemu: %s: dmaemu_sweep() needs a test and "
			"a result\n",
			cmd);
		return -EINVAL;
	}
	memset(r, 0, sizeof(*r));
	if (!dmaemu_sweep_range_(env_seeds && *env_seeds ? env_seeds : seeds,
				 &r->first, &r->last)) {
		fprintf(stderr,
			"dmaemu: %s: bad seeds '%s' (%s): A-B with A <= B, or "
			"one seed\n",
			cmd, env_seeds && *env_seeds ? env_seeds : seeds,
			env_seeds && *env_seeds ? "DMAEMU_SEEDS"
						: "the test's");
		return -EINVAL;
	}
	r->shard = r->shards = 1;
	if (env_shard && *env_shard &&
	    !dmaemu_sweep_shard_(env_shard, &r->shard, &r->shards)) {
		fprintf(stderr,
			"dmaemu: %s: bad DMAEMU_SHARD '%s': K/N with "
			"1 <= K <= N\n",
			cmd, env_shard);
		return -EINVAL;
	}
	cpus = sysconf(_SC_NPROCESSORS_ONLN);
	r->jobs = cpus > 0 ? (unsigned int)cpus : 1;
	if (env_jobs && *env_jobs) {
		errno = 0;
		cpus = strtol(env_jobs, &end, 10);
		if (errno || *end || cpus < 1 || cpus > DMAEMU_SWEEP_MAX_JOBS) {
			fprintf(stderr,
				"dmaemu: %s: bad DMAEMU_JOBS '%s': 1 to %d\n",
				cmd, env_jobs, DMAEMU_SWEEP_MAX_JOBS);
			return -EINVAL;
		}
		r->jobs = (unsigned int)cpus;
	}
	if (r->jobs > DMAEMU_SWEEP_MAX_JOBS)
		r->jobs = DMAEMU_SWEEP_MAX_JOBS;
	/* No more workers than this shard has seeds. */
	count = r->last - r->first < r->shard - 1
			? 0
			: (r->last - r->first - (r->shard - 1)) / r->shards + 1;
	if (count < r->jobs)
		r->jobs = count ? (unsigned int)count : 1;

	fflush(NULL); /* nothing buffered is written twice by the workers */
	for (j = 0; j < r->jobs; j++) {
		int p[2];

		if (pipe(p)) {
			err = -errno;
			break;
		}
		pid[j] = fork();
		if (pid[j] < 0) {
			err = -errno;
			close(p[0]);
			close(p[1]);
			break;
		}
		if (pid[j] == 0) {
			close(p[0]);
			dmaemu_sweep_work_(r, j, p[1], one, arg);
		}
		close(p[1]);
		fd[j] = p[0];
		busy[j] = false;
		lines[j].have = 0;
		open_fds++;
	}
	if (err) {
		/* Stop the workers made so far; report nothing of theirs. */
		for (unsigned int i = 0; i < j; i++) {
			kill(pid[i], SIGKILL);
			close(fd[i]);
			waitpid(pid[i], NULL, 0);
		}
		fprintf(stderr,
			"dmaemu: %s: cannot start the sweep's workers: "
			"%s\n",
			cmd, strerror(-err));
		return err;
	}

	/* Read the workers' lines as they come (poll(): a worker blocked on
	 * a full pipe would stall the sweep), each worker's to its end. */
	while (open_fds) {
		struct pollfd pfd[DMAEMU_SWEEP_MAX_JOBS];
		unsigned int n = 0;

		for (j = 0; j < r->jobs; j++) {
			if (fd[j] < 0)
				continue;
			pfd[n].fd = fd[j];
			pfd[n].events = POLLIN;
			pfd[n].revents = 0;
			n++;
		}
		if (poll(pfd, n, -1) < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			break;
		}
		for (j = 0; j < r->jobs; j++) {
			unsigned int i;

			for (i = 0; i < n && pfd[i].fd != fd[j]; i++)
				;
			if (fd[j] < 0 || i == n || !pfd[i].revents)
				continue;
			if (dmaemu_sweep_read_(r, &lines[j], &running[j],
					       &busy[j], fd[j]) > 0)
				continue;
			close(fd[j]);
			fd[j] = -1;
			open_fds--;
		}
	}
	for (j = 0; j < r->jobs; j++) {
		int status = 0;

		if (fd[j] >= 0) { /* poll() failed: stop what is left */
			kill(pid[j], SIGKILL);
			close(fd[j]);
		}
		while (waitpid(pid[j], &status, 0) < 0 && errno == EINTR)
			;
		/* A worker that died (a crash, an abort) fails its seed. */
		if (!err && busy[j] &&
		    !(WIFEXITED(status) && WEXITSTATUS(status) == 0))
			dmaemu_sweep_fail_(r, running[j]);
	}
	if (err) {
		fprintf(stderr, "dmaemu: %s: the sweep's poll() failed: %s\n",
			cmd, strerror(-err));
		return err;
	}
	if (r->failed)
		fprintf(stderr,
			"dmaemu: %s: %llu of %llu seeds failed (seeds "
			"%llu-%llu, shard %u/%u); the first is seed %llu; "
			"replay: DMAEMU_SEEDS=%llu DMAEMU_SHARD=1/1 %s\n",
			cmd, r->failed, r->ran, r->first, r->last, r->shard,
			r->shards, r->first_failed, r->first_failed, cmd);
	return 0;
}

#ifdef __cplusplus
}
#endif

#endif
