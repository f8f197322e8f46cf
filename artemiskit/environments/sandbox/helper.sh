# ArtemisKit sandbox helper: the only program the sandbox runs (POSIX sh, busybox).
#
# Started once per container as `sh -c "$(cat sandbox_helper.sh)" helper WORK_DIR`.
# It serves file requests read from stdin, one at a time, and answers on stdout
# (C and S requests: on stderr, after the content moved on stdin or stdout).
# Requests are read and served by a worker forked ahead of them (see spawn).
#
# Requests: one header line, fields separated by one space. PATH is "~" and the
# relative path when it holds only [A-Za-z0-9._/-], else the base64 of the path
# followed by one "." (so trailing newlines survive the shell).
#   P                 ping                          -> OK
#   R PATH            read a file                   -> OK N, a newline, then exactly
#                                                      N raw bytes: the content;
#                                                      or OK +, a newline, then the
#                                                      raw bytes, their count N
#                                                      following as the line "N"
#                                                      on stderr (see op_read)
#   R PATH =S         read a file expected to hold  -> OK S, a newline, then the
#                     S > 0 bytes (one process,        file in blocks of S bytes
#                     forked ahead)                    (at most 2, the last padded
#                                                      with NULs), and dd's two
#                                                      record lines on stderr
#                                                      (see send_sized)
#   L PATH|-          list files under a directory  -> OK <base64 of NUL-ended paths>
#   W PATH N [+]      write a file; the header is followed by exactly N raw bytes
#                     of content (no newline)       -> OK
#                     "+" says the content holds many NUL bytes: dd copies it
#                     even when it is small (builtins take one step per NUL)
#   D PATH            delete a file                 -> OK
#   S PATH S          R PATH =S answered on stderr  -> the same blocks on stdout
#                     alone: no OK line; refusals      (no line before them), and
#                     as ERR lines on stderr           dd's two record lines on
#                                                      stderr (see send_sized)
#   C PATH N          W PATH N + answered on        -> dd's two record lines on
#                     stderr alone: N > 0              stderr, `1+0 records in`,
#                                                      `1+0 records out` exactly
#                                                      when all N bytes are in
#                                                      the file; otherwise, and
#                                                      for a refusal, the last
#                                                      stderr line is ERR <reason>
#                                                      (after dd's message and
#                                                      records if it ran)
# Content travels as raw bytes, framed by its length (no encoding, so NUL bytes,
# newlines and any byte survive, and no process encodes or decodes it). Every
# answer is one line (a read's content follows its line) except those of S and
# C, which end on stderr; stderr carries nothing but the count line of an `OK +`
# read, the record lines of an `R PATH =S` read, and the answers of S and C. A
# refusal is `ERR <reason>`, reason being one of
# not_found invalid_path is_directory not_a_directory environment_full. Anything
# else is a protocol error: the helper answers `ERR protocol` and exits.
#
# Paths are checked again here: relative, no "." / ".." / empty segments, at most
# 512 bytes, and no symbolic link anywhere on the way (links are never followed).
# Directories exist only as parents of files: the last delete in one removes it.

# fd 3 is the real stderr (the count of an `OK +` read, the records of a sized
# read); everything else's is discarded. Bytes, not characters: ${#v} and
# `read -n` count bytes.
exec 3>&2 2>/dev/null
export LC_ALL=C
umask 077
cd "$1" || exit 1

# Requests are served by a worker forked ahead of them (see spawn): the fork
# is off the round trip. A worker that ends tells the helper why through fd 7,
# a private pipe with no name in any file system (an empty here-document is a
# pipe; reopened read-write, it stays open). fd 9 is the helper's input, for
# the worker: a job started with & reads /dev/null.
exec 7<<EOF
EOF
exec 7<>/proc/self/fd/7 9<&0 || exit 1

# The largest content moved by shell builtins alone (no process): they handle
# one byte per system call, a process costs as much as a few hundred bytes.
small=512

