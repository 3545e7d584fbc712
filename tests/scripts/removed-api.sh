#!/bin/sh
# removed-api.sh - dma_alloc_noncoherent() and dma_free_noncoherent(),
# removed in Linux 4.14, are compile errors naming their replacements
# (dma_alloc_attrs/dma_free_attrs with DMA_ATTR_NON_CONSISTENT), with $CC
# and with clang, at -O0 and -O2; the same driver converted by
# cocci/dma_alloc_noncoherent.cocci compiles cleanly.  The five-argument
# forms (dev, size, handle, dir, gfp) and (dev, size, vaddr, handle, dir)
# are Linux 5.10's API, and their errors say that instead.
. "$top_srcdir/tests/runner/tap.sh"

cc=${CC:-cc}
kdir="$top_srcdir/include/dmaemu/kernel"
alloc_msg='error: dma_alloc_noncoherent() was removed in Linux 4.14: use dma_alloc_attrs(..., DMA_ATTR_NON_CONSISTENT)'
free_msg='error: dma_free_noncoherent() was removed in Linux 4.14: use dma_free_attrs(..., DMA_ATTR_NON_CONSISTENT)'
alloc510_msg='error: dma_alloc_noncoherent(dev, size, handle, dir, gfp) is the Linux 5.10 API, not in 4.14: use dma_alloc_attrs(dev, size, handle, gfp, DMA_ATTR_NON_CONSISTENT)'
free510_msg='error: dma_free_noncoherent(dev, size, vaddr, handle, dir) is the Linux 5.10 API, not in 4.14: use dma_free_attrs(dev, size, vaddr, handle, DMA_ATTR_NON_CONSISTENT)'
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# A driver on the old API, shaped like the call sites the 4.14 removal
# converted: an allocation in an init path, frees in the teardown.
cat >"$tmp/driver.c" <<'EOT'
#include <linux/dma-mapping.h>

struct ring {
	struct device *dev;
	void *desc;
	dma_addr_t desc_dma;
};

int ring_init(struct ring *r, size_t bytes);
void ring_fini(struct ring *r, size_t bytes);

int ring_init(struct ring *r, size_t bytes)
{
	r->desc = dma_alloc_noncoherent(r->dev, bytes, &r->desc_dma,
					GFP_KERNEL | __GFP_ZERO);
	if (!r->desc)
		return -1;
	return 0;
}

void ring_fini(struct ring *r, size_t bytes)
{
	dma_free_noncoherent(r->dev, bytes, r->desc, r->desc_dma);
}
EOT
# Each call alone, so that each message is checked on its own.
sed '/^void ring_fini(struct ring \*r, size_t bytes)$/,$d' \
	"$tmp/driver.c" >"$tmp/alloc.c"
sed '/^int ring_init(struct ring \*r, size_t bytes)$/,/^}$/d' \
	"$tmp/driver.c" >"$tmp/free.c"

# A driver written for Linux 5.10's dma_alloc_noncoherent().
cat >"$tmp/v510.c" <<'EOT'
#include <linux/dma-mapping.h>

void *buf_get(struct device *dev, size_t bytes, dma_addr_t *h);
void buf_put(struct device *dev, size_t bytes, void *p, dma_addr_t h);

void *buf_get(struct device *dev, size_t bytes, dma_addr_t *h)
{
	return dma_alloc_noncoherent(dev, bytes, h, DMA_FROM_DEVICE,
				     GFP_KERNEL);
}

void buf_put(struct device *dev, size_t bytes, void *p, dma_addr_t h)
{
	dma_free_noncoherent(dev, bytes, p, h, DMA_FROM_DEVICE);
}
EOT

compile() { # compile COMPILER FILE OPT
	$1 -std=gnu11 $3 -Wall -Werror -I"$top_srcdir/include" -I"$kdir" \
		-c "$tmp/$2" -o "$tmp/out.o" >"$tmp/log" 2>&1
}

# The compile fails and the log has an error line with every message.
rejects() { # rejects COMPILER FILE OPT MESSAGE...
	c=$1 f=$2 o=$3
	shift 3
	if compile "$c" "$f" "$o"; then
		diag "$c $o compiled $f"
		return 1
	fi
	for msg in "$@"; do
		if ! grep -F "$msg" "$tmp/log" >/dev/null; then
			diag "no '$msg'"
			sed 's/^/# /' "$tmp/log"
			return 1
		fi
	done
}

compilers=$cc
if command -v clang >/dev/null 2>&1; then
	case $($cc --version 2>/dev/null) in
	*clang*) ;;
	*) compilers="$compilers clang" ;;
	esac
fi

for c in $compilers; do
	for opt in -O0 -O2; do
		check "$c $opt: dma_alloc_noncoherent() is an error naming dma_alloc_attrs(..., DMA_ATTR_NON_CONSISTENT)" \
			rejects "$c" alloc.c "$opt" "$alloc_msg"
		check "$c $opt: dma_free_noncoherent() is an error naming dma_free_attrs(..., DMA_ATTR_NON_CONSISTENT)" \
			rejects "$c" free.c "$opt" "$free_msg"
		check "$c $opt: a driver using both gets both errors" \
			rejects "$c" driver.c "$opt" "$alloc_msg" "$free_msg"
		check "$c $opt: the five-argument forms are named Linux 5.10's API" \
			rejects "$c" v510.c "$opt" "$alloc510_msg" "$free510_msg"
		if grep -F "was removed in Linux 4.14" "$tmp/log" >/dev/null; then
			not_ok "$c $opt: a 5.10 call is not told it was removed in 4.14"
		else
			ok "$c $opt: a 5.10 call is not told it was removed in 4.14"
		fi
	done
done
command -v clang >/dev/null 2>&1 || skip "clang not installed"

# The semantic patch converts the driver, and the result compiles.
if [ -n "$SPATCH" ] && command -v "$SPATCH" >/dev/null 2>&1; then
	if "$SPATCH" --very-quiet -D patch \
		--sp-file "$top_srcdir/cocci/dma_alloc_noncoherent.cocci" \
		"$tmp/driver.c" -o "$tmp/converted.c" >"$tmp/spatch.log" 2>&1 &&
		grep -q 'dma_alloc_attrs(.*' "$tmp/converted.c" &&
		[ "$(grep -c 'DMA_ATTR_NON_CONSISTENT' "$tmp/converted.c")" = 2 ] &&
		! grep -q '_noncoherent(' "$tmp/converted.c"; then
		ok "spatch converts both calls of the driver"
	else
		not_ok "spatch converts both calls of the driver"
		sed 's/^/# /' "$tmp/spatch.log" "$tmp/converted.c"
	fi
	for c in $compilers; do
		for opt in -O0 -O2; do
			check "$c $opt: the converted driver compiles (-Wall -Werror)" \
				compile "$c" converted.c "$opt"
		done
	done
else
	skip "spatch (Debian package coccinelle) not found"
fi
done_testing
