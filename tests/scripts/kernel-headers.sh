#!/bin/sh
# kernel-headers.sh - the kernel personality's headers as a driver meets
# them through dmaemu-cc (docs/kernel-headers.md):
#   - one translation unit that includes every provided header compiles
#     with -Wall -Wextra -Werror, with GCC and with Clang when present,
#     before and after the C library's headers;
#   - a header of a subsystem dmaemu does not emulate stops the build with
#     one line naming the subsystem, and a header dmaemu does not provide
#     stops it with one line saying so, instead of the host's user-space
#     header of that name;
#   - a stub of the user's own, in a folder given with -I, is taken
#     instead of the guard.
. "$top_srcdir/tests/runner/tap.sh"

top_builddir=$(cd "$top_builddir" && pwd)
dcc=$top_builddir/tools/dmaemu-cc
kdir=$top_srcdir/include/dmaemu/kernel
guard=$top_builddir/include/dmaemu/kernel-guard
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kheaders.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
unset DMAEMU_CC_KIND DMAEMU_CC_UNINSTALLED
[ -f "$guard/.count" ] || skip_all "no guard headers built ($guard)"
# A sanitizer build's dmaemu-cc builds driver code uninstrumented only.
mode=
[ -n "$SANITIZER" ] && mode=--dmaemu-uninstrumented

# The C library's headers a driver's test file may include too.
libc='#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <net/ethernet.h>
#include <netinet/if_ether.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>'

headers=$(cd "$kdir" && find . -name '*.h' | sed 's|^\./||' | sort)
n=$(echo "$headers" | wc -l)
for h in $headers; do
	printf '#include <%s>\n' "$h"
done >"$tmp/all.h"
# Use what the headers give, so that macros are expanded at least once.
cat >"$tmp/use.h" <<'EOT'
struct item {
	struct list_head node;
	u32 v ____cacheline_aligned;
	u8 tab[6];
};
int use_all(struct item *it, const void *buf, unsigned long *bits);
int use_all(struct item *it, const void *buf, unsigned long *bits)
{
	LIST_HEAD(head);
	struct item *pos;
	u64 sum = 0;

	list_add_tail(&it->node, &head);
	list_for_each_entry(pos, &head, node)
		sum += pos->v;
	set_bit(3, bits);
	sum += min_t(u32, get_unaligned_le32(buf), 7) + max(sum, (u64)1);
	sum += clamp(sum, (u64)1, (u64)9) + round_up(sum, 64) +
	       ALIGN(sum, 8) + DIV_ROUND_UP(sum, 3) + BIT(2) +
	       GENMASK(7, 4) + upper_32_bits(sum) + lower_32_bits(sum) +
	       ARRAY_SIZE(it->tab) +
	       le32_to_cpu(cpu_to_le32(5)) + fls(9) + hweight32(7);
	if (WARN_ON(sum == 0))
		return -EINVAL;
	return (int)sum + container_of(&it->node, struct item, node)->v;
}
EOT

for c in gcc clang; do
	if ! command -v $c >/dev/null 2>&1; then
		skip "$c: not installed"
		continue
	fi
	for order in first last; do
		if [ $order = first ]; then
			{ cat "$tmp/all.h"; echo "$libc"; } >"$tmp/t.c"
		else
			{ echo "$libc"; cat "$tmp/all.h"; } >"$tmp/t.c"
		fi
		cat "$tmp/use.h" >>"$tmp/t.c"
		if CC=$c "$dcc" $mode -std=gnu11 -Wall -Wextra \
			-Wno-unused-parameter -Werror -O2 -c "$tmp/t.c" \
			-o "$tmp/t.o" >"$tmp/log" 2>&1; then
			ok "$c: the $n headers in one file, C library's $order, -Wall -Wextra -Werror"
		else
			not_ok "$c: the $n headers in one file, C library's $order, -Wall -Wextra -Werror"
			sed 's/^/# /' "$tmp/log" | head -40
		fi
	done
done

# The error numbers and ERR_PTR() come with <linux/dma-mapping.h> alone,
# as in the kernel.
printf '#include <linux/dma-mapping.h>\nint f(void *p);\nint f(void *p)\n{\n\treturn IS_ERR(p) ? -EPROBE_DEFER : -ENOMEM + ENOTSUPP;\n}\n' \
	>"$tmp/e.c"