ok() { printf 'OK%s\n' "${1:+ $1}"; }
err() { printf 'ERR %s\n' "$1" >&$answers; }
fatal() { err protocol; exit 2; }

# decode WIRE: sets $p to the checked path; fails on a bad path. A path of only
# [A-Za-z0-9._/-] comes as "~PATH" and needs no decoding (no process is started);
# any other path comes as base64.
decode() {
    case $1 in
        \~*)
            p=${1#?}
            case $p in *[!A-Za-z0-9._/-]*) return 1 ;; esac
            ;;
        '' | *[!A-Za-z0-9+/=]*) return 1 ;;
        *)
            p=$(base64 -d <<EOF
$1
EOF
) || return 1
            case $p in *.) p=${p%.} ;; *) return 1 ;; esac
            ;;
    esac
    case $p in
        '' | /* | */ | *//* | . | .. | ./* | ../* | */. | */.. | */./* | */../*) return 1 ;;
        *'\'*) return 1 ;;
    esac
    [ "${#p}" -le 512 ]
}

# walk PATH: checks every parent of PATH from the root down. Returns 0 when all are
# directories, 1 with $why set on a refusal, 2 when a parent does not exist.
walk() {
    rest=$1
    cur=
    while :; do
        case $rest in */*) ;; *) return 0 ;; esac
        seg=${rest%%/*}
        rest=${rest#*/}
        cur=${cur:+$cur/}$seg
        if [ -L "$cur" ]; then why=invalid_path; return 1; fi
        [ -e "$cur" ] || return 2
        if [ ! -d "$cur" ]; then why=not_a_directory; return 1; fi
    done
}

