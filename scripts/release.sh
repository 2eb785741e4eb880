#!/usr/bin/env bash
# Builds every release artifact into dist/ with SHA256SUMS, then checks
# each one as its user would get it: installed where no Rust and no
# repository are (docs/release.md tells what and why).
#
#   scripts/release.sh [--allow-dirty] [--only LIST] [--out DIR]   build into dist/ (or DIR), then check it
#   scripts/release.sh --check DIR [--only LIST]                   check artifacts already built
#
# LIST is a comma-separated subset of: x86_64 aarch64 npm wheel wheel-aarch64
# sdist deb crate (all by default, in that order). Run it from the repository's
# top folder. It refuses, in words, a tree with uncommitted changes (unless
# --allow-dirty), a missing tool (naming the package that brings it) and a
# version that differs between the manifests.
set -euo pipefail

die() { echo "release.sh: $*" >&2; exit 1; }
say() { echo "== $*" >&2; }

ALL="x86_64 aarch64 npm wheel wheel-aarch64 sdist deb crate"
only="$ALL"
out=""
check_dir=""
allow_dirty=no
while [ $# -gt 0 ]; do
    case "$1" in
        --allow-dirty) allow_dirty=yes ;;
        --check) check_dir="${2:?--check needs a folder}"; shift ;;
        --out) out="${2:?--out needs a folder}"; shift ;;
        --only) only="${2:?--only needs a list}"; only="${only//,/ }"; shift ;;
        -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "release.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
    shift
done
for part in $only; do
    case " $ALL " in *" $part "*) ;; *) echo "release.sh: '$part' is not an artifact ($ALL)" >&2; exit 2 ;; esac