check "<linux/dma-mapping.h> alone gives the error numbers and IS_ERR()" \
	"$dcc" $mode -Wall -Werror -c "$tmp/e.c" -o "$tmp/e.o"
# As the kernel's, ARRAY_SIZE() of a pointer and a true BUILD_BUG_ON()
# do not compile.
printf '#include <linux/kernel.h>\nint f(int *p);\nint f(int *p)\n{\n\treturn (int)ARRAY_SIZE(p);\n}\n' \
	>"$tmp/a.c"
check "ARRAY_SIZE() of a pointer is a compile error" \
	sh -c "! '$dcc' $mode -c '$tmp/a.c' -o '$tmp/a.o' 2>/dev/null"
printf '#include <linux/bug.h>\nvoid f(void);\nvoid f(void)\n{\n\tBUILD_BUG_ON(sizeof(int) == 4);\n}\n' \
	>"$tmp/b.c"
check "a true BUILD_BUG_ON() is a compile error" \
	sh -c "! '$dcc' $mode -c '$tmp/b.c' -o '$tmp/b.o' 2>/dev/null"

# compile_fail HEADER TEXT: including HEADER fails, with TEXT said once.
compile_fail() {
	printf '#include <%s>\nint x;\n' "$1" >"$tmp/f.c"
	if "$dcc" $mode -c "$tmp/f.c" -o "$tmp/f.o" >"$tmp/log" 2>&1; then
		not_ok "<$1> stops the build"
		return
	fi
	count=$(grep -c "error: .*<$1> $2" "$tmp/log")
	if [ "$count" = 1 ]; then
		ok "<$1> stops the build: \"$2\", said once"
	else
		not_ok "<$1> stops the build: \"$2\", said once (said $count times)"
		sed 's/^/# /' "$tmp/log" | head -10
	fi
}

compile_fail linux/netdev_features.h "is part of the networking stack"
compile_fail linux/if_vlan.h "is part of the networking stack"
compile_fail linux/phy.h "is part of the networking stack"
compile_fail linux/mmc/host.h "is part of MMC/SD"
compile_fail linux/usb.h "is part of USB"
compile_fail linux/usb/hcd.h "is part of USB"
compile_fail drm/drm_gem_cma_helper.h "is part of DRM"
compile_fail media/videobuf2-dma-contig.h "is part of V4L2"
compile_fail linux/videodev2.h "is part of V4L2"
compile_fail sound/pcm.h "is part of ALSA"
compile_fail sound/memalloc.h "is part of ALSA"
compile_fail linux/of_dma.h "is part of the device tree"
# Headers nobody listed: the host has them, dmaemu does not.
compile_fail linux/serial.h "is not one of dmaemu's kernel headers"
compile_fail linux/input-event-codes.h "is not one of dmaemu's kernel headers"
compile_fail asm/ptrace.h "is not one of dmaemu's kernel headers"

# Without the guard, the same file took the host's header silently.
printf '#include <linux/serial.h>\nint x;\n' >"$tmp/f.c"
check "without the guard, <linux/serial.h> was the host's (what the guard stops)" \
	sh -c "gcc -I'$kdir' -E '$tmp/f.c' | grep -q '/usr/include/linux/serial.h'"

# A stub of the user's own comes before the guard.
mkdir -p "$tmp/stubs/linux"
printf '#define STUB_NETDEVICE 1\nstruct phy_device;\n' \
	>"$tmp/stubs/linux/phy.h"
printf '#include <linux/phy.h>\n#if !STUB_NETDEVICE\n#error no stub\n#endif\nint x;\n' \
	>"$tmp/f.c"
check "a stub in a folder given with -I is taken instead" \
	"$dcc" $mode -I"$tmp/stubs" -Wall -Werror -c "$tmp/f.c" -o "$tmp/f.o"

# The guard has every host header dmaemu does not give, but those the C
# library includes.
check "the guard covers the host's headers (more than 100)" \
	[ "$(cat "$guard/.count")" -gt 100 ]
check "the C library's own kernel headers are let through (<linux/limits.h>)" \
	[ ! -e "$guard/linux/limits.h" ]
check "no header dmaemu provides is guarded" sh -c "
	for h in $(echo $headers); do [ -e '$guard/'\$h ] && exit 1; done; exit 0"
done_testing
