#!/bin/sh
# kernel-level.sh - the two API levels (<dmaemu/level.h>): at 6.12
# (DMAEMU_KERNEL=612, dmaemu-cc --dmaemu-kernel=6.12) what Linux removed
# after 4.14 is a compile error naming the release and the replacement,
# and the calls Linux brought after 4.14 are errors at 4.14 naming the
# release that brought them; both levels compile the calls they share;
# dmaemu_machine_create() refuses a machine whose kernel= is not the
# headers' level, naming both.
. "$top_srcdir/tests/runner/tap.sh"

cc=${CC:-cc}
kdir="$top_srcdir/include/dmaemu/kernel"
top_builddir=$(cd "$top_builddir" && pwd)
dcc=$top_builddir/tools/dmaemu-cc
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kernel-level.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

# compile LEVEL FILE: with $cc and the kernel-personality headers.
compile() {
	$cc -std=gnu11 -Wall -Werror -DDMAEMU_KERNEL="$1" \
		-I"$top_srcdir/include" -I"$kdir" \
		-c "$tmp/$2" -o "$tmp/out.o" >"$tmp/log" 2>&1
}
# rejects LEVEL CALL MESSAGE: a function with CALL alone fails to compile
# with MESSAGE on an error line.
rejects() {
	cat >"$tmp/one.c" <<EOT
#include <linux/dma-mapping.h>
#include <linux/pci.h>
#include <linux/slab.h>
int one(struct device *dev, struct pci_dev *pdev, void *v, dma_addr_t h,
	struct sg_table *sgt, struct page *pg, struct vm_area_struct *vma);
int one(struct device *dev, struct pci_dev *pdev, void *v, dma_addr_t h,
	struct sg_table *sgt, struct page *pg, struct vm_area_struct *vma)
{
	(void)dev; (void)pdev; (void)v; (void)h; (void)sgt; (void)pg;
	(void)vma;
	(void)($2);
	return 0;
}
EOT
	if compile "$1" one.c; then
		diag "compiled: $2"
		return 1
	fi
	grep "error: .*$3" "$tmp/log" >/dev/null && return 0
	sed 's/^/# /' "$tmp/log" | head -5
	return 1
}

