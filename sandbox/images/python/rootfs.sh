# Python runtime image: Debian's /usr/bin/python3 (not the pyenv build), its standard library without
# the test suite and GUI modules, and the shared libraries of the interpreter and its extension modules.
# Sourced by ../build.sh with ROOTFS set and its helpers defined.
PY=/usr/bin/python3
PYVER="$("$PY" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')"
add_file "$(readlink -f "$PY")"
ln -s "python$PYVER" "$ROOTFS/usr/bin/python3"
ln -s python3 "$ROOTFS/usr/bin/python"
add_libs "$(readlink -f "$PY")"
add_tree "/usr/lib/python$PYVER" test idlelib tkinter turtledemo ensurepip lib2to3 sitecustomize.py \
    "config-$PYVER-x86_64-linux-gnu" EXTERNALLY-MANAGED
add_libs "/usr/lib/python$PYVER"/lib-dynload/*.so
