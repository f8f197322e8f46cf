# ArtemisKit sandbox helper: the only program the sandbox runs (POSIX sh, busybox).
#
# Started once per container as `sh -c "$(cat sandbox_helper.sh)" helper WORK_DIR`.
# It serves file requests read from stdin, one at a time, and answers on stdout.
#
# Requests: one header line, fields separated by one space. PATH is "~" and the
# relative path when it holds only [A-Za-z0-9._/-], else the base64 of the path
# followed by one "." (so trailing newlines survive the shell).
#   P                 ping                          -> OK
#   R PATH            read a file                   -> OK N, a newline, then exactly
#                                                      N raw bytes: the content
#   L PATH|-          list files under a directory  -> OK <base64 of NUL-ended paths>
#   W PATH N          write a file; the header is followed by exactly N raw bytes
#                     of content (no newline)       -> OK
#   D PATH            delete a file                 -> OK
# Content travels as raw bytes, framed by its length (no encoding, so NUL bytes,
# newlines and any byte survive, and no process encodes or decodes it). Every
# answer is one line (a read's content follows its line). A refusal is
# `ERR <reason>`, reason being one of
# not_found invalid_path is_directory not_a_directory environment_full. Anything
# else is a protocol error: the helper answers `ERR protocol` and exits.
#
# Paths are checked again here: relative, no "." / ".." / empty segments, at most
# 512 bytes, and no symbolic link anywhere on the way (links are never followed).
# Directories exist only as parents of files: the last delete in one removes it.

exec 2>/dev/null
umask 077
cd "$1" || exit 1

ok() { printf 'OK%s\n' "${1:+ $1}"; }
err() { printf 'ERR %s\n' "$1"; }
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
    [ "$1" = 0 ] || dd bs="$1" count=1 iflag=fullblock of=/dev/null || exit 2
}

op_read() {
    decode "$1" || { err invalid_path; return; }
    walk "$p"
    case $? in 1) err "$why"; return ;; 2) err not_found; return ;; esac
    if [ -L "$p" ]; then err invalid_path
    elif [ -d "$p" ]; then err is_directory
    elif [ ! -e "$p" ]; then err not_found
    elif [ ! -f "$p" ]; then err invalid_path
    elif [ ! -r "$p" ]; then err invalid_path
    else
        # The answer line is "OK ", then stat prints the size and a newline; dd
        # sends exactly that many bytes (only this helper writes the work dir, so
        # the file cannot change in between). Either failing ends the helper: the
        # host sees the stream end, never a frame out of step.
        printf 'OK '
        stat -c %s -- "$p" || exit 2
        dd if="$p" bs=65536 || exit 2
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
    decode "$1" || { skip "$n"; err invalid_path; return; }
    walk "$p"
    parents=$?
    if [ $parents = 1 ]; then skip "$n"; err "$why"; return; fi
    if [ -L "$p" ]; then skip "$n"; err invalid_path; return; fi
    if [ -d "$p" ]; then skip "$n"; err is_directory; return; fi
    if [ -e "$p" ] && [ ! -f "$p" ]; then skip "$n"; err invalid_path; return; fi
    parent=${p%/*}
    # Parents that all exist (walk said 0) need no mkdir process.
    if [ $parents = 2 ] && [ "$parent" != "$p" ] && ! mkdir -p -- "$parent"; then
        skip "$n"; prune "$p"; err environment_full; return
    fi
    if [ "$n" = 0 ]; then
        if : >"$p"; then ok; else rm -f -- "$p"; prune "$p"; err environment_full; fi
        return
    fi
    # The payload streams straight from stdin to the file: exactly N bytes (dd
    # fullblock), one process, no copy through the shell. dd reports a short write
    # (a full tmpfs) in its exit status.
    if dd bs="$n" count=1 iflag=fullblock of="$p"; then
        ok
    else
        rm -f -- "$p"; prune "$p"; err environment_full
    fi
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

while read -r op first second; do
    case $op in
        P) ok ;;
        R) op_read "$first" ;;
        L) op_list "$first" ;;
        W) op_write "$first" "$second" ;;
        D) op_delete "$first" ;;
        *) fatal ;;
    esac
done