done
wants() { case " $only " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

# Folders given relative to where it was called from.
if [ -n "$out" ]; then out="$(mkdir -p "$out" && cd "$out" && pwd)"; fi
if [ -n "$check_dir" ]; then
    [ -d "$check_dir" ] || die "--check: there is no folder '$check_dir'"
    check_dir="$(cd "$check_dir" && pwd)"
fi
cd "$(dirname "$0")/.."
TOP="$(pwd)"
[ -f Cargo.toml ] && [ -d python ] && [ -d web ] || die "run it from a clone of the pasang repository"

# --- the version, from the one place, and the manifests that must agree ---
VERSION="$(sed -n '/^\[workspace.package\]/,/^\[/s/^version *= *"\(.*\)"/\1/p' Cargo.toml)"
[ -n "$VERSION" ] || die "Cargo.toml has no [workspace.package] version"
for manifest in Cargo.toml python/Cargo.toml web/Cargo.toml; do
    grep -q '^version.workspace *= *true' "$manifest" \
        || die "the version differs between the manifests: $manifest does not inherit [workspace.package]'s $VERSION (version.workspace = true)"
done
npm_version="$(sed -n 's/^ *"version": *"\(.*\)",*$/\1/p' web/package.json | head -n 1)"
[ "$npm_version" = "$VERSION" ] \
    || die "the version differs between the manifests: web/package.json says '$npm_version', Cargo.toml's [workspace.package] says '$VERSION'"

# --- a build starts from committed files ---
if [ -z "$check_dir" ]; then
    command -v git >/dev/null 2>&1 || die "'git' is missing: apt-get install git"
    if [ "$allow_dirty" = no ] && [ -n "$(git status --porcelain --untracked-files=no)" ]; then
        die "the tree has uncommitted changes (git status): commit them, or pass --allow-dirty for a build that says -dirty"
    fi
fi

# --- the tools, each with the package that brings it ---
need() { # need COMMAND "how to get it"
    command -v "$1" >/dev/null 2>&1 || die "'$1' is missing: $2"
}
python_module() { # python_module MODULE "pip package"
    python3 -c "import $1" >/dev/null 2>&1 || die "the Python module '$1' is missing: pip install $2"
}
need sha256sum "apt-get install coreutils"
need tar "apt-get install tar"
need strings "apt-get install binutils"
need file "apt-get install file"
if wants wheel || wants wheel-aarch64 || wants sdist; then
    need python3 "apt-get install python3 python3-venv"
    python3 -c 'import venv, ensurepip' >/dev/null 2>&1 || die "Python's venv is missing: apt-get install python3-venv"
fi
if wants x86_64; then need qemu-x86_64 "apt-get install qemu-user"; fi
if wants aarch64; then need qemu-aarch64 "apt-get install qemu-user"; fi
if wants npm; then
    need node "apt-get install nodejs (Node 20 or later)"
    need npm "apt-get install npm"
    # The bundled page's browser (CHROMIUM names another binary).
    export CHROMIUM="${CHROMIUM:-chromium}"
    need "$CHROMIUM" "apt-get install chromium"
fi
if wants wheel || wants wheel-aarch64; then python_module auditwheel auditwheel; fi
if wants deb; then
    need dpkg-deb "apt-get install dpkg"
    need objcopy "apt-get install binutils"
    need lintian "apt-get install lintian"
    need systemd-analyze "apt-get install systemd"
fi
if [ -z "$check_dir" ] || wants crate; then
    need cargo "rustup (https://rustup.rs), then rustup toolchain install stable"
fi
if [ -z "$check_dir" ]; then
    need cargo "rustup (https://rustup.rs), then rustup toolchain install stable"
    need rustup "rustup (https://rustup.rs)"
    if wants npm; then need wasm-opt "apt-get install binaryen"; fi
    if wants wheel || wants wheel-aarch64 || wants sdist; then
        python_module maturin "maturin"
    fi
    if wants wheel || wants wheel-aarch64; then
        python_module ziglang "ziglang"
    fi
    if wants deb; then need cargo-deb "cargo install cargo-deb --locked"; fi
fi

# --- checks, shared by a build and --check ---
fail() { echo "release.sh: CHECK FAILED: $*" >&2; exit 1; }
work="$(mktemp -d /tmp/pasang-release.XXXXXX)"
trap 'rm -rf "$work"' EXIT

# The bench count every build must give (the search is deterministic):
# the release binary's own, natively, unless a native build is at hand.
bench_nodes() { "$@" bench 2>&1 | sed -n 's/^Nodes searched *: *//p'; }

# No build machine's folder in a binary: not $HOME, not this clone.
no_home_paths() { # FILE
    local hits
    hits="$(strings -n 6 "$1" | grep -E "(^|[^a-z])(/root|/home/|$TOP)" | head -n 3 || true)"
    [ -z "$hits" ] || fail "$1 names a folder of the build machine: $hits"
}

# Released binaries carry no symbol table or debug info (a third of the
# size; a panic aborts, so no backtrace reads them).
stripped() { # FILE
    case "$(file -b "$1")" in
        *"not stripped"* | *"with debug_info"*) fail "$1 is not stripped: $(file -b "$1")" ;;
    esac
}

check_binary() { # ARCH TARBALL
    local arch="$1" tarball="$2" folder="$work/bin-$1"
    mkdir -p "$folder"
    tar -xzf "$tarball" -C "$folder"
    [ "$(tar -tzf "$tarball")" = "pasang" ] || fail "$tarball should hold the one file pasang"
    file_kind="$(file -b "$folder/pasang" 2>/dev/null || true)"
    case "$file_kind" in *"dynamically linked"*) fail "$tarball: not a static binary ($file_kind)" ;; esac
    stripped "$folder/pasang"
    no_home_paths "$folder/pasang"
    local got
    if [ "$arch" = x86_64 ]; then
        native="$(bench_nodes "$folder/pasang")"
        [ -n "$native" ] || fail "$tarball: bench printed no node count"
        EXPECTED_NODES="${EXPECTED_NODES:-$native}"
        [ "$native" = "$EXPECTED_NODES" ] || fail "$tarball: bench counts $native nodes, the native build $EXPECTED_NODES"
        got="$(bench_nodes qemu-x86_64 -cpu Nehalem "$folder/pasang")"
        [ "$got" = "$EXPECTED_NODES" ] || fail "$tarball under qemu-x86_64 -cpu Nehalem: bench counts '$got', the native build $EXPECTED_NODES"
        say "$tarball: bench $got nodes natively and under qemu-x86_64 -cpu Nehalem"
    else
        got="$(bench_nodes qemu-aarch64 "$folder/pasang")"
        [ -n "$got" ] || fail "$tarball under qemu-aarch64: no bench count"
        if [ -n "${EXPECTED_NODES:-}" ]; then
            [ "$got" = "$EXPECTED_NODES" ] || fail "$tarball under qemu-aarch64: bench counts $got, the native build $EXPECTED_NODES"
        fi
        EXPECTED_NODES="${EXPECTED_NODES:-$got}"
        say "$tarball: bench $got nodes under qemu-aarch64"
    fi
}

