#!/bin/sh
# symbols.sh - libdmaemu exports exactly its public API: every dmaemu_
# function a public header declares, every kernel-personality function,
# the compilers' instrumentation hooks (__asan_*, __tsan_*) and the linker's --wrap
# targets (__wrap_*); never an internal dmaemu__ name.
. "$top_srcdir/tests/runner/tap.sh"

lib="$top_builddir/lib/.libs/libdmaemu.so"
[ -f "$lib" ] || skip_all "no shared libdmaemu (static-only build)"
command -v nm >/dev/null 2>&1 || skip_all "nm not found"

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
nm -D --defined-only "$lib" | awk '$2 ~ /^[TWDBRV]$/ { print $3 }' |
	sort -u >"$tmp/exported"
check "the library exports symbols" test -s "$tmp/exported"

internal=$(grep '^dmaemu__' "$tmp/exported" | tr '\n' ' ')
if [ -z "$internal" ]; then
	ok "no internal dmaemu__ symbol is exported"
else
	not_ok "internal symbols exported: $internal"
fi

undeclared=
for s in $(grep -v '^__asan_\|^__tsan_\|^__wrap_' "$tmp/exported"); do
	grep -rqw -- "$s" "$top_srcdir/include" || undeclared="$undeclared $s"
done
if [ -z "$undeclared" ]; then
	ok "every exported symbol is declared in a public header"
else
	not_ok "exported but declared in no public header:$undeclared"
fi

# Every dmaemu_ function a public header declares is implemented (but
# <dmaemu/check.h> and <dmaemu/sweep.h>, whose functions are static inline
# code of the test program that includes them).
ls "$top_srcdir"/include/dmaemu/*.h | grep -v '/check\.h$\|/sweep\.h$' |
	xargs grep -ohE '\bdmaemu_[a-z0-9_]+\(' |
	tr -d '(' | sort -u >"$tmp/declared"
missing=$(comm -23 "$tmp/declared" "$tmp/exported" | tr '\n' ' ')
if [ -z "$missing" ]; then
	ok "every declared dmaemu_ function is exported"
else
	not_ok "declared but not exported: $missing"
fi
for s in dma_map_single_attrs dma_alloc_attrs dma_sync_single_for_cpu \
	kmalloc alloc_pages virt_to_phys sg_alloc_table dma_pool_create \
	__wrap_memcpy; do
	check "exports $s" grep -qx "$s" "$tmp/exported"
done
# The hooks are left out of sanitizer builds (they would clash with the
# sanitizer's runtime).
for s in __asan_load4_noabort __asan_store8_noabort __asan_loadN_noabort \
	__tsan_read4 __tsan_write8 __tsan_write_range __tsan_atomic32_fetch_or \
	__tsan_init; do
	if [ -n "$SANITIZER" ]; then
		skip "$s: not in a --enable-sanitizer=$SANITIZER build"
	else
		check "exports $s" grep -qx "$s" "$tmp/exported"
	fi
done
done_testing
