#!/bin/sh
# layers.sh - lib/'s layers depend downward only (docs/architecture.md).
#
# Rules, lowest layer first: base core mem cpu mm bus dma net, then lib/*.c on
# top (machine.c, the only file that builds and tears down every layer).
#   1. includes: a file of lib/ includes only its own layer's header and
#      lower ones ("layer/layer.h"); cachesim/ includes nothing of lib/ or
#      of the dmaemu headers;
#   2. calls: no object of lib/ uses a symbol defined by a higher layer
#      (from nm: an edge A -> B when A's object needs a symbol B's object
#      defines);
#   3. backends: the DMA backends (dma/direct.c, dma/swiotlb.c,
#      dma/iommu.c) use no symbol of another backend nor of the
#      dispatcher (dma/mapping.c);
#   4. cachesim's objects use no symbol of lib/.
# A violation is printed by file and symbol.  The last steps feed the same
# checker a listing with an upward call and a backend-to-backend call, and
# expect both found, so this test cannot pass by finding nothing.
. "$top_srcdir/tests/runner/tap.sh"

command -v nm >/dev/null 2>&1 || skip_all "nm not found"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

layers="base core mem cpu mm bus dma net top"

# --- 1. includes -----------------------------------------------------------
bad=
for f in $(cd "$top_srcdir" && find lib -name '*.[ch]' | sort); do
	dir=$(dirname "$f")
	own=top
	[ "$dir" = lib ] || own=$(basename "$dir")
	for inc in $(sed -n 's/^#include "\([a-z]*\)\/[a-z_]*\.h".*/\1/p' \
		"$top_srcdir/$f"); do
		case " $layers " in *" $inc "*) ;; *) continue ;; esac
		r_own=$(echo "$layers" | tr ' ' '\n' | grep -nx "$own" | cut -d: -f1)
		r_inc=$(echo "$layers" | tr ' ' '\n' | grep -nx "$inc" | cut -d: -f1)
		[ "$r_inc" -le "$r_own" ] || bad="$bad $f:includes:$inc/$inc.h"
	done
done
if [ -z "$bad" ]; then
	ok "every file of lib/ includes its own layer's header or lower ones"
else
	not_ok "includes of a higher layer:"
	diag $bad
fi

bad=$(cd "$top_srcdir" && grep -lE '#include ["<](dmaemu/|base/|core/|mem/|cpu/|mm/|bus/|dma/)' \
	cachesim/*.c cachesim/*.h 2>/dev/null | tr '\n' ' ')
if [ -z "$bad" ]; then
	ok "cachesim/ includes nothing of lib/"
else
	not_ok "cachesim/ includes lib/ headers: $bad"
fi

# --- 2-4. symbols ----------------------------------------------------------
# One line per symbol: "SOURCE LAYER D|U SYMBOL", SOURCE as lib/mem/lineops.c.
# The objects of DIR: libtool's PIC ones (.libs/) where they exist.  The
# fuzz targets' twin of the library (tests/fuzz/local.mk) compiles the same
# sources again with ASan, whose calls would look like calls into the
# kernel-address hooks: its objects (tests_fuzz_*) are left out.
list_objects() {
	find "$top_builddir/$1" -name '*.o' ! -name 'tests_fuzz_*' | sed 's#/\.libs/#/#' | sort -u |
		while read -r o; do
			p="$(dirname "$o")/.libs/$(basename "$o")"
			if [ -f "$p" ]; then echo "$p"; else echo "$o"; fi
		done
}
listing() { # DIR PREFIX-TO-STRIP
	for o in $(list_objects "$1"); do
		d=$(dirname "$o")
		d=${d%/.libs}
		d=${d#"$top_builddir"/}
		src=$(basename "$o" .o | sed 's/^.*_la-//')
		case $d in
		lib) layer=top ;;
		lib/*) layer=${d#lib/} ;;
		*) layer=cachesim ;;
		esac
		nm -P "$o" | awk -v s="$d/$src.c" -v l="$layer" '
			$2 == "U" { print s, l, "U", $1; next }
			$2 ~ /^[TDBRCVW]$/ { print s, l, "D", $1 }'
	done
}

# The checker: reads listings, prints one line per violation.
check_listing() {
	awk -v layers="$layers" '
	BEGIN { n = split(layers, L, " "); for (i = 1; i <= n; i++) rank[L[i]] = i
		backend["direct.c"] = backend["swiotlb.c"] = backend["iommu.c"] = 1 }
	function base(p,  a, k) { k = split(p, a, "/"); return a[k] }
	$3 == "D" { def[$4] = $1; deflayer[$4] = $2; next }
	$3 == "U" { use[++nu] = $0 }
	END {
		for (i = 1; i <= nu; i++) {
			split(use[i], f, " ")
			s = f[4]
			if (!(s in def) || def[s] == f[1])
				continue
			if (f[2] == "cachesim") {
				if (deflayer[s] != "cachesim")
					print f[1] " (cachesim) uses " s " of " def[s]
				continue
			}
			if (deflayer[s] == "cachesim")
				continue
			if (rank[deflayer[s]] > rank[f[2]])
				print f[1] " (" f[2] ") calls up: " s " of " def[s] " (" deflayer[s] ")"
			else if (f[2] == "dma" && deflayer[s] == "dma" &&
				 (base(f[1]) in backend) &&
				 ((base(def[s]) in backend) || base(def[s]) == "mapping.c"))
				print f[1] " (backend) uses " s " of " def[s]
		}
	}' "$@"
}

listing lib >"$tmp/lib"
listing cachesim >"$tmp/cachesim"
if [ ! -s "$tmp/lib" ]; then
	not_ok "no objects of lib/ found under $top_builddir/lib (build first)"
	done_testing
	exit
fi
ok "read the symbols of $(cut -d' ' -f1 "$tmp/lib" | sort -u | wc -l) files of lib/"

check_listing "$tmp/lib" "$tmp/cachesim" >"$tmp/bad"
if [ -s "$tmp/bad" ]; then
	not_ok "$(wc -l <"$tmp/bad") symbol edges break the layering:"
	diag "$(cat "$tmp/bad")"
else
	ok "no call goes up a layer, between backends, or from cachesim into lib/"
fi

# The checker finds a deliberately added upward call and a call between
# backends (synthetic listing: lineops.c using a cpu/ symbol, swiotlb.c
# using one of direct.c).
cat >"$tmp/synthetic" <<EOF
lib/cpu/cpu.c cpu D dmaemu__cpu_up
lib/mem/lineops.c mem U dmaemu__cpu_up
lib/dma/direct.c dma D dmaemu__direct_helper
lib/dma/swiotlb.c dma U dmaemu__direct_helper
lib/dma/mapping.c dma U dmaemu__direct_helper
EOF
check_listing "$tmp/synthetic" >"$tmp/found"
check "an upward call is reported by file and symbol" \
	grep -q "^lib/mem/lineops.c (mem) calls up: dmaemu__cpu_up of lib/cpu/cpu.c" "$tmp/found"
check "a call between backends is reported" \
	grep -q "^lib/dma/swiotlb.c (backend) uses dmaemu__direct_helper" "$tmp/found"
check "the dispatcher calling a backend is allowed" \
	test "$(wc -l <"$tmp/found")" -eq 2

done_testing
