# Python runtime: Debian's /usr/bin/python3 (not the pyenv build), its standard library without the test
# suite and GUI modules, the libraries bot authors expect (numpy: Debian's python3-numpy, built for this
# interpreter, with reference BLAS/LAPACK; pip, only so that `pip freeze` answers: published agents such
# as RLCard's run it when imported), and the shared libraries of the interpreter, its extension modules
# and the libraries'. Sourced by ../build.sh with ROOTFS set and its helpers defined.
PY=/usr/bin/python3
PYVER="$("$PY" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')"
add_file "$(readlink -f "$PY")"
ln -s "python$PYVER" "$ROOTFS/usr/bin/python3"
ln -s python3 "$ROOTFS/usr/bin/python"
add_libs "$(readlink -f "$PY")"
add_tree "/usr/lib/python$PYVER" ./test ./idlelib ./tkinter ./turtledemo ./ensurepip ./lib2to3 \
    ./sitecustomize.py "./config-$PYVER-x86_64-linux-gnu" ./EXTERNALLY-MANAGED ./dist-packages ./site-packages
add_libs "/usr/lib/python$PYVER"/lib-dynload/*.so

# The libraries (and only those, not the rest of the host's dist-packages), without their test suites.
# One line each: the import name, the Debian package. docs/sandbox.md says why these.
SITE=/usr/lib/python3/dist-packages
LIBRARIES=("numpy python3-numpy" "pip python3-pip")
for library in "${LIBRARIES[@]}"; do
    read -r module package <<<"$library"
    [ -d "$SITE/$module" ] || { say "$package is not installed (scripts/setup-system installs it)"; exit 1; }
    add_tree "$SITE/$module" tests
    for info in "$SITE/$module"-*.egg-info "$SITE/$module"-*.dist-info; do
        [ -e "$info" ] && add_tree "$info"
    done
    mapfile -t objects < <(find "$SITE/$module" -name '*.so')
    [ "${#objects[@]}" -gt 0 ] && add_libs "${objects[@]}"
    PACKAGES+=("$package")
done

PROBE=(/usr/bin/python3 -I -)
PROBE_SOURCE="$(dirname "${BASH_SOURCE[0]}")/probe.py"
PACKAGES+=("python$PYVER-minimal" "libpython$PYVER-stdlib" libblas3 liblapack3 dash libc6)