check_npm() { # TARBALL
    local tarball="$1"
    local listed
    listed="$(tar -tzf "$tarball" | sed 's|^package/||' | sort | tr '\n' ' ')"
    [ "$listed" = "LICENSE README.md engine.mjs package.json pasang.d.ts pasang.mjs pasang.wasm worker.mjs " ] \
        || fail "$tarball holds: $listed"
    local folder="$work/npm"
    mkdir -p "$folder"
    cp "$TOP/scripts/release/check_npm.mjs" "$TOP/scripts/release/consumer.mts" "$folder/"
    (cd "$folder" && npm init -y >/dev/null && npm install --no-audit --no-fund --silent "$tarball" >/dev/null) \
        || fail "npm install $tarball"
    (cd "$folder" && node check_npm.mjs) || fail "the Node script on the installed package"
    # tsc from the repository's one pinned tool set (package.json and its
    # lockfile at the top folder).
    if [ ! -x "$TOP/node_modules/.bin/tsc" ] || [ ! -x "$TOP/node_modules/.bin/esbuild" ]; then
        (cd "$TOP" && npm ci --no-audit --no-fund --silent) || fail "npm ci (typescript, esbuild) at the top folder"
    fi
    (cd "$folder" && "$TOP/node_modules/.bin/tsc" --noEmit --strict --module nodenext \
        --moduleResolution nodenext --target es2022 --skipLibCheck false consumer.mts) \
        || fail "tsc --noEmit on a consumer of the package's types"
    # A web page's author: the page and the package's worker bundled by
    # esbuild from the installed package, pasang.wasm beside them, loaded
    # by headless Chromium; its worker answers uci and go depth 6.
    cp "$TOP"/scripts/release/page/* "$TOP/scripts/release/check_page.mjs" "$folder/"
    (cd "$folder" && "$TOP/node_modules/.bin/esbuild" page.mjs page-worker.mjs --bundle --format=esm \
        --platform=browser --target=es2022 --outdir=site --log-level=warning) || fail "esbuild of a page that imports the package"
    cp "$folder/index.html" "$folder/node_modules/pasang-engine/pasang.wasm" "$folder/site/"
    local page
    page="$(cd "$folder" && node check_page.mjs site)" || fail "the bundled page in headless Chromium"
    say "$tarball: the files listed, installed, a game and a depth-6 bestmove in Node, tsc --noEmit passes; $page"
}

check_wheel() { # WHEEL (x86_64)
    local wheel="$1"
    local report
    report="$(python3 -m auditwheel show "$wheel" 2>&1)" || fail "auditwheel show $wheel: $report"
    echo "$report" | grep -Eq 'manylinux_2_(1[0-9]|2[0-8])_|manylinux(2014|2010|1)_' \
        || fail "$wheel: auditwheel reports no manylinux tag of glibc 2.28 or older: $report"
    case "$wheel" in
        *aarch64*) say "$wheel: $(echo "$report" | grep -o 'manylinux_[0-9_]*aarch64' | head -n 1)"; return ;;
    esac
    no_so_paths "$wheel"
    local venv="$work/venv"
    python3 -m venv "$venv"
    # Installed from the wheel alone: its [rl] extras come from PyPI, and
    # nothing named pasang does.
    "$venv/bin/pip" install --quiet --disable-pip-version-check "$wheel[rl]" || fail "pip install $wheel[rl]"
    # Neither cargo nor rustc on the PATH, the repository not the folder.
    (cd "$work" && env PATH="$venv/bin:/usr/bin:/bin" PASANG_NO_CARGO_CHECK=1 \
        "$venv/bin/python" "$TOP/scripts/release/check_wheel.py") || fail "the installed wheel's checks"
    (cd "$work" && qemu-x86_64 -cpu Nehalem "$venv/bin/python" -c \
        'import pasang; b = pasang.Board(); print(len(b.legal_moves), pasang.search(b, __import__("pasang.engine").engine.Limit(depth=4)).move)') \
        >"$work/nehalem.txt" 2>&1 || fail "the module under qemu-x86_64 -cpu Nehalem: $(cat "$work/nehalem.txt")"
    say "$wheel: $(echo "$report" | grep -o 'manylinux_[0-9_]*x86_64' | head -n 1), installed with [rl] where no cargo is, game, search, api_test, check_env, random_sim_test; runs under -cpu Nehalem"
}

no_so_paths() { # WHEEL
    local folder="$work/so-$(basename "$1")"
    mkdir -p "$folder"
    python3 -m zipfile -e "$1" "$folder"
    for so in "$folder"/pasang/*.so; do no_home_paths "$so"; stripped "$so"; done
}

check_sdist() { # SDIST
    local sdist="$1"
    # The listing first: grep -q would close the pipe on tar (pipefail).
    local listing
    listing="$(tar -tzf "$sdist")"
    grep -q '/pyproject.toml$' <<<"$listing" || fail "$sdist has no pyproject.toml"
    if ! command -v cargo >/dev/null 2>&1; then
        say "$sdist: listed (no cargo here to build it)"
        return
    fi
    local venv="$work/venv-sdist"
    python3 -m venv "$venv"
    # Where Rust is present, pip builds it: the version alone, no git.
    (cd "$work" && "$venv/bin/pip" install --quiet --disable-pip-version-check "$sdist") || fail "pip install $sdist"
    local got
    got="$(cd "$work" && "$venv/bin/python" -c 'import pasang; print(pasang.__version__, len(pasang.Board().legal_moves))')"
    # The version alone, and South's 11 passages at the start.
    [ "$got" = "$VERSION 11" ] || fail "$sdist built a module that says '$got'"
    say "$sdist: pip install builds it (pasang.__version__ '$VERSION')"
}

check_deb() { # DEB
    local deb="$1" root="$work/deb-root"
    lintian --fail-on error "$deb" >"$work/lintian.txt" 2>&1 || fail "lintian $deb: $(grep -v '^W: ' "$work/lintian.txt")"
    dpkg-deb -x "$deb" "$root"
    for path in usr/bin/pasang usr/lib/systemd/system/pasang-serve.service etc/default/pasang-serve \
        usr/share/bash-completion/completions/pasang usr/share/zsh/vendor-completions/_pasang \
        usr/share/fish/vendor_completions.d/pasang.fish usr/share/man/man1/pasang.1.gz \
        usr/share/man/man1/pasang-serve.1.gz; do
        [ -e "$root/$path" ] || fail "$deb has no /$path"
    done
    case "$(file -b "$root/usr/bin/pasang")" in *"dynamically linked"*) ;; *) fail "$deb: /usr/bin/pasang should be a dynamic glibc build" ;; esac
    no_home_paths "$root/usr/bin/pasang"
    stripped "$root/usr/bin/pasang"
    local unit="$root/usr/lib/systemd/system/pasang-serve.service"
    # The unit checked statically, with the binary at its ExecStart path
    # (verify fails without it) and this machine's own systemd units
    # beside it (the targets it is ordered against).
    cp -rn /usr/lib/systemd/system/. "$root/usr/lib/systemd/system/" 2>/dev/null || true
    SYSTEMD_LOG_LEVEL=warning systemd-analyze verify --root="$root" --man=no "$unit" >"$work/verify.txt" 2>&1 \
        || fail "systemd-analyze verify: $(cat "$work/verify.txt")"
    local exposure
    exposure="$(systemd-analyze security --offline=true --root="$root" "$unit" 2>&1 | sed -n 's/.*Overall exposure level for .*: \([0-9.]*\).*/\1/p')"
    [ -n "$exposure" ] || fail "systemd-analyze security printed no exposure"
    awk -v e="$exposure" 'BEGIN { exit !(e <= 2.0) }' || fail "the unit's exposure is $exposure, above 2.0"
    local got
    got="$(bench_nodes "$root/usr/bin/pasang")"
    if [ -n "${EXPECTED_NODES:-}" ]; then
        [ "$got" = "$EXPECTED_NODES" ] || fail "$deb's binary: bench counts $got, the native build $EXPECTED_NODES"
    fi
    say "$deb: lintian no error, systemd-analyze verify passes, exposure $exposure, bench $got nodes"
}

