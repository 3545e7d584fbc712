#!/bin/sh
# single-thread.sh - the Check suites that Helgrind and DRD skip
# (valgrind_single_thread_tests in tests/local.mk: a data race needs two
# threads, and lock-order inversions are ThreadSanitizer's to find in the
# --enable-sanitizer=thread build) really start no thread: each runs here,
# natively, with a pthread_create() that leaves a mark before it calls the
# C library's, and must leave none.  Run by `make check-valgrind-helgrind`
# and `-drd` (DMAEMU_VALGRIND_TOOL names the tool), where the choice is
# made; a plain `make check` skips it.
. "$top_srcdir/tests/runner/tap.sh"

case ${DMAEMU_VALGRIND_TOOL:-} in
helgrind | drd) ;;
*) skip_all "run by make check-valgrind-helgrind and -drd" ;;
esac
[ -z "$SANITIZER" ] ||
	skip_all "a preloaded library cannot come before the $SANITIZER runtime"
[ -n "$DMAEMU_SINGLE_THREAD_TESTS" ] ||
	skip_all "no suite is listed as single-threaded"

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/mark.c" <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef int create_fn(pthread_t *, const pthread_attr_t *,
		      void *(*)(void *), void *);

int pthread_create(pthread_t *t, const pthread_attr_t *attr,
		   void *(*fn)(void *), void *arg)
{
	const char *path = getenv("THREAD_MARK");
	create_fn *real = (create_fn *)dlsym(RTLD_NEXT, "pthread_create");
	int fd;

	if (path) {
		fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0600);
		if (fd >= 0) {
			(void)!write(fd, "thread\n", 7);
			close(fd);
		}
	}
	return real ? real(t, attr, fn, arg) : 1;
}
C
if ! ${CC:-cc} -shared -fPIC -o "$tmp/mark.so" "$tmp/mark.c" -ldl \
	>"$tmp/cc.out" 2>&1; then
	sed 's/^/# /' "$tmp/cc.out"
	echo "Bail out! the pthread_create() shim does not build"
	exit 1
fi

# The shim itself: a program that starts a thread leaves its mark.
cat >"$tmp/two.c" <<'C'
#include <pthread.h>
static void *run(void *arg) { return arg; }
int main(void)
{
	pthread_t t;

	if (pthread_create(&t, 0, run, 0))
		return 1;
	return pthread_join(t, 0);
}
C
if ${CC:-cc} -o "$tmp/two" "$tmp/two.c" -lpthread >"$tmp/cc.out" 2>&1 &&
	THREAD_MARK="$tmp/two.mark" LD_PRELOAD="$tmp/mark.so" "$tmp/two" &&
	[ -s "$tmp/two.mark" ]; then
	ok "the shim marks a program that starts a thread"
else
	not_ok "the shim marks a program that starts a thread"
fi

for t in $DMAEMU_SINGLE_THREAD_TESTS; do
	mark="$tmp/$(basename "$t").mark"
	if ! THREAD_MARK="$mark" LD_PRELOAD="$tmp/mark.so" \
		"$top_builddir/$t" >"$tmp/out" 2>&1; then
		not_ok "$t passes with the shim"
		tail -20 "$tmp/out" | sed 's/^/# /'
	elif [ -s "$mark" ]; then
		not_ok "$t starts no thread (it started $(wc -l <"$mark"))"
	else
		ok "$t starts no thread"
	fi
done
done_testing
