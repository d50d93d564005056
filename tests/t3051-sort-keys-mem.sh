#!/usr/bin/env bash
# report --mem-mode and the memory keys (symbol_daddr, dso_daddr,
# symbol_iaddr, dcacheline, mem, tlb, snoop, locked, blocked, phys_daddr,
# data_page_size), and transaction, as perf 6.1's report --stdio prints
# them, line for line: on page faults recorded by perf with their data
# addresses (-d --phys-data --data-page-size -W --transaction), the same
# file with data sources and transaction flags written into its samples
# (this machine's software events carry none), mperf's own recording and
# the corpus's WEIGHT_STRUCT file; the refusals; the JSON fields.
. "$(dirname "$0")/lib.sh"

# A fresh buffer's pages fault one by one: many distinct data addresses.
memwork="ls -l /usr/include/linux >/dev/null; dd if=/dev/zero of=/dev/null bs=4M count=2 status=none"

# memsrc.py IN OUT: each sample's data_src in turn from a list of
# encodings (levels, level numbers, remote and hops, snoops, TLB, lock,
# blocking) and its transaction from a list of flags; the samples must
# have fixed-size fields only.
write_memsrc () {
	cat >memsrc.py <<-\EOF
	import struct, sys
	b = bytearray(open(sys.argv[1], "rb").read())
	assert b[:8] == b"PERFILE2"
	attr_size = struct.unpack_from("<Q", b, 16)[0]
	a_off, a_size, d_off, d_size = struct.unpack_from("<QQQQ", b, 24)
	st = struct.unpack_from("<Q", b, a_off + 24)[0]
	assert a_size == attr_size and not st & 0x143c30, hex(st)
	DATA_SRC, TXN = 1 << 15, 1 << 17
	offs, o = {}, 0
	for bit in (0, 1, 2, 3, 16, 6, 9, 7, 8, 14, 24, 15, 17, 19, 21, 22, 23):
	    if st & (1 << bit):
	        offs[1 << bit], o = o, o + 8
	def S(op=2, lvl=0, snoop=0, lock=0, tlb=0, num=0, rem=0, snx=0, blk=0, hops=0):
	    return (op | lvl << 5 | snoop << 19 | lock << 24 | tlb << 26 | num << 33 |
	            rem << 37 | snx << 38 | blk << 40 | hops << 43)
	srcs = [S(lvl=0x0a, snoop=2, lock=1, tlb=0x0a, blk=1), S(lvl=0x24, snoop=4, lock=2, tlb=0x34, blk=2),
	        S(op=4, lvl=0x42, snoop=0x10, tlb=2, blk=4, num=3), S(lvl=2, num=1, snoop=8, snx=1, tlb=0x44),
	        S(lvl=0x82, num=0x0d, rem=1, hops=2, snoop=4, snx=2), S(lvl=0x304, snoop=1, lock=2, blk=6),
	        S(lvl=0x12, num=0x0c, snoop=2), S(lvl=0x2402, num=0x0b), S(op=8, lvl=1, num=0x0f, snoop=1, lock=1, tlb=1, blk=1),
	        S(lvl=2, num=0x0a, rem=1), S(lvl=2, num=9, hops=1, rem=1), S(lvl=4, num=0x0e, hops=4),
	        S(lvl=2, num=4, snx=3, tlb=0x7f), S(lvl=0x3a, snoop=0x1f, tlb=0x7f, lock=3, blk=7),
	        S(lvl=0x1002, num=8), S(lvl=4, num=5, hops=3), S(op=0), S(lvl=0x0a, rem=1)]
	txns = [0, 5, 10, 0x30 | 5 << 32, 0xc4, 2, 0xff | 0xab << 32]
	pos, i = d_off, 0
	while pos < d_off + d_size:
	    typ, misc, size = struct.unpack_from("<IHH", b, pos)
	    assert size >= 8
	    if typ == 9:
	        for bit, vals in ((DATA_SRC, srcs), (TXN, txns)):
	            if bit in offs:
	                struct.pack_into("<Q", b, pos + 8 + offs[bit], vals[i % len(vals)])
	        i += 1
	    pos += size
	open(sys.argv[2], "wb").write(b)
	EOF
}

test_expect_success PERF 'page faults recorded by perf with their data addresses' '
	perf_record -o pf.data -e page-faults -c 1 -d --phys-data --data-page-size --code-page-size \
		-W --transaction sh -c "$memwork" &&
	"$PERF" evlist -v -i pf.data | grep -q "ADDR|DATA_SRC|PHYS_ADDR|DATA_PAGE_SIZE" &&
	write_memsrc && python3 memsrc.py pf.data ds.data
'

