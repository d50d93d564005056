# bash completion for mperf(1): commands, options, and -e's event names
# from `mperf list` (this machine's).  Installed by `make install` as
# $(prefix)/share/bash-completion/completions/mperf; source it to try it.

# The long and short options of a command, read from its -h text.
_mperf_options()
{
	"${1:-mperf}" "$2" -h 2>/dev/null |
		sed -n 's/^ *\(-[a-zA-Z]\), \(--[a-z][a-z-]*\).*/\1 \2/p; s/^ \{1,8\}\(--[a-z][a-z-]*\).*/\1/p'
}

# Event names, as -e takes them: each name of `mperf list` (both sides of
# "A OR B"), the syntax lines left out.
_mperf_events()
{
	"${1:-mperf}" list 2>/dev/null |
		sed -n 's/^  \(.*[^ ]\) *\[[^]]*\]$/\1/p' |
		sed 's/ OR /\n/' | grep -v '[<[]\|^rNNN$'
}

# -e's argument, a list: its last element completed as an event name.
_mperf_complete_events()
{
	local head= last=$2
	if [[ $2 == *,* ]]; then
		head=${2%,*},
		last=${2##*,}
	fi
	local IFS=$'\n'
	COMPREPLY=($(compgen -P "$head" -W "$(_mperf_events "$1")" -- "$last"))
}

# The commands, as mperf --help lists them.
_mperf_commands()
{
	"${1:-mperf}" --help 2>/dev/null | sed -n 's/^   \([a-z][a-z-]*\) .*/\1/p'
}

_mperf()
{
	local cur prev cmd i mperf=${COMP_WORDS[0]}
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD-1]}
	COMPREPLY=()

	# The command is the first word that is not an option.
	cmd=
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		-*) ;;
		*) cmd=${COMP_WORDS[i]}; break ;;
		esac
	done

	if [[ -z $cmd ]]; then
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W '--help --version -h' -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$(_mperf_commands "$mperf") help" -- "$cur"))
		fi
		return 0
	fi

	case $cmd in
	help)
		COMPREPLY=($(compgen -W "$(_mperf_commands "$mperf")" -- "$cur"))
		return 0
		;;
	list)
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W '-h --help' -- "$cur"))
		else
			COMPREPLY=($(compgen -W 'hw sw cache pmu tracepoint' -- "$cur"))
		fi
		return 0
		;;
	record)
		case $prev in
		-e|--event)
			_mperf_complete_events "$mperf" "$cur"
			return 0
			;;
		-o|--output|--baseline)
			COMPREPLY=($(compgen -f -- "$cur"))
			return 0
			;;
		-p|--pid|-t|--tid|-F|--freq|-c|--count|-m|--mmap-pages|-C|--cpu|--filter|--alpha)
			return 0
			;;
		esac
		# After the workload's name, the workload's arguments: files.
		for ((i = 2; i < COMP_CWORD; i++)); do
			case ${COMP_WORDS[i]} in
			--) COMPREPLY=($(compgen -c -- "$cur")); return 0 ;;
			-e|--event|-o|--output|-p|--pid|-t|--tid|-F|--freq|-c|--count|-m|--mmap-pages|-C|--cpu|--filter|--baseline|--alpha)
				((i++)) ;;
			-*) ;;
			*) COMPREPLY=($(compgen -f -- "$cur")); return 0 ;;
			esac
		done
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "$(_mperf_options "$mperf" record)" -- "$cur"))
		else
			COMPREPLY=($(compgen -c -- "$cur"))
		fi
		return 0
		;;
	top)
		case $prev in
		-e|--event)
			_mperf_complete_events "$mperf" "$cur"
			return 0
			;;
		-s|--sort)
			COMPREPLY=($(compgen -W 'comm pid dso sym cpu socket symbol_size dso,sym comm,dso,sym' -- "$cur"))
			return 0
			;;
		--call-graph)
			COMPREPLY=($(compgen -W 'fp' -- "$cur"))
			return 0
			;;
		-p|--pid|-t|--tid|-F|--freq|-c|--count|-m|--mmap-pages|-C|--cpu|-d|--delay|-E|--entries|--percent-limit)
			return 0
			;;
		esac
		COMPREPLY=($(compgen -W "$(_mperf_options "$mperf" top)" -- "$cur"))
		return 0
		;;
	report)
		# --format=FMT in one word
		if [[ $cur == --format=* ]]; then
			COMPREPLY=($(compgen -P --format= -W 'folded svg pprof' -- "${cur#--format=}"))
			return 0
		fi
		case $prev in
		-i|--input|-o|--output)
			COMPREPLY=($(compgen -f -- "$cur"))
			return 0
			;;
		--format)
			COMPREPLY=($(compgen -W 'folded svg pprof' -- "$cur"))
			return 0
			;;
		-s|--sort)
			COMPREPLY=($(compgen -W 'comm pid dso sym cpu socket symbol_size srcline srcfile dso_size parent cgroup cgroup_id trace time addr
				local_weight weight transaction code_page_size local_ins_lat ins_lat local_p_stage_cyc p_stage_cyc
				symbol_daddr dso_daddr symbol_iaddr dcacheline mem tlb snoop locked blocked phys_daddr data_page_size
				overhead overhead_sys overhead_us overhead_guest_sys overhead_guest_us overhead_children sample period
				comm,dso,sym dso,sym +pid dso_from dso_to symbol_from symbol_to mispredict in_tx abort cycles
				srcline_from srcline_to addr_from addr_to' -- "$cur"))
			return 0
			;;
		-F|--fields)
			COMPREPLY=($(compgen -W 'overhead overhead_sys overhead_us overhead_guest_sys overhead_guest_us overhead_children
				sample period comm pid dso sym cpu socket symbol_size srcline srcfile dso_size parent cgroup cgroup_id trace
				time addr ipc_null dso_from dso_to symbol_from symbol_to mispredict in_tx abort cycles srcline_from srcline_to addr_from addr_to
				overhead,sym +sample +period' -- "$cur"))
			return 0
			;;
		--percentage)
			COMPREPLY=($(compgen -W 'relative absolute' -- "$cur"))
			return 0
			;;
		--percent-limit|-c|--comms|--comm|-d|--dsos|--dso|-S|--symbols|--pid|--tid|--group-sort-idx|-p|--parent)
			return 0
			;;
		--time-quantum)
			COMPREPLY=($(compgen -W '100ms 10ms 1s' -- "$cur"))
			return 0
			;;
		esac
		COMPREPLY=($(compgen -W "$(_mperf_options "$mperf" report)" -- "$cur"))
		return 0
		;;
	diff)
		case $prev in
		-s|--sort)
			COMPREPLY=($(compgen -W 'comm pid dso symbol cpu dso,symbol comm,dso,symbol' -- "$cur"))
			return 0
			;;
		-c|--compute)
			COMPREPLY=($(compgen -W 'delta delta-abs ratio wdiff:' -- "$cur"))
			return 0
			;;
		-o|--order)
			COMPREPLY=($(compgen -W '0 1' -- "$cur"))
			return 0
			;;
		--percentage)
			COMPREPLY=($(compgen -W 'relative absolute' -- "$cur"))
			return 0
			;;
		-C|--comms|-d|--dsos)
			return 0
			;;
		esac
		# The two files, old then new.
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "$(_mperf_options "$mperf" diff)" -- "$cur"))
		else
			COMPREPLY=($(compgen -f -- "$cur"))
		fi
		return 0
		;;
	archive)
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "$(_mperf_options "$mperf" archive)" -- "$cur"))
		else
			COMPREPLY=($(compgen -f -- "$cur"))
		fi
		return 0
		;;
	buildid-list)
		case $prev in
		-i|--input)
			COMPREPLY=($(compgen -f -- "$cur"))
			return 0
			;;
		esac
		COMPREPLY=($(compgen -W "$(_mperf_options "$mperf" buildid-list)" -- "$cur"))
		return 0
		;;
	script)
		case $prev in
		-i|--input|-k|--vmlinux|--kallsyms)
			COMPREPLY=($(compgen -f -- "$cur"))
			return 0
			;;
		-F|--fields)
			COMPREPLY=($(compgen -W 'comm tid pid time cpu event trace ip sym symoff dso period
				srcline misc insn insnlen flags ipc callindent
				+srcline +misc +insn +insnlen +flags +ipc +callindent hw: sw: trace: raw: break:' -- "$cur"))
			return 0
			;;
		esac
		COMPREPLY=($(compgen -W "$(_mperf_options "$mperf" script)" -- "$cur"))
		return 0
		;;
	*)
		# A command this script does not know yet: its options, from its -h.
		[[ $cur == -* ]] && COMPREPLY=($(compgen -W "$(_mperf_options "$mperf" "$cmd")" -- "$cur"))
		return 0
		;;
	esac
	return 0
}

complete -F _mperf mperf
