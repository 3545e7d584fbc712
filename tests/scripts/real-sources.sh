#!/bin/sh
# real-sources.sh - tools/real-sources.sh, the table of which C sources
# under a directory compile with dmaemu's kernel headers alone
# (docs/kernel-headers.md, "Real driver sources"), on a small tree of
# drivers written for this test: one that compiles (a NIC driver's ring
# code with the networking basics, ethtool and CRC-32), one stopped by a
# subsystem's guard, one including a header nobody has, one using a name
# newer than 4.14, one with a syntax error in a subfolder; by GCC and by
# Clang; the level, extra arguments and bad input.
. "$top_srcdir/tests/runner/tap.sh"

top_builddir=$(cd "$top_builddir" && pwd)
dcc=$top_builddir/tools/dmaemu-cc
tool=$top_srcdir/tools/real-sources.sh
[ -f "$top_builddir/include/dmaemu/kernel-guard/.count" ] ||
	skip_all "no guard headers built"
[ -n "$SANITIZER" ] && skip_all "dmaemu-cc refuses instrumented builds in a sanitizer build"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/realsrc-test.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
unset DMAEMU_CC_KIND DMAEMU_CC_UNINSTALLED

tree=$tmp/drivers
mkdir -p "$tree/net/sub" "$tree/empty"
cat >"$tree/net/ring.c" <<'EOF'
#include <linux/dma-mapping.h>
#include <linux/etherdevice.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include "ring.h"

static u32 ring_link(struct net_device *dev)
{
	return ethtool_op_get_link(dev);
}

static const struct ethtool_ops ring_ethtool_ops = {
	.get_link = ring_link,
};

static netdev_tx_t ring_xmit(struct sk_buff *skb, struct net_device *dev)
{
	struct ring_priv *rp = netdev_priv(dev);
	dma_addr_t a = dma_map_single(dev->dev.parent, skb->data, skb->len,
				      DMA_TO_DEVICE);

	if (dma_mapping_error(dev->dev.parent, a)) {
		dev_kfree_skb_any(skb);
		return NETDEV_TX_OK;
	}
	rp->desc[rp->head % RING_SIZE] = cpu_to_le32((u32)a);
	rp->hash = ether_crc(ETH_ALEN, dev->dev_addr) >> 26;
	rp->head++;
	return NETDEV_TX_OK;
}

static const struct net_device_ops ring_ops = {
	.ndo_start_xmit = ring_xmit,
};

void ring_setup(struct net_device *dev);
void ring_setup(struct net_device *dev)
{
	dev->netdev_ops = &ring_ops;
	dev->ethtool_ops = &ring_ethtool_ops;
}
MODULE_LICENSE("GPL");
EOF
cat >"$tree/net/ring.h" <<'EOF'
#define RING_SIZE 16
struct ring_priv {
	__le32 desc[RING_SIZE];
	unsigned int head;
	u32 hash;
};
EOF
cat >"$tree/net/phy-user.c" <<'EOF'
#include <linux/netdevice.h>
#include <linux/phy.h>
int phy_user;
EOF
cat >"$tree/net/unknown.c" <<'EOF'
#include <linux/kernel.h>
#include <linux/no-such-header.h>
int unknown;
EOF
cat >"$tree/net/newer.c" <<'EOF'
#include <linux/interrupt.h>
unsigned long newer_flags = IRQF_NO_AUTOEN;
EOF
cat >"$tree/net/sub/broken.c" <<'EOF'
#include <linux/kernel.h>
int broken(void)
{
	return 1 +;
}
EOF