check_crate() { # CRATE
    local crate="$1" listing bytes
    listing="$(tar -tzf "$crate" | sed 's|^[^/]*/||')"
    bytes="$(stat -c %s "$crate")"
    # crates.io takes 10 MB at most.
    [ "$bytes" -lt 10000000 ] || fail "$crate is $bytes bytes, over crates.io's 10 MB"
    for file in Cargo.toml Cargo.lock build.rs src/main.rs src/lib.rs README.md LICENSE; do
        grep -qx "$file" <<<"$listing" || fail "$crate has no $file"
    done
    # Only the engine's files: no tests, scripts, bindings or tool sets
    # (the benches' sources only, which the manifest names).
    local stray
    stray="$(grep -E '^(tests/[^d]|scripts/|web/|python/|fuzz/|benches/|node_modules/|\.ci/|package)' <<<"$listing" \
        | grep -vE '^benches/[a-z_]+\.rs$' | head -n 3 || true)"
    [ -z "$stray" ] || fail "$crate holds files that are not the crate's: $stray"
    # Installed as `cargo install pasang` would: from the unpacked crate,
    # with its own lock file, no repository around it (the version alone).
    tar -xzf "$crate" -C "$work"
    local unpacked="$work/$(basename "$crate" .crate)"
    CARGO_TARGET_DIR="$work/crate-target" cargo install --locked --quiet --path "$unpacked" --root "$work/crate-root" \
        >"$work/install.txt" 2>&1 || fail "cargo install --locked --path (the unpacked $crate): $(tail -n 20 "$work/install.txt")"
    local said
    said="$("$work/crate-root/bin/pasang" --version | head -n 1)"
    [ "$said" = "pasang $VERSION" ] || fail "the crate's pasang says '$said', not 'pasang $VERSION'"
    local got
    got="$(bench_nodes "$work/crate-root/bin/pasang")"
    if [ -n "${EXPECTED_NODES:-}" ]; then
        [ "$got" = "$EXPECTED_NODES" ] || fail "the crate's pasang: bench counts $got, the native build $EXPECTED_NODES"
    fi
    say "$crate: $(wc -l <<<"$listing") files, $bytes bytes; cargo install --locked of it gives '$said', bench $got nodes"
}

