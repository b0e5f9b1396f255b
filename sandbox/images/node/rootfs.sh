# Node.js runtime image: this machine's /usr/bin/node (one static-ish binary) and its shared libraries.
# Sourced by ../build.sh with ROOTFS set and its helpers defined.
add_file "$(readlink -f /usr/bin/node)"
[ -e "$ROOTFS/usr/bin/node" ] || ln -s "$(readlink -f /usr/bin/node)" "$ROOTFS/usr/bin/node"
add_libs "$(readlink -f /usr/bin/node)"
