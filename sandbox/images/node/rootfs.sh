# Node.js runtime: this machine's /usr/bin/node (one static-ish binary) and its shared libraries; Node's
# own modules only (a bot bundles pure-JavaScript packages in its zip).
# Sourced by ../build.sh with ROOTFS set and its helpers defined.
add_file "$(readlink -f /usr/bin/node)"
[ -e "$ROOTFS/usr/bin/node" ] || ln -s "$(readlink -f /usr/bin/node)" "$ROOTFS/usr/bin/node"
add_libs "$(readlink -f /usr/bin/node)"
PROBE=(/usr/bin/node -)
PROBE_SOURCE="$(dirname "${BASH_SOURCE[0]}")/probe.js"
PACKAGES=(nodejs dash libc6)