# prune PATH: removes the now-empty parent directories of PATH.
prune() {
    d=${1%/*}
    [ "$d" = "$1" ] || rmdir -p -- "$d" || :
}

# skip N: consumes a write payload that will not be used.
skip() {
    if [ "$1" -le $small ]; then
        take "$1" >/dev/null
    else
        dd bs="$1" count=1 iflag=fullblock of=/dev/null || exit 2
    fi
}

# take N: copies exactly N bytes from stdin to stdout with builtins only. `read
# -d ''` stops at each NUL, which printf writes back. All N bytes are consumed
# even when a write fails (then take fails); input ending midway ends the helper.
take() {
    left=$1
    failed=
    while [ "$left" -gt 0 ]; do
        IFS= read -r -d '' -n "$left" v || exit 2
        if [ "${#v}" = "$left" ]; then
            printf %s "$v" || failed=1
            left=0
        else
            printf '%s\0' "$v" || failed=1
            left=$((left - ${#v} - 1))
        fi
    done
    [ -z "$failed" ]
}

# spawn: forks the worker, which reads requests and serves them one at a time
# until one is a large write (C) or a sized read: that one it serves by
# becoming (exec, no further process) the dd that moves the content and sends
# the answer, so nothing waits for the helper. Just before, it reports that
# request's first two fields on fd 7 ("e" if its input ends instead); the
# helper reads the report once the worker has ended (see finish) and forks the
# next. $worker is its pid; when spawn forks none, the helper serves the next
# request itself. (A fork that fails ends busybox sh itself, and so the helper.)
spawn() {
    (
        exec 0<&9
        inline=1
        while serve; do :; done
        report e
        exit 0
    ) &
    worker=$!
}

# finish: waits for the worker, then acts on its status and report: ends the
# helper at end of input, after a protocol error, after a dd that failed to
# send a read, or if the worker was killed (the stream may be out of step);
# undoes a C write whose dd failed (a full tmpfs) and answers it.
finish() {
    wait "$worker"
    status=$?
    case $status in 0 | 1) ;; *) exit 2 ;; esac
    read -r op first <&7 || exit 2
    case $op:$status in
        e:0) exit 0 ;;
        [CRS]:0) ;;
        C:1)
            decode "$first" || exit 2
            rm -f -- "$p"; prune "$p"
            answers=3; err environment_full
            ;;
        *) exit 2 ;;
    esac
}

# report FIELDS: in a worker, tells the helper why it ends (just before it
# becomes a dd, or at end of input).
report() {
    [ -z "$inline" ] || printf '%s\n' "$*" >&7
}

# send_small: answers with the content of fd 4 when it has at most $small bytes
# and no NUL (read reaches its end: status 1); fails otherwise.
send_small() {
    IFS= read -r -d '' -n $((small + 1)) v <&4 && return 1
    printf 'OK %s\n%s' "${#v}" "$v"
}

# send_sized S: answers `OK S` (not for S requests), then one dd sends fd 5 in
# blocks of S bytes, at most two, the last padded with NULs, its record lines
# going to stderr: `1+0 records in` exactly when fd 5 held S bytes (one full
# block, then its end). Nothing follows, so the answer is complete when dd
# ends: a worker becomes that dd (a failing one ends the helper, see finish).
send_sized() {
    [ "$sized" = s ] || printf 'OK %s\n' "$1"
    if [ -n "$inline" ]; then
        report "$op" "$first"
        exec dd bs="$1" count=2 iflag=fullblock conv=sync <&5 2>&3
    fi
    dd bs="$1" count=2 iflag=fullblock conv=sync <&5 2>&3 || exit 2
}

# send_stream: answers `OK +`, then dd copies the content of fd 5 as it is, then
# its count goes to stderr: the offset dd left on the shared fd 5, so the count
# is exactly what dd sent even if the file changed meanwhile.
send_stream() {
    printf 'OK +\n'
    dd bs=65536 <&5 || exit 2
    read -r _ sent </proc/self/fdinfo/5 || exit 2
    printf '%s\n' "$sent" >&3
}

op_read() {
    expected=${2#=}
    case $2 in
        '') ;;
        =*) case $expected in '' | 0* | *[!0-9]*) fatal ;; esac ;;
        *) fatal ;;
    esac
    decode "$1" || { err invalid_path; return; }
    walk "$p"
    case $? in 1) err "$why"; return ;; 2) err not_found; return ;; esac
    if [ -L "$p" ]; then err invalid_path
    elif [ -d "$p" ]; then err is_directory
    elif [ ! -e "$p" ]; then err not_found
    elif [ ! -f "$p" ]; then err invalid_path
    elif [ ! -r "$p" ]; then err invalid_path
    else
        # Each answer is complete and in step whatever happens to the file: a
        # small one is read whole before its size is sent; dd's count is sent
        # after its bytes; an expected size is sent in whole blocks, then
        # dd's records say how many and whether they are the file. A failing
        # dd ends the helper: the host sees the stream end, never a frame out
        # of step. Opened: a failed open (the file went since the checks) runs
        # no command.
        opened=
        if [ -n "$expected" ]; then
            { opened=1; send_sized "$expected"; } 5<"$p"
        elif { opened=1; send_small; } 4<"$p"; then
            :
        elif [ -n "$opened" ]; then
            opened=
            { opened=1; send_stream; } 5<"$p"
        fi
        [ -n "$opened" ] || err not_found
    fi
}

op_list() {
    dir=.
    if [ "$1" != - ]; then
        decode "$1" || { err invalid_path; return; }
        walk "$p"
        case $? in 1) err "$why"; return ;; 2) ok; return ;; esac
        if [ -L "$p" ]; then err invalid_path; return; fi
        if [ ! -e "$p" ]; then ok; return; fi
        if [ ! -d "$p" ]; then err not_a_directory; return; fi
        dir=./$p
    fi
    printf 'OK '
    find "$dir" -type f -print0 | base64 -w0
    printf '\n'
}

op_write() {
    n=$2
    case $n in '' | *[!0-9]*) fatal ;; esac
    [ "$records" = 2 ] || [ "$n" -gt 0 ] || fatal
    decode "$1" || { skip "$n"; err invalid_path; return; }
    walk "$p"
    parents=$?
    if [ $parents = 1 ]; then skip "$n"; err "$why"; return; fi
    if [ -L "$p" ]; then skip "$n"; err invalid_path; return; fi
    if [ -d "$p" ]; then skip "$n"; err is_directory; return; fi
    if [ -e "$p" ] && [ ! -f "$p" ]; then skip "$n"; err invalid_path; return; fi
    if [ -e "$p" ] && [ ! -w "$p" ]; then skip "$n"; err invalid_path; return; fi
    parent=${p%/*}
    # Parents that all exist (walk said 0) need no mkdir process.
    if [ $parents = 2 ] && [ "$parent" != "$p" ] && ! mkdir -p -- "$parent"; then
        skip "$n"; prune "$p"; err environment_full; return
    fi
    # The shell opens the file: if that fails, no byte of the payload has been
    # read and skip consumes it. A small payload is copied by builtins (no
    # process); a larger one streams straight from stdin to the file: exactly N
    # bytes (dd fullblock), one process: the worker itself for C. Both report a
    # short write (a full tmpfs) in their status (for the worker's dd, to the
    # helper: see finish). dd's records go to fd $records: they are the answer
    # to C (fd 3), discarded for W (2).
    opened=
    if [ "$n" = 0 ] || { [ "$n" -le $small ] && [ "$3" != + ]; }; then
        { opened=1; take "$n"; } >"$p" && { ok; return; }
    elif [ -n "$inline" ] && [ "$records" = 3 ]; then
        { opened=1; report C "$1"; exec dd bs="$n" count=1 iflag=fullblock 2>&3; } \
            >"$p"
    else
        { opened=1; dd bs="$n" count=1 iflag=fullblock 2>&$records; } >"$p" &&
            { copied; return; }
    fi
    [ -n "$opened" ] || skip "$n"
    rm -f -- "$p"; prune "$p"; err environment_full
}

# copied: answers a write that dd copied whole: OK for W; for C, dd's records
# on stderr already are the answer.
copied() {
    [ "$records" = 3 ] || ok
}

op_delete() {
    decode "$1" || { err invalid_path; return; }
    walk "$p"
    case $? in 1) err "$why"; return ;; 2) err not_found; return ;; esac
    if [ -L "$p" ]; then err invalid_path
    elif [ -d "$p" ]; then err is_directory
    elif [ ! -e "$p" ]; then err not_found
    elif [ ! -f "$p" ]; then err invalid_path
    elif rm -f -- "$p"; then prune "$p"; ok
    else err invalid_path
    fi
}

# serve: reads one request and answers it; fails at end of input only. The answers
# of S and C requests, refusals included, end on stderr (fd 3): $answers is
# the fd of refusals, $sized the kind of a sized read, $records where dd's
# records of a copied write go.
serve() {
    read -r op first second third || return 1
    # A worker whose helper is gone (it is its parent no longer) answers
    # nothing: the helper owns the stream, and the container ends with it.
    if [ -n "$inline" ]; then
        read -r _ _ _ parent _ </proc/self/stat && [ "$parent" = "$$" ] || exit 2
    fi
    answers=1 sized=r records=2
    case $op in
        P) ok ;;
        R) op_read "$first" "$second" ;;
        S) answers=3 sized=s; op_read "$first" "=$second" ;;
        L) op_list "$first" ;;
        W) op_write "$first" "$second" "$third" ;;
        C) answers=3 records=3; op_write "$first" "$second" + ;;
        D) op_delete "$first" ;;
        *) fatal ;;
    esac
    return 0
}

inline=
answers=1
while :; do
    worker=
    spawn
    if [ -n "$worker" ]; then
        finish
    else
        serve || exit 0
    fi
done