# At 6.12: what 6.12 no longer has.
for t in \
	"dma_alloc_attrs(dev, 64, &h, GFP_KERNEL, DMA_ATTR_NON_CONSISTENT)|DMA_ATTR_NON_CONSISTENT was removed in Linux 5.10: use dma_alloc_noncoherent(dev, size, handle, dir, gfp)" \
	"dma_map_single_attrs(dev, v, 64, DMA_TO_DEVICE, DMA_ATTR_WRITE_BARRIER)|DMA_ATTR_WRITE_BARRIER was removed in Linux 5.5" \
	"dma_cache_sync(dev, v, 64, DMA_TO_DEVICE)|dma_cache_sync() was removed in Linux 5.10: allocate with dma_alloc_noncoherent() and use dma_sync_single_for_device()" \
	"dma_zalloc_coherent(dev, 64, &h, GFP_KERNEL)|dma_zalloc_coherent() was removed in Linux 5.0: use dma_alloc_coherent(), which zeroes" \
	"pci_map_single(pdev, v, 64, DMA_TO_DEVICE)|pci_map_single() was removed in Linux 5.18: use dma_map_single(&pdev->dev, ptr, size, dir)" \
	"pci_alloc_consistent(pdev, 64, &h)|pci_alloc_consistent() was removed in Linux 5.18: use dma_alloc_coherent(&pdev->dev" \
	"pci_set_dma_mask(pdev, 0)|pci_set_dma_mask() was removed in Linux 5.18: use dma_set_mask(&pdev->dev, mask)" \
	"PCI_DMA_FROMDEVICE|PCI_DMA_FROMDEVICE was removed in Linux 5.18: use DMA_FROM_DEVICE" \
	"kmalloc(64, GFP_TEMPORARY)|GFP_TEMPORARY was removed in Linux 4.14: use GFP_KERNEL" \
	"dma_alloc_noncoherent(dev, 64, &h, GFP_KERNEL)|dma_alloc_noncoherent(dev, size, handle, gfp) is the API Linux 4.14 removed: in 6.12 it is dma_alloc_noncoherent(dev, size, handle, dir, gfp)"; do
	call=${t%%|*} msg=${t#*|}
	check "6.12: $call is an error: $msg" rejects 612 "$call" "$msg"
done

# At 4.14: what came later.
for t in \
	"dma_map_sgtable(dev, sgt, DMA_TO_DEVICE, 0)|dma_map_sgtable() is the Linux 5.8 API, not in 4.14" \
	"(dma_unmap_sgtable(dev, sgt, DMA_TO_DEVICE, 0), 0)|dma_unmap_sgtable() is the Linux 5.8 API, not in 4.14" \
	"(dma_sync_sgtable_for_cpu(dev, sgt, DMA_FROM_DEVICE), 0)|dma_sync_sgtable_for_cpu() is the Linux 5.8 API" \
	"(dma_sync_sgtable_for_device(dev, sgt, DMA_TO_DEVICE), 0)|dma_sync_sgtable_for_device() is the Linux 5.8 API" \
	"dma_need_sync(dev, h)|dma_need_sync() is the Linux 5.8 API, not in 4.14" \
	"dma_max_mapping_size(dev)|dma_max_mapping_size() is the Linux 5.1 API, not in 4.14" \
	"dma_opt_mapping_size(dev)|dma_opt_mapping_size() is the Linux 6.0 API, not in 4.14" \
	"dma_alloc_pages(dev, 64, &h, DMA_FROM_DEVICE, GFP_KERNEL)|dma_alloc_pages() is the Linux 5.10 API, not in 4.14" \
	"(dma_free_pages(dev, 64, pg, h, DMA_FROM_DEVICE), 0)|dma_free_pages() is the Linux 5.10 API, not in 4.14" \
	"dma_mmap_pages(dev, vma, 64, pg)|dma_mmap_pages() is the Linux 5.10 API, not in 4.14" \
	"dma_alloc_noncontiguous(dev, 64, DMA_FROM_DEVICE, GFP_KERNEL, 0)|dma_alloc_noncontiguous() is the Linux 5.13 API, not in 4.14" \
	"dma_vmap_noncontiguous(dev, 64, sgt)|dma_vmap_noncontiguous() is the Linux 5.13 API, not in 4.14" \
	"dma_alloc_noncoherent(dev, 64, &h, DMA_FROM_DEVICE, GFP_KERNEL)|dma_alloc_noncoherent(dev, size, handle, dir, gfp) is the Linux 5.10 API, not in 4.14"; do
	call=${t%%|*} msg=${t#*|}
	check "4.14: $call is an error: $msg" rejects 414 "$call" "$msg"
done

# <linux/pci-dma-compat.h> itself is gone at 6.12.
printf '#include <linux/pci-dma-compat.h>\n' >"$tmp/compat.c"
if compile 612 compat.c; then
	not_ok "6.12: #include <linux/pci-dma-compat.h> is an error"
else
	check "6.12: #include <linux/pci-dma-compat.h> is an error naming 5.18" \
		grep -q 'pci-dma-compat.h> was removed in Linux 5.18' "$tmp/log"
fi
check "4.14: #include <linux/pci-dma-compat.h> compiles" compile 414 compat.c
printf '#include <linux/dma-mapping.h>\n' >"$tmp/bad.c"
if compile 510 bad.c; then
	not_ok "DMAEMU_KERNEL=510 is refused"
else
	check "DMAEMU_KERNEL=510 is refused, naming the two levels" \
		grep -q 'DMAEMU_KERNEL must be 414 (Linux 4.14) or 612' "$tmp/log"
fi

# Code common to both levels compiles at both, and the 6.12 calls at 6.12.
cat >"$tmp/common.c" <<'EOT'
#include <linux/dma-mapping.h>
#include <linux/pci.h>
#include <linux/slab.h>
int rx(struct device *dev, void *buf);
int rx(struct device *dev, void *buf)
{
	dma_addr_t h = dma_map_single(dev, buf, 64, DMA_FROM_DEVICE);

	if (dma_mapping_error(dev, h))
		return -ENOMEM;
	dma_sync_single_for_cpu(dev, h, 64, DMA_FROM_DEVICE);
	dma_unmap_single(dev, h, 64, DMA_FROM_DEVICE);
	return 0;
}
EOT
check "4.14: the calls both levels have compile" compile 414 common.c
check "6.12: the calls both levels have compile" compile 612 common.c
cat >"$tmp/new.c" <<'EOT'
#include <linux/dma-mapping.h>
int ring(struct device *dev, struct sg_table *sgt);
int ring(struct device *dev, struct sg_table *sgt)
{
	dma_addr_t h;
	void *v = dma_alloc_noncoherent(dev, 4096, &h, DMA_FROM_DEVICE,
					GFP_KERNEL);

	if (!v || dma_map_sgtable(dev, sgt, DMA_TO_DEVICE, 0))
		return -ENOMEM;
	if (dma_need_sync(dev, h))
		dma_sync_single_for_cpu(dev, h, 4096, DMA_FROM_DEVICE);
	dma_sync_sgtable_for_device(dev, sgt, DMA_TO_DEVICE);
	dma_unmap_sgtable(dev, sgt, DMA_TO_DEVICE, 0);
	dma_free_noncoherent(dev, 4096, v, h, DMA_FROM_DEVICE);
	return (int)(dma_max_mapping_size(dev) > dma_opt_mapping_size(dev));
}
EOT
check "6.12: the 6.12 calls compile" compile 612 new.c

# dmaemu-cc --dmaemu-kernel.
# (A sanitizer build runs only uninstrumented code: dmaemu-cc says so.)
"$dcc" ${SANITIZER:+--dmaemu-uninstrumented} --dmaemu-kernel=6.12 --dmaemu-show \
	-c x.c >"$tmp/show" 2>&1
check "dmaemu-cc --dmaemu-kernel=6.12 adds -DDMAEMU_KERNEL=612" \
	grep -q -e '-DDMAEMU_KERNEL=612' "$tmp/show"
"$dcc" --dmaemu-kernel=5.10 -c x.c >"$tmp/show" 2>&1
rc=$?
check "dmaemu-cc --dmaemu-kernel=5.10 is refused (status 2), naming the levels" \
	sh -c "[ $rc = 2 ] && grep -q 'expected 4.14 or 6.12' '$tmp/show'"

# The machine and the headers must agree (a program built and run).
if [ -n "$SANITIZER" ]; then
	skip "a --enable-sanitizer build runs no dmaemu-cc program"
	done_testing
	exit
fi
cat >"$tmp/prog.c" <<'EOT'
#include <stdio.h>
#include <dmaemu/machine.h>
#include <linux/slab.h>
int main(int argc, char **argv)
{
	struct dmaemu_machine *m = dmaemu_machine_create(argv[1]);

	(void)argc;
	if (!m)
		return 3;
	dmaemu_machine_destroy(m);
	return 0;
}
EOT
unset DMAEMU_OPTIONS
"$dcc" -o "$tmp/p414" "$tmp/prog.c" >"$tmp/log" 2>&1 &&
	"$dcc" --dmaemu-kernel=6.12 -o "$tmp/p612" "$tmp/prog.c" \
		>>"$tmp/log" 2>&1
check "the program builds at both levels" [ -x "$tmp/p612" ]
runs() { # runs PROG OPTIONS: status 0
	"$tmp/$1" "$2" >"$tmp/out" 2>&1
}
refused() { # refused PROG OPTIONS MESSAGE
	"$tmp/$1" "$2" >"$tmp/out" 2>&1
	[ $? = 3 ] && grep -qF "$3" "$tmp/out" && return 0
	sed 's/^/# /' "$tmp/out"
	return 1
}
check "4.14 headers, default machine: created" runs p414 ""
check "6.12 headers, kernel=6.12: created" runs p612 "kernel=6.12"
check "6.12 headers, default machine: refused, naming both" refused p612 "" \
	"dmaemu: the program was built with the Linux 6.12 kernel headers (DMAEMU_KERNEL=612, dmaemu-cc --dmaemu-kernel=6.12) but the machine is kernel=4.14 (the default): create the machine with kernel=6.12"
check "4.14 headers, kernel=6.12: refused, naming both" refused p414 \
	"kernel=6.12" "the program was built with the Linux 4.14 kernel headers (the default, DMAEMU_KERNEL=414) but the machine is kernel=6.12 (the program's options)"
DMAEMU_OPTIONS=kernel=4.14
export DMAEMU_OPTIONS
check "6.12 headers, DMAEMU_OPTIONS=kernel=4.14: refused, naming it" \
	refused p612 "kernel=6.12" "but the machine is kernel=4.14 (DMAEMU_OPTIONS)"
unset DMAEMU_OPTIONS
"$dcc" -c -o "$tmp/half.o" "$tmp/prog.c" >"$tmp/log" 2>&1
printf '#include <linux/gfp.h>\nint dmaemu_half(void);\nint dmaemu_half(void) { return GFP_KERNEL != 0; }\n' \
	>"$tmp/half612.c"
"$dcc" --dmaemu-kernel=6.12 -o "$tmp/pmix" "$tmp/half.o" \
	"$tmp/half612.c" >>"$tmp/log" 2>&1
check "code built at both levels in one program: refused" refused pmix \
	"kernel=6.12" "the program mixes code built with the Linux 4.14 kernel headers and code built with the Linux 6.12 ones"
done_testing
