#!/usr/bin/env bash
# Build the bot runtimes, one per language folder here (python/, node/): a minimal root filesystem made
# from this machine's own files (no registry is reachable): the interpreter, the libraries of the runtime,
# the shared libraries they need (found with ldd), /etc/passwd with nobody, a loader cache.
#
# Each runtime is built once into a read-only folder named after its content hash,
#     $UNO_ARENA_RUNTIMES/<language>-<hash>/        (default /opt/uno-arena/runtimes)
# and pointed to by $UNO_ARENA_RUNTIMES/<language>-<version> (the version is TAG's, e.g. python-2). That
# folder is the bot's / under bwrap, and the same folder is fed to `docker import` as the image TAG names
# (docker and gvisor), so every runner runs a bot on the same files. Its manifest,
# usr/share/uno-arena/runtime.json inside it, is written by the runtime's own interpreter (probe.*): the
# interpreter's version, the libraries it can import with their versions, the Debian packages copied.
#
# Idempotent: an unchanged content hash leaves folder and image alone (the image's label
# org.uno-arena.content-hash is the folder's hash); a replaced folder or image is removed.
#
# Usage: sandbox/images/build.sh [--no-image] [language...]
#   --no-image   only the folders (e.g. in the site's image build, where no Docker engine answers)
set -euo pipefail
umask 022

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
RUNTIMES="${UNO_ARENA_RUNTIMES:-/opt/uno-arena/runtimes}"
LABEL=org.uno-arena.content-hash
MANIFEST=usr/share/uno-arena/runtime.json
# Bumped when the way a runtime is made changes what the content hash cannot see (it reads no times).
FORMAT=2
# The image's configuration (also part of the content hash).
CHANGES=(--change "USER 65534:65534" --change "WORKDIR /bot"
    --change "ENV PATH=/usr/local/bin:/usr/bin:/bin" --change "ENV LANG=C.UTF-8" --change "ENV HOME=/tmp")

say() { printf 'images: %s\n' "$*"; }