check_all() { # DIR
    local dir
    dir="$(cd "$1" && pwd)"
    [ -f "$dir/SHA256SUMS" ] || fail "$dir has no SHA256SUMS"
    (cd "$dir" && sha256sum --check --quiet SHA256SUMS) || fail "$dir's SHA256SUMS do not match"
    if { wants x86_64 || wants aarch64 || wants deb || wants crate; } && [ -x "$TOP/target/release/pasang" ] && [ -z "${EXPECTED_NODES:-}" ]; then
        EXPECTED_NODES="$(bench_nodes "$TOP/target/release/pasang")"
        say "the native build (target/release/pasang): bench $EXPECTED_NODES nodes"
    fi
    local artifact
    for part in $only; do
        case "$part" in
            x86_64|aarch64) artifact="$dir/pasang-$VERSION-$part-linux.tar.gz"; [ -f "$artifact" ] || fail "missing $artifact"; check_binary "$part" "$artifact" ;;
            npm) artifact="$dir/pasang-engine-$VERSION.tgz"; [ -f "$artifact" ] || fail "missing $artifact"; check_npm "$artifact" ;;
            wheel) artifact="$(ls "$dir"/pasang-"$VERSION"-*manylinux*_x86_64.whl 2>/dev/null | head -n 1)"; [ -n "$artifact" ] || fail "no x86_64 wheel in $dir"; check_wheel "$artifact" ;;
            wheel-aarch64) artifact="$(ls "$dir"/pasang-"$VERSION"-*manylinux*_aarch64.whl 2>/dev/null | head -n 1)"; [ -n "$artifact" ] || fail "no aarch64 wheel in $dir"; check_wheel "$artifact" ;;
            sdist) artifact="$dir/pasang-$VERSION.tar.gz"; [ -f "$artifact" ] || fail "missing $artifact"; check_sdist "$artifact" ;;
            deb) artifact="$dir/pasang_${VERSION}_amd64.deb"; [ -f "$artifact" ] || fail "missing $artifact"; check_deb "$artifact" ;;
            crate) artifact="$dir/pasang-$VERSION.crate"; [ -f "$artifact" ] || fail "missing $artifact"; check_crate "$artifact" ;;
        esac
    done
    say "checked in $dir: $only"
}

