# The terminal tests' helpers, sourced after lib.sh: a real terminal in
# tmux at 120x40 (send-keys, capture-pane), for report's browser (t2007)
# and top's (t2008).  Prerequisite TMUX.
#
#   start CMD      a new terminal running CMD in a shell, in this directory
#   tm ARGS        tmux on the current terminal's server (tm send-keys -t t q)
#   screen         the pane as text, trailing blanks cut
#   wait_for RE    until a line of the pane matches (grep -E), up to 20 s; the pane in ./screen

have_tmux () { command -v tmux >/dev/null 2>&1; }

# Each start has a server of its own, its socket in the scratch directory
# (the last line of ./sockets): a server killed a moment ago may still
# hold the last one.
tm () { tmux -S "$(tail -n 1 "$TRASH_DIRECTORY/sockets")" -f /dev/null "$@"; }
tui_stop_all () {
	test -f "$TRASH_DIRECTORY/sockets" || return 0
	while read -r s; do tmux -S "$s" kill-server >/dev/null 2>&1; done <"$TRASH_DIRECTORY/sockets"
}
trap 'tui_stop_all; cd / >/dev/null 2>&1; rm -rf "$TRASH_DIRECTORY" "$test_out_" "$test_home_"' EXIT

screen () { tm capture-pane -p -t t | sed 's/ *$//'; }

wait_for () {
	local i=0
	while test $i -lt 200; do
		screen >screen
		grep -qE "$1" screen && return 0
		sleep 0.1
		i=$((i + 1))
	done
	echo "never saw /$1/ on the screen:" && cat screen
	return 1
}

start () {
	test -f "$TRASH_DIRECTORY/sockets" && tm kill-server >/dev/null 2>&1
	echo "$TRASH_DIRECTORY/tmux.$(wc -l <"$TRASH_DIRECTORY/sockets" 2>/dev/null || echo 0)" >>"$TRASH_DIRECTORY/sockets" &&
	tm new-session -d -x 120 -y 40 -s t -c "$PWD" "env -u NO_COLOR PS1='$ ' TERM=screen bash --norc --noprofile" &&
	tm send-keys -t t "$1" Enter
}