for c in gcc clang; do
	if ! command -v $c >/dev/null 2>&1; then
		skip "$c: not installed"
		continue
	fi
	"$tool" --cc=$c --dmaemu-cc="$dcc" "$tree" >"$tmp/out" 2>"$tmp/err"
	check "$c: exit status 0 when every file was tried" [ $? -eq 0 ]
	check "$c: the header line" [ "$(head -1 "$tmp/out")" = "$(printf 'file\tresult\tfirst error')" ]
	check "$c: one line per file, sorted, and the count" \
		[ "$(cut -f1 "$tmp/out" | sed '1d;$d' | sed "s|^$tree/||" | tr '\n' ' ')" = \
			"net/newer.c net/phy-user.c net/ring.c net/sub/broken.c net/unknown.c " ]
	check "$c: 1 of 5 compile" \
		[ "$(tail -1 "$tmp/out")" = "1 of 5 compile (dmaemu-cc --dmaemu-kernel=4.14, CC=$c)" ]
	check "$c: the ring driver compiles (networking basics, ethtool, CRC-32, its own header)" \
		grep -q "^$tree/net/ring.c	compiles	\$" "$tmp/out"
	check "$c: the guard's line, at the driver's #include, without its advice" \
		grep -q "^$tree/net/phy-user.c	fails	phy-user.c:2: <linux/phy.h> is part of the networking stack (PHY library), which dmaemu does not emulate\$" "$tmp/out"
	check "$c: a header nobody has, at its #include" \
		grep -q "^$tree/net/unknown.c	fails	unknown.c:2: .*no-such-header.h" "$tmp/out"
	check "$c: a name newer than 4.14 is not defined at 4.14" \
		grep -q "^$tree/net/newer.c	fails	newer.c:2: .*IRQF_NO_AUTOEN" "$tmp/out"
	check "$c: the first error of a file in a subfolder, at its line" \
		grep -q "^$tree/net/sub/broken.c	fails	broken.c:4: " "$tmp/out"
	check "$c: nothing on stderr" [ ! -s "$tmp/err" ]
done

# The level: at 6.12 the newer name exists.
"$tool" --level=6.12 --dmaemu-cc="$dcc" "$tree/net" >"$tmp/out" 2>&1
check "--level=6.12: the newer name compiles" \
	grep -q "^$tree/net/newer.c	compiles" "$tmp/out"
check "--level=6.12: 2 of 5, said in the count" \
	grep -q '^2 of 5 compile (dmaemu-cc --dmaemu-kernel=6.12' "$tmp/out"
# Arguments after --: a folder of stubs makes the guarded file compile.
mkdir -p "$tmp/stubs/linux"
echo 'struct phy_device;' >"$tmp/stubs/linux/phy.h"
"$tool" --dmaemu-cc="$dcc" "$tree/net" -- -I"$tmp/stubs" >"$tmp/out" 2>&1
check "-- -Istubs: the stub is taken" \
	grep -q "^$tree/net/phy-user.c	compiles" "$tmp/out"
# DMAEMU_CC instead of --dmaemu-cc.
DMAEMU_CC=$dcc "$tool" "$tree/net/sub" >"$tmp/out" 2>&1
check "DMAEMU_CC names the wrapper" grep -q '^0 of 1 compile' "$tmp/out"

# Bad input: a clear line and a non-zero status, never a table.
expect_usage_error() { # NAME STATUS PATTERN ARGS...
	name=$1 st=$2 pat=$3
	shift 3
	"$tool" "$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	if [ $got -eq "$st" ] && grep -q "$pat" "$tmp/err" && [ ! -s "$tmp/out" ]; then
		ok "$name"
	else
		not_ok "$name (status $got)"
		sed 's/^/# /' "$tmp/err" "$tmp/out"
	fi
}
expect_usage_error "an unknown level is refused" 2 "unknown level '5.0'" \
	--level=5.0 --dmaemu-cc="$dcc" "$tree"
expect_usage_error "a missing directory is refused" 2 "is not a directory" \
	--dmaemu-cc="$dcc" "$tmp/nowhere"
expect_usage_error "no directory is a usage error" 2 "no directory given" \
	--dmaemu-cc="$dcc"
expect_usage_error "an unknown option is refused" 2 "unknown option '--fast'" \
	--fast --dmaemu-cc="$dcc" "$tree"
expect_usage_error "a wrapper that is not there is refused" 2 "is not an executable dmaemu-cc" \
	--dmaemu-cc="$tmp/nope/dmaemu-cc" "$tree"
expect_usage_error "a directory without C sources says so" 1 "no C source" \
	--dmaemu-cc="$dcc" "$tree/empty"
"$tool" --help >"$tmp/out" 2>&1
check "--help prints the usage" grep -q '^Usage: real-sources.sh' "$tmp/out"
done_testing