if [ -n "$check_dir" ]; then
    check_all "$check_dir"
    exit 0
fi

# --- the build ---
mkdir -p "${out:-$TOP/dist}"
DIST="$(cd "${out:-$TOP/dist}" && pwd)"
# Its own target folder, so that the portable flags do not rebuild the
# native target/ (and the other way round).
export CARGO_TARGET_DIR="$TOP/target/release-build"
# No folder of this machine in the binaries: the clone, cargo's registry
# and rustup's toolchain are renamed in file paths and debug info.
CARGO_HOME_DIR="${CARGO_HOME:-$HOME/.cargo}"
RUSTUP_HOME_DIR="${RUSTUP_HOME:-$HOME/.rustup}"
REMAP="--remap-path-prefix=$TOP=/pasang --remap-path-prefix=$CARGO_HOME_DIR=/cargo --remap-path-prefix=$RUSTUP_HOME_DIR=/rustup"
# Stripped: no symbol table or debug info in what is shipped (the release
# profile keeps them for profiling a build from source). The Python
# module's profile inherits release's, but a profile's variable does not.
export CARGO_PROFILE_RELEASE_STRIP=symbols CARGO_PROFILE_PYTHON_STRIP=symbols
# RUSTFLAGS replaces .cargo/config.toml's target-cpu=native.
V2="-C target-cpu=x86-64-v2"

target() { # TRIPLE: rustup installs it, or the artifact is skipped loudly
    rustup target list --installed | grep -qx "$1" && return 0
    rustup target add "$1" >&2 && return 0
    echo "release.sh: SKIPPED: rustup cannot install the target $1; its artifact is not built" >&2
    return 1
}

built=""
if wants x86_64 && target x86_64-unknown-linux-musl; then
    say "the x86_64 static binary (musl, x86-64-v2)"
    RUSTFLAGS="$V2 -C target-feature=+crt-static $REMAP" \
        cargo build --release --locked --target x86_64-unknown-linux-musl --bin pasang
    tar -czf "$DIST/pasang-$VERSION-x86_64-linux.tar.gz" --owner=0 --group=0 \
        -C "$CARGO_TARGET_DIR/x86_64-unknown-linux-musl/release" pasang
    built="$built x86_64"
