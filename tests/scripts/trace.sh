#!/bin/sh
# trace.sh - the trace files of a real driver run: the copy engine's
# reference driver under sched=lockstep with one seed gives the same text
# trace twice (a trace is stable enough to diff two runs), with the
# driver's, the device's and the interrupt thread's events in their
# places; its JSON trace loads as a Chrome trace-event array (strict
# JSON: python3 -m json.tool reads it) with one named track per thread,
# events of the phases the format defines, timestamps that never go back
# on a track, each buffer's ownership spans matched begin to end, and the
# counters of dirty lines; with trace_buffer= large enough the same text
# trace as without, and with the cache group the lines' events; and
# docs/example-trace.json is still what such a run writes.
. "$top_srcdir/tests/runner/tap.sh"

[ -n "$SANITIZER" ] &&
	skip_all "a --enable-sanitizer=$SANITIZER build cannot run instrumented drivers"
prog="$top_builddir/examples/copy-engine/copy-engine"
[ -x "$prog" ] || skip_all "examples not built"

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

for i in 1 2; do
	DMAEMU_OPTIONS="trace=$tmp/t$i:sched=lockstep:seed=3" "$prog" arm64 \
		>"$tmp/out$i" 2>&1 || { sed 's/^/# /' "$tmp/out$i"; }
done
if [ -s "$tmp/t1" ] && cmp -s "$tmp/t1" "$tmp/t2"; then
	ok "two lockstep runs with one seed: the same trace ($(wc -l <"$tmp/t1") lines)"
else
	not_ok "two lockstep runs with one seed: the same trace"
	diff "$tmp/t1" "$tmp/t2" | head -20 | sed 's/^/# /'
fi
DMAEMU_OPTIONS="trace=$tmp/tb:trace_buffer=4m:sched=lockstep:seed=3" "$prog" arm64 \
	>"$tmp/outb" 2>&1 || sed 's/^/# /' "$tmp/outb"
if [ -s "$tmp/tb" ] && cmp -s "$tmp/t1" "$tmp/tb"; then
	ok "trace_buffer=4m: the same trace, written at the end"
else
	not_ok "trace_buffer=4m: the same trace, written at the end"
	diff "$tmp/t1" "$tmp/tb" | head -20 | sed 's/^/# /'
fi
DMAEMU_OPTIONS="trace=$tmp/tc:trace_events=all:sched=lockstep:seed=3" "$prog" arm64 \
	>"$tmp/outc" 2>&1 || sed 's/^/# /' "$tmp/outc"
if grep -q ': cache_fill: line=0x[0-9a-f]* from=' "$tmp/tc" &&
	grep -q ': cache_clean: phys=0x' "$tmp/tc" &&
	! grep -q ': cache_' "$tmp/t1"; then
	ok "trace_events=all adds the cache group's events ($(grep -c ': cache_' "$tmp/tc") of them)"
else
	not_ok "trace_events=all adds the cache group's events"
fi
for want in ' drv-1 \[cpu\] [0-9]*\.[0-9]\{6\}: dma_map_single: dev=ce0 dir=DMA_TO_DEVICE ' \
	'ce0-dev \[dev\] [0-9.]*: dma_read: dev=ce0 addr=0x' \
	'ce0-dev \[dev\] [0-9.]*: irq_raise: dev=ce0 line=0 ' \
	' irq \[irq\] [0-9.]*: irq_handler_entry: irq=' \
	' irq \[irq\] [0-9.]*: irq_handler_exit: irq=[0-9]* ret=handled'; do
	if grep -q "$want" "$tmp/t1"; then
		ok "the trace has: $want"
	else
		not_ok "the trace has: $want"
	fi
done

if ! command -v python3 >/dev/null 2>&1; then
	skip "JSON trace (python3 not found)"
	done_testing
	exit
fi
DMAEMU_OPTIONS="trace=$tmp/t.json:trace_format=json:sched=lockstep:seed=3" \
	"$prog" arm64 >"$tmp/outj" 2>&1
if python3 - "$tmp/t.json" >"$tmp/py" 2>&1 <<'PY'
import json, sys
text = open(sys.argv[1]).read()
assert text.startswith('['), 'not an array'
ev = json.loads(text)  # strict: the array is closed at machine destroy
names = sorted(e['args']['name'] for e in ev if e['ph'] == 'M')
assert names == ['ce0-dev', 'drv-1', 'irq'], names
tids = {e['args']['name']: e['tid'] for e in ev if e['ph'] == 'M'}
inst = [e for e in ev if e['ph'] == 'i']
assert all(isinstance(e['ts'], (int, float)) for e in inst)
assert any(e['name'] == 'dma_read' and e['tid'] == tids['ce0-dev'] for e in inst)
assert any(e['name'] == 'irq_handler_entry' and e['tid'] == tids['irq'] for e in inst)
assert {e['ph'] for e in ev} <= {'M', 'i', 'b', 'e', 'C'}, {e['ph'] for e in ev}
last = {}
for e in ev:
    if e['ph'] == 'M':
        continue
    assert e['ts'] >= last.get(e['tid'], 0), ('time goes back', e)
    last[e['tid']] = e['ts']
open_spans = {}
spans = 0
for e in ev:
    if e['ph'] == 'b':
        key = (e['cat'], e['id'])
        assert key not in open_spans, ('begun twice', e)
        assert e['args']['owner'] in ('cpu', 'device'), e
        open_spans[key] = e['name']
        spans += 1
    elif e['ph'] == 'e':
        key = (e['cat'], e['id'])
        assert open_spans.get(key) == e['name'], ('end without begin', e)
        del open_spans[key]
assert not open_spans, ('never ended', open_spans)
assert spans > 0
owners = {e['args']['owner'] for e in ev if e['ph'] == 'b'}
assert owners == {'cpu', 'device'}, owners
ctr = [e for e in ev if e['ph'] == 'C']
assert any(e['name'] == 'dirty lines' and 'L1' in e['args'] for e in ctr), ctr
print(len(ev), 'records,', spans, 'ownership spans matched')
PY
then
	ok "the JSON trace loads: $(cat "$tmp/py"), one named track per thread"
else
	not_ok "the JSON trace loads"
	sed 's/^/# /' "$tmp/py"
fi
# docs/example-trace.json is this run's trace: it stays what the library
# writes (regenerate it with the command below when the format changes).
ex="sched=lockstep:seed=1:device_timing=latency=2us,bandwidth=2G:trace_format=json:trace_events=dma,device,irq"
DMAEMU_OPTIONS="$ex:trace=$tmp/ex.json" "$prog" arm64 >"$tmp/outx" 2>&1 ||
	sed 's/^/# /' "$tmp/outx"
# The dirty-lines counters depend on the compiler's code for the driver
# (what of its stack goes through the cache model): they are left out.
if python3 - "$tmp/ex.json" "$top_srcdir/docs/example-trace.json" <<'PY'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
def events(ev):
    return [e for e in ev if e['ph'] != 'C']
sys.exit(0 if events(a) == events(b) else 1)
PY
then
	ok "docs/example-trace.json is what the library writes (but counters)"
else
	not_ok "docs/example-trace.json is what the library writes"
	diag "regenerate: DMAEMU_OPTIONS=$ex:trace=docs/example-trace.json examples/copy-engine/copy-engine arm64"
fi
if python3 -m json.tool "$tmp/t.json" >/dev/null 2>"$tmp/jt"; then
	ok "python3 -m json.tool accepts the JSON trace"
else
	not_ok "python3 -m json.tool accepts the JSON trace"
	sed 's/^/# /' "$tmp/jt"
fi
done_testing