# --- helpers for the per-language rootfs.sh scripts (they run with ROOTFS set) -----------------------
# add_file PATH...: copy files (symlinks followed) to the same path under $ROOTFS.
add_file() {
    local f
    for f in "$@"; do
        mkdir -p "$ROOTFS$(dirname "$f")"
        cp -L --preserve=mode,timestamps "$f" "$ROOTFS$f"
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
# add_tree DIR [EXCLUDED...]: copy a directory tree (symlinks followed); each EXCLUDED is a tar pattern:
# "./name" skips a top-level entry, a bare name every entry of that name at any depth.
add_tree() {
    local dir=$1; shift
    local excludes=()
    local pattern
    for pattern in "$@"; do excludes+=(--exclude="$pattern"); done
    mkdir -p "$ROOTFS$dir"
    tar -C "$dir" "${excludes[@]}" -ch . 2>/dev/null | tar -C "$ROOTFS$dir" -x
}

# base_layout: merged-/usr layout, /etc with nobody, /tmp and /bot mount points, a loader cache.
base_layout() {
    chmod 755 "$ROOTFS"
    mkdir -p "$ROOTFS"/{usr/bin,usr/lib,usr/lib64,usr/sbin,etc,tmp,bot,proc,dev,sys}
    ln -s usr/bin "$ROOTFS/bin"; ln -s usr/lib "$ROOTFS/lib"
    ln -s usr/lib64 "$ROOTFS/lib64"; ln -s usr/sbin "$ROOTFS/sbin"
    chmod 1777 "$ROOTFS/tmp"
    printf 'root:x:0:0:root:/root:/usr/sbin/nologin\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n' \
        >"$ROOTFS/etc/passwd"
    printf 'root:x:0:\nnogroup:x:65534:\n' >"$ROOTFS/etc/group"
    printf '/usr/lib/%s\n' "$(gcc -dumpmachine 2>/dev/null || echo x86_64-linux-gnu)" >"$ROOTFS/etc/ld.so.conf"
    # /bin/sh (dash): the docker runner's fifo I/O mode and the bwrap runner's first process inside.
    add_file /usr/bin/dash
    ln -s dash "$ROOTFS/usr/bin/sh"
    add_libs /usr/bin/dash
}

# (Files keep their times: a .pyc is valid only while its source has the time it records, else Python
# compiles the module again at every start, /usr being read-only. The content hash reads no times.)
# The loader cache needs root (ldconfig -r chroots); without it the loader searches its default folders,
# which on Debian include the multiarch ones: the same libraries, found a little slower.
finish_layout() {
    ldconfig -r "$ROOTFS" 2>/dev/null || true
}

content_hash() {
    (cd "$ROOTFS" && find . -printf '%y %m %p %l\n' | LC_ALL=C sort && \
        find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum) | sha256sum | cut -c1-32
}

# in_rootfs COMMAND...: run COMMAND with $ROOTFS as its root (stdin passed through): chroot as root
# (works inside a Docker build too), else an unprivileged bubblewrap sandbox.
in_rootfs() {
    local env=(env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 HOME=/tmp)
    if [ "$(id -u)" = 0 ]; then
        "${env[@]}" chroot "$ROOTFS" "$@"
    elif command -v bwrap >/dev/null; then
        "${env[@]}" bwrap --ro-bind "$ROOTFS" / --proc /proc --dev /dev --unshare-all --die-with-parent "$@"
    else
        say "writing the manifest needs root (chroot) or bubblewrap"; return 1
    fi
}

# write_manifest NAME TAG HASH: the runtime's manifest, from its own interpreter (PROBE, set by rootfs.sh)
# and the versions of the Debian packages rootfs.sh copied from (PACKAGES).
write_manifest() {
    local name=$1 tag=$2 hash=$3
    local probe packages="" files bytes debian=""
    probe="$(in_rootfs "${PROBE[@]}" <"$PROBE_SOURCE")"
    [[ "$probe" == "{"*"}" ]] || { say "$name: the runtime's probe printed no JSON object: $probe"; return 1; }
    if [ "${#PACKAGES[@]}" -gt 0 ] && command -v dpkg-query >/dev/null; then
        packages="$(dpkg-query -W -f='"${Package}": "${Version}", ' "${PACKAGES[@]}" 2>/dev/null || true)"
        packages="${packages%, }"
    fi
    [ -r /etc/debian_version ] && debian="$(cat /etc/debian_version)"
    files="$(find "$ROOTFS" -type f | wc -l)"
    bytes="$(du -sb "$ROOTFS" | cut -f1)"
    mkdir -p "$ROOTFS/$(dirname "$MANIFEST")"
    printf '{"name": "%s", "language": "%s", "image": "%s", "hash": "%s", "files": %d, "bytes": %d, "debian": "%s", "packages": {%s}, %s\n' \
        "$name" "$LANG_NAME" "$tag" "$hash" "$files" "$bytes" "$debian" "$packages" "${probe#\{}" \
        >"$ROOTFS/$MANIFEST"
}

# prune LANG: remove the LANG-<hash> folders no pointer of $RUNTIMES refers to any more.
prune() {
    local dir link kept
    for dir in "$RUNTIMES/$1"-*; do
        [ -d "$dir" ] && [ ! -L "$dir" ] && [[ "$(basename "$dir")" =~ ^$1-[0-9a-f]{32}$ ]] || continue
        kept=0
        for link in "$RUNTIMES"/*; do
            [ -L "$link" ] && [ "$(readlink "$link")" = "$(basename "$dir")" ] && kept=1
        done
        [ "$kept" = 1 ] || { rm -rf "$dir"; say "removed the old runtime $(basename "$dir")"; }
    done
}

build_one() {
    local lang=$1
    local dir="$HERE/$lang"
    local tag name hash final
    tag="$(cat "$dir/TAG")"
    name="$lang-${tag##*:}"
    if [ -x "$dir/available.sh" ] && ! "$dir/available.sh"; then
        say "skipping $name: its interpreter is not installed on this machine"
        return 0
    fi
    ROOTFS="$(mktemp -d "$RUNTIMES/.build-$lang-XXXXXX")"
    export ROOTFS
    # (No RETURN trap: it would also fire when the sourced rootfs.sh returns.)
    trap 'rm -rf "$ROOTFS"' EXIT
    LANG_NAME=$lang
    PROBE=()
    PROBE_SOURCE=/dev/null
    PACKAGES=()
    base_layout
    # shellcheck source=/dev/null
    source "$dir/rootfs.sh"
    finish_layout
    hash="$( (content_hash; printf '%s\n' "format $FORMAT" "${CHANGES[@]}") | sha256sum | cut -c1-32)"
    final="$RUNTIMES/$lang-$hash"
    if [ -f "$final/$MANIFEST" ]; then
        rm -rf "$ROOTFS"
        [ -n "${VERBOSE:-}" ] && say "$name is up to date ($hash)"
    else
        write_manifest "$name" "$tag" "$hash"
        rm -rf "$final"  # an unfinished folder of an interrupted build
        mv -T "$ROOTFS" "$final"
        say "built the runtime $name ($hash, $(du -sh "$final" | cut -f1)) in $RUNTIMES"
    fi
    trap - EXIT
    # Point <lang>-<version> at it atomically (a bot starting now sees the old folder or the new one).
    ln -s "$lang-$hash" "$RUNTIMES/.$name.new"
    mv -T "$RUNTIMES/.$name.new" "$RUNTIMES/$name"
    prune "$lang"
    [ "$IMAGES" = 1 ] && import_image "$tag" "$final" "$hash"
    return 0
}

# import_image TAG FOLDER HASH: make the docker image TAG from FOLDER unless it already is that content.
import_image() {
    local tag=$1 folder=$2 hash=$3 have old
    have="$(docker image inspect -f "{{index .Config.Labels \"$LABEL\"}}" "$tag" 2>/dev/null || true)"
    if [ "$have" = "$hash" ]; then
        [ -n "${VERBOSE:-}" ] && say "$tag is up to date ($hash)"
        return 0
    fi
    old="$(docker image inspect -f '{{.Id}}' "$tag" 2>/dev/null || true)"
    tar --numeric-owner --owner=0 --group=0 -C "$folder" -c . |
        docker import "${CHANGES[@]}" --change "LABEL $LABEL=$hash" - "$tag" >/dev/null
    say "imported $tag from $folder"
    # Drop the image this one replaces (by its exact id; kept if a container still uses it).
    [ -n "$old" ] && docker image rm "$old" >/dev/null 2>&1 || true
}

IMAGES=1
if [ "${1:-}" = "--no-image" ]; then IMAGES=0; shift; fi
if [ "$IMAGES" = 1 ] && ! command -v docker >/dev/null; then
    say "docker is not installed: building the runtime folders only"
    IMAGES=0
fi
mkdir -p "$RUNTIMES" 2>/dev/null && [ -w "$RUNTIMES" ] ||
    { say "cannot write $RUNTIMES: run as root, or set UNO_ARENA_RUNTIMES to a folder of yours"; exit 1; }
chmod 755 "$RUNTIMES"
if [ "$#" -eq 0 ]; then
    set -- $(cd "$HERE" && for d in */TAG; do dirname "$d"; done)
fi
# One build at a time per runtimes folder (another checkout's setup-system may run at the same moment).
exec 9>"$RUNTIMES/.lock"
flock 9
for lang in "$@"; do build_one "$lang"; done