fi
if wants aarch64 && target aarch64-unknown-linux-musl; then
    say "the aarch64 static binary (musl)"
    # rustup's own lld links it, with the target's self-contained musl.
    RUSTFLAGS="-C linker=rust-lld -C linker-flavor=ld.lld -C target-feature=+crt-static $REMAP" \
        cargo build --release --locked --target aarch64-unknown-linux-musl --bin pasang
    tar -czf "$DIST/pasang-$VERSION-aarch64-linux.tar.gz" --owner=0 --group=0 \
        -C "$CARGO_TARGET_DIR/aarch64-unknown-linux-musl/release" pasang
    built="$built aarch64"
fi
if wants npm && target wasm32-unknown-unknown; then
    say "the npm package"
    RUSTFLAGS="-C target-cpu=generic $REMAP" web/build.sh >&2
    (cd web/dist && npm pack --silent --pack-destination "$DIST" >/dev/null)
    built="$built npm"
fi
if wants wheel && target x86_64-unknown-linux-gnu; then
    say "the x86_64 wheel (abi3, manylinux_2_28, x86-64-v2)"
    RUSTFLAGS="$V2 $REMAP" python3 -m maturin build --release --locked --zig \
        --manifest-path python/Cargo.toml --target x86_64-unknown-linux-gnu \
        --compatibility manylinux_2_28 --out "$DIST" >&2
    built="$built wheel"
fi
if wants wheel-aarch64 && target aarch64-unknown-linux-gnu; then
    say "the aarch64 wheel (abi3, manylinux_2_28)"
    RUSTFLAGS="$REMAP" python3 -m maturin build --release --locked --zig \
        --manifest-path python/Cargo.toml --target aarch64-unknown-linux-gnu \
        --compatibility manylinux_2_28 --out "$DIST" >&2
    built="$built wheel-aarch64"
fi
if wants sdist; then
    say "the sdist"
    python3 -m maturin sdist --manifest-path python/Cargo.toml --out "$DIST" >&2
    built="$built sdist"
fi
if wants deb && target x86_64-unknown-linux-gnu; then
    say "the Debian package (glibc, x86-64-v2)"
    RUSTFLAGS="$V2 $REMAP" cargo build --release --locked --bin pasang
    rm -rf target/deb-assets
    # The linker's .comment (compiler names) is of no use to anyone who
    # runs it, and lintian notes it.
    objcopy --remove-section=.comment "$CARGO_TARGET_DIR/release/pasang"
    "$CARGO_TARGET_DIR/release/pasang" generate-man target/deb-assets/man
    "$CARGO_TARGET_DIR/release/pasang" generate-completions target/deb-assets/completions
    # Debian's own changelog (lintian wants one beside the upstream
    # CHANGELOG.md): this version, dated by its commit.
    printf 'pasang (%s-1) unstable; urgency=medium\n\n  * Release %s: see /usr/share/doc/pasang/changelog.gz.\n\n -- %s  %s\n' \
        "$VERSION" "$VERSION" "the pasang developers <pasang@users.noreply.github.com>" \
        "$(git log -1 --format=%aD)" >target/deb-assets/changelog.Debian
    RUSTFLAGS="$V2 $REMAP" cargo deb --no-build --output "$DIST/pasang_${VERSION}_amd64.deb" >&2
    built="$built deb"
fi
if wants crate; then
    say "the crate (cargo package: the packaged crate is built before it is written)"
    dirty=()
    if [ "$allow_dirty" = yes ]; then dirty=(--allow-dirty); fi
    cargo package --locked -p pasang "${dirty[@]}" >&2
    cp "$CARGO_TARGET_DIR/package/pasang-$VERSION.crate" "$DIST/"
    built="$built crate"
fi
(cd "$DIST" && rm -f SHA256SUMS && sha256sum -- * >SHA256SUMS.new && mv SHA256SUMS.new SHA256SUMS)
say "built into dist/:$built"
ls -l "$DIST" >&2
only="$built"
check_all "$DIST"