test_expect_success PERF '--mem-mode: perf'"'"'s default order, the weights, the header' '
	same_report pf.data --mem-mode &&
	grep -q "^# Total weight : [0-9]" mperf.out &&
	grep -q "^# Sort order   : local_weight,mem,sym,dso,symbol_daddr,dso_daddr,snoop,tlb,locked,blocked,local_ins_lat,local_p_stage_cyc\$" mperf.out &&
	grep -q "^# Overhead  Local Weight  Memory access  *Symbol  *Shared Object  *Data Symbol  *Data Object  *Snoop  *TLB access  *Locked  Blocked     Local INSTR Latency *\$" mperf.out &&
	same_report pf.data --mem-mode -n --sort +phys_daddr &&
	same_report pf.data --mem-mode --sort +symbol
'

test_expect_success PERF 'where the data lies: symbol_daddr, dso_daddr, dcacheline, symbol_iaddr' '
	same_report pf.data --mem-mode --sort dso_daddr,dcacheline,symbol_daddr &&
	grep -q "^ *[0-9.]*%  [^ ]* *\[X\] 0x0000" mperf.out &&
	grep -q "  \[\.\] [a-z_]*+0x[0-9a-f]*  " mperf.out &&
	same_report pf.data --mem-mode --sort symbol_iaddr,dso -n &&
	same_report pf.data --mem-mode --sort mem,dso,sym
'

test_expect_success PERF 'phys_daddr, data_page_size, the data source keys of software events' '
	same_report pf.data --mem-mode --sort phys_daddr,data_page_size,blocked,tlb,snoop,locked,comm &&
	grep -q "^ *[0-9.]*%  \[[.k]\] 0x[0-9a-f]\{16\}  4K  " mperf.out
'

test_expect_success PERF 'data sources and transaction flags of every kind, as perf names them' '
	same_report ds.data --mem-mode --sort mem &&
	grep -q "Remote node, same socket RAM hit" mperf.out &&
	grep -q "LFB/MAB or LFB/MAB hit" mperf.out &&
	same_report ds.data --mem-mode --sort tlb,snoop,locked,blocked -n &&
	same_report ds.data --mem-mode &&
	same_report ds.data --sort transaction,comm -n &&
	grep -q "EL TX SYNC ASYNC RETRY CON CAP-WRITE CAP-READ :ab" mperf.out &&
	same_report pf.data --sort transaction
'

test_expect_success PERF 'a file mperf recorded with -d -W' '
	"$MPERF" record -q -o mr.data -e page-faults -c 1 -d -W -- sh -c "$memwork" &&
	same_report mr.data --mem-mode &&
	same_report mr.data --mem-mode --sort dcacheline,dso_daddr,symbol_iaddr
'

test_expect_success PERF,CORPUS 'the corpus'"'"'s WEIGHT_STRUCT file' '
	corpus_report perf.data.weight_struct --mem-mode --sort +dcacheline,phys_daddr
'

test_expect_success PERF 'refused as perf refuses: a memory key without --mem-mode, --mem-mode without data sources' '
	test_expect_code 129 "$MPERF" report -i pf.data --sort mem,sym >out 2>err &&
	test_must_be_empty out &&
	grep -q "^mperf report: invalid --sort key .mem.: a memory key, for --mem-mode" err &&
	"$PERF" report --stdio -i pf.data --sort mem,sym 2>&1 | grep -q "Invalid --sort key" &&
	perf_record -o plain.data -e page-faults true &&
	test_expect_code 129 "$MPERF" report -i plain.data --mem-mode >out 2>err &&
	test_must_be_empty out &&
	grep -q "no memory data for --mem-mode" err && test_line_count = 1 err &&
	"$PERF" report --stdio -i plain.data --mem-mode 2>&1 | grep -q "Selected --mem-mode but no mem data" &&
	test_expect_code 129 "$MPERF" report -i pf.data --mem-mode -b 2>err &&
	grep -q "cannot be used together" err
'

test_expect_success PERF '--sort with perf'"'"'s value keys, as perf' '
	same_report pf.data --sort overhead_sys,sample,dso,period -n
'

test_expect_success PERF '--json: the memory keys'"'"' fields' '
	"$MPERF" report -i ds.data --mem-mode --json \
		--sort mem,tlb,snoop,locked,blocked,dcacheline,dso_daddr,symbol_daddr,symbol_iaddr,phys_daddr,data_page_size,transaction >k.json &&
	python3 -c "
import json
d = json.load(open(\"k.json\"))
rows = d[\"events\"][0][\"rows\"]
for k in (\"mem\", \"tlb\", \"snoop\", \"locked\", \"blocked\", \"dcacheline\", \"dso-daddr\", \"daddr\",
          \"daddr-symbol\", \"iaddr\", \"phys-daddr\", \"data-page-size\", \"transaction\", \"transaction-flags\"):
    assert k in rows[0], k
assert any(r[\"mem\"] == \"Remote node, same socket RAM hit\" for r in rows)
assert any(r[\"locked\"] == \"Yes\" for r in rows)
"
'

test_done
