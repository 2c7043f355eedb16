# SPDX-License-Identifier: GPL-2.0
# Shared settings for the faultaround scripts; sourced, never run.

set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${O:-$TOP/build}
mkdir -p "$BUILD"
BUILD=$(cd "$BUILD" && pwd)
TREE=$BUILD/linux
BASE_TAG=faultaround-base
PINNED_VERSION=$(grep -v '^#' "$TOP/patches/BASE_VERSION" | sed -n 1p)
BASE_VERSION=${BASE_VERSION:-$PINNED_VERSION}
JOBS=${JOBS:-$(nproc)}

# ccache through Debian's masquerade directory covers native and cross gcc.
export PATH=/usr/lib/ccache:$PATH
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/faultaround-ccache}
export CCACHE_SLOPPINESS=time_macros,include_file_mtime,include_file_ctime
# Relative paths in the hash: a clone elsewhere still hits the cache.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$TOP}
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}
export KBUILD_BUILD_TIMESTAMP='1970-01-01'
export KBUILD_BUILD_USER=faultaround KBUILD_BUILD_HOST=lab

# With pipefail, never end a pipeline in head: the writer may die of SIGPIPE
# and fail the pipeline.  sed -n 1p reads all of its input.
log() { printf '==> %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# The series' patches, in order (the cover letter carries no diff).
series_patches() {
	find "$TOP/patches" -maxdepth 1 -name '[0-9][0-9][0-9][0-9]-*.patch' \
		! -name '0000-*' | sort
}

require_tree() {
	[ -d "$TREE/.git" ] || die "no kernel tree in $TREE; run 'make tree' first"
}

# Commits of the series up to $1 (default HEAD), oldest first.
series_commits() {
	git -C "$TREE" rev-list --reverse "$BASE_TAG..${1:-HEAD}"
}

# Kernel objects built from the C files a commit range touches.
touched_objects() {
	git -C "$TREE" diff --name-only "$@" -- '*.c' | sed 's/\.c$/.o/'
}

# Findings in $2 that $1 does not have, ignoring line and column numbers,
# so that code moved by the series does not count as new.
new_findings() {
	local norm='s/:[0-9]+:[0-9]+:/:/; s/:[0-9]+:/:/'
	diff <(sed -E "$norm" "$1" | sort) <(sed -E "$norm" "$2" | sort) |
		sed -n 's/^> //p'
}

# Findings in $1 ("file:line:...") on lines the series adds.
findings_on_added_lines() {
	git -C "$TREE" diff -U0 "$BASE_TAG" HEAD | awk -v findings="$1" '
		/^\+\+\+ b\// { file = substr($0, 7) }
		/^@@/ {
			split($3, r, ",")
			start = substr(r[1], 2); n = (r[2] == "") ? 1 : r[2]
			for (i = 0; i < n; i++) added[file ":" start + i] = 1
		}
		END {
			while ((getline line < findings) > 0) {
				split(line, f, ":")
				if ((f[1] ":" f[2]) in added) print line
			}
		}'
}
