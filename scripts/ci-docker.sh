#!/usr/bin/env bash
# Make a local Docker engine and the sandbox test image available, offline.
#
# Idempotent: run it as often as you like.
#   1. installs docker.io with apt when `dockerd` is missing (needs root);
#   2. starts dockerd in the background (no bridge, no iptables: the sandbox needs no
#      network) unless the daemon already answers, and waits for it (bounded);
#   3. builds the image $ARTEMISKIT_SANDBOX_IMAGE (default artemiskit-sandbox:busybox)
#      with `docker import` from Debian's busybox-static package, when it is missing.
#      Nothing is ever pulled from an image registry.
#
# Progress goes to stderr; stdout stays empty. Exit status is non-zero on failure.
set -euo pipefail

IMAGE="${ARTEMISKIT_SANDBOX_IMAGE:-artemiskit-sandbox:busybox}"
DOCKERD_LOG="${ARTEMISKIT_DOCKERD_LOG:-/var/log/artemiskit-dockerd.log}"
WAIT_SECONDS="${ARTEMISKIT_DOCKERD_WAIT:-60}"

say() { printf 'ci-docker: %s\n' "$*" >&2; }
as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo -n "$@"; fi
}

install_docker() {
    if command -v dockerd >/dev/null 2>&1; then
        return 0
    fi
    say "dockerd missing: installing docker.io with apt"
    export DEBIAN_FRONTEND=noninteractive
    local log
    log="$(mktemp)"
    if ! { as_root apt-get update -qq && as_root apt-get install -y -qq \
        --no-install-recommends docker.io; } >"$log" 2>&1; then
        say "apt-get failed:"
        tail -n 30 "$log" >&2
        rm -f "$log"
        exit 1
    fi
    rm -f "$log"
}

daemon_answers() {
    docker info >/dev/null 2>&1
}

start_daemon() {
    if daemon_answers; then
        say "docker daemon already answers"
        return 0
    fi
    if ! pgrep -x dockerd >/dev/null 2>&1; then
        say "starting dockerd (log: $DOCKERD_LOG)"
        # setsid: the daemon outlives this script and its process group.
        as_root setsid dockerd --bridge=none --iptables=false --ip-masq=false \
            >>"$DOCKERD_LOG" 2>&1 </dev/null &
    else
        say "dockerd is running but not answering yet; waiting"
    fi
    local waited=0
    until daemon_answers; do
        if [ "$waited" -ge "$WAIT_SECONDS" ]; then
            say "dockerd did not answer within ${WAIT_SECONDS}s; last log lines:"
            tail -n 20 "$DOCKERD_LOG" >&2 || true
            exit 1
        fi
        sleep 1
        waited=$((waited + 1))
    done
    say "docker daemon answers"
}

build_image() {
    if docker image inspect "$IMAGE" >/dev/null 2>&1; then
        say "image $IMAGE present"
        return 0
    fi
    say "building $IMAGE from Debian's busybox-static (docker import, offline)"
    local work
    work="$(mktemp -d)"
    trap 'rm -rf "$work"' RETURN
    (
        cd "$work"
        if ! apt-get download busybox-static >/dev/null 2>&1; then
            as_root apt-get update -qq >&2
            apt-get download busybox-static >/dev/null
        fi
    )
    local rootfs="$work/rootfs"
    mkdir -p "$work/pkg" "$rootfs"
    dpkg-deb -x "$work"/busybox-static_*.deb "$work/pkg"
    mkdir -p "$rootfs/bin" "$rootfs/sbin" "$rootfs/usr/bin" "$rootfs/usr/sbin" \
        "$rootfs/etc" "$rootfs/tmp" "$rootfs/work" "$rootfs/proc" "$rootfs/sys" \
        "$rootfs/dev"
    cp "$work/pkg/bin/busybox" "$rootfs/bin/busybox"
    chmod 0755 "$rootfs/bin/busybox"
    # One symlink per applet, placed where `busybox --list-full` says it belongs.
    local applet
    while IFS= read -r applet; do
        [ -n "$applet" ] || continue
        [ -e "$rootfs/$applet" ] || ln -s /bin/busybox "$rootfs/$applet"
    done < <("$rootfs/bin/busybox" --list-full)
    printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/work:/bin/sh\n' \
        >"$rootfs/etc/passwd"
    printf 'root:x:0:\nnogroup:x:65534:\n' >"$rootfs/etc/group"
    chmod 1777 "$rootfs/tmp"
    tar -C "$rootfs" --numeric-owner --owner=0 --group=0 -cf "$work/rootfs.tar" .
    docker import \
        --change 'CMD ["/bin/sh"]' \
        --change 'WORKDIR /work' \
        --change 'LABEL io.artemiskit.image=sandbox' \
        "$work/rootfs.tar" "$IMAGE" >/dev/null
    say "image $IMAGE built"
}

install_docker
start_daemon
if ! command -v docker-init >/dev/null 2>&1 && [ ! -x /usr/libexec/docker/docker-init ] \
    && [ ! -x /usr/sbin/docker-init ]; then
    say "warning: docker-init not found; the sandbox needs HostConfig Init=true"
fi
build_image
