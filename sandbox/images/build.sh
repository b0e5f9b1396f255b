#!/usr/bin/env bash
# Build the bot runtime images, one per language folder here (python/, node/), from this machine's own
# interpreter files: no registry is reachable, so each image is a minimal root filesystem (the interpreter,
# its shared libraries found with ldd, its standard library, /etc/passwd with nobody) fed to `docker import`.
#
# Idempotent: the root filesystem's content hash is stored as the image label org.uno-arena.content-hash;
# an image whose label matches is left alone. Usage: sandbox/images/build.sh [language...]
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
LABEL=org.uno-arena.content-hash

say() { printf 'images: %s\n' "$*"; }

# --- helpers for the per-language rootfs.sh scripts (they run with ROOTFS set) -----------------------
# add_file PATH...: copy files (symlinks followed) to the same path under $ROOTFS.
add_file() {
    local f
    for f in "$@"; do
        mkdir -p "$ROOTFS$(dirname "$f")"
        cp -L --preserve=mode "$f" "$ROOTFS$f"
    done
}
# add_libs FILE...: copy the shared libraries (and the dynamic loader) that FILE needs.
add_libs() {
    local lib
    # ldd prints "name => /path (addr)" for libraries and "/path (addr)" for the loader.
    for lib in $(ldd "$@" 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\// && $2 ~ /^\(/ {print $1}' | sort -u); do
        [ -e "$ROOTFS$lib" ] || add_file "$lib"
    done
}
# add_tree DIR [EXCLUDED_NAME...]: copy a directory tree, skipping top-level entries by name.
add_tree() {
    local dir=$1; shift
    local excludes=()
    local name
    for name in "$@"; do excludes+=(--exclude="./$name"); done
    mkdir -p "$ROOTFS$dir"
    tar -C "$dir" "${excludes[@]}" -ch . 2>/dev/null | tar -C "$ROOTFS$dir" -x
}

# base_layout: merged-/usr layout, /etc with nobody, /tmp and /bot mount points, a loader cache.
base_layout() {
    mkdir -p "$ROOTFS"/{usr/bin,usr/lib,usr/lib64,usr/sbin,etc,tmp,bot,proc,dev,sys}
    ln -s usr/bin "$ROOTFS/bin"; ln -s usr/lib "$ROOTFS/lib"
    ln -s usr/lib64 "$ROOTFS/lib64"; ln -s usr/sbin "$ROOTFS/sbin"
    chmod 1777 "$ROOTFS/tmp"
    printf 'root:x:0:0:root:/root:/usr/sbin/nologin\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n' \
        >"$ROOTFS/etc/passwd"
    printf 'root:x:0:\nnogroup:x:65534:\n' >"$ROOTFS/etc/group"
    printf '/usr/lib/%s\n' "$(gcc -dumpmachine 2>/dev/null || echo x86_64-linux-gnu)" >"$ROOTFS/etc/ld.so.conf"
    # /bin/sh (dash): the docker runner's fifo I/O mode starts bots as sh -c 'exec "$@" >/io/out </io/in'.
    add_file /usr/bin/dash
    ln -s dash "$ROOTFS/usr/bin/sh"
    add_libs /usr/bin/dash
}

finish_layout() {
    ldconfig -r "$ROOTFS" 2>/dev/null || true
    # Deterministic modes and times so that the content hash only changes with the content.
    find "$ROOTFS" -exec touch -h -d @0 {} +
}

content_hash() {
    (cd "$ROOTFS" && find . -printf '%y %m %p %l\n' | LC_ALL=C sort && \
        find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum) | sha256sum | cut -c1-32
}

build_one() {
    local lang=$1
    local dir="$HERE/$lang"
    local tag
    tag="$(cat "$dir/TAG")"
    if [ -x "$dir/available.sh" ] && ! "$dir/available.sh"; then
        say "skipping $tag: its interpreter is not installed on this machine"
        return 0
    fi
    ROOTFS="$(mktemp -d)"
    export ROOTFS
    # (No RETURN trap: it would also fire when the sourced rootfs.sh returns.)
    trap 'rm -rf "$ROOTFS"' EXIT
    base_layout
    # shellcheck source=/dev/null
    source "$dir/rootfs.sh"
    finish_layout
    local changes=(--change "USER 65534:65534" --change "WORKDIR /bot"
        --change "ENV PATH=/usr/local/bin:/usr/bin:/bin" --change "ENV LANG=C.UTF-8")
    local hash
    hash="$( (content_hash; printf '%s\n' "${changes[@]}") | sha256sum | cut -c1-32)"
    local have
    have="$(docker image inspect -f "{{index .Config.Labels \"$LABEL\"}}" "$tag" 2>/dev/null || true)"
    if [ "$have" = "$hash" ]; then
        [ -n "${VERBOSE:-}" ] && say "$tag is up to date ($hash)"
    else
        local old
        old="$(docker image inspect -f '{{.Id}}' "$tag" 2>/dev/null || true)"
        tar --numeric-owner --owner=0 --group=0 -C "$ROOTFS" -c . |
            docker import "${changes[@]}" --change "LABEL $LABEL=$hash" - "$tag" >/dev/null
        say "built $tag ($hash, $(du -sh "$ROOTFS" | cut -f1))"
        # Drop the image this one replaces (by its exact id; kept if a container still uses it).
        [ -n "$old" ] && docker image rm "$old" >/dev/null 2>&1 || true
    fi
    rm -rf "$ROOTFS"
}

command -v docker >/dev/null || { say "docker is not installed"; exit 1; }
if [ "$#" -eq 0 ]; then
    set -- $(cd "$HERE" && for d in */TAG; do dirname "$d"; done)
fi
for lang in "$@"; do build_one "$lang"; done
