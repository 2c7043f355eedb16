# SPDX-License-Identifier: GPL-2.0
# The base's tarball: which Debian linux-source version make tree builds
# on, and getting it.  Sourced after lib.sh (by tree.sh, and by
# tests/lab/apt-retry-test.sh), never run.
#
# The version rule.  The base is Debian's linux-source-<line> package, the
# line being the first two numbers of the version the series pins in its
# BASE_VERSION (patches/: 7.3; BASE=6.12: patches/6.12/):
#   1. BASE_VERSION=<version> on the command line forces that version (of
#      its own line); if Debian does not serve it, make tree fails.
#   2. Else the pinned version, if Debian still serves it (or its tarball
#      is in $BUILD/deps already, from an earlier make tree).
#   3. Else the newest upload of the same line that Debian serves
#      (backports keep only the newest upload: the pinned one goes when a
#      newer one comes), with a WARNING naming the pinned and the taken
#      version: the patches may need a rebase.
#   4. Else, the line itself gone (no linux-source-<line> at all), for the
#      main series only: the newest version of the newest linux-source-X.Y
#      line Debian serves, with the same WARNING.  A backport (BASE=6.12)
#      is of its line only: there, no 6.12 at all fails.
# Rules 3 and 4 only follow a clean apt-get update: with an index failed,
# "not served" may be that index's fault, so it is retried (lib.sh's
# apt_try) and, if it never comes clean, make tree fails with apt_try's
# one line ("may be transient").  make tree prints the outcome:
#   base: linux-source-7.3 7.3.4-1~bpo13+1 (pinned)
#   base: linux-source-7.3 7.3.5-1~bpo13+1 (pinned 7.3.4-1~bpo13+1 is gone: newest of the 7.3 line)
#
# Where from.  The package is not installed (nor does make tree need
# root's apt for it): apt-get download, with sources, lists and caches of
# its own under $BUILD/deps/apt/ and dpkg's status /dev/null, so the
# host's apt configuration and state never change.  Its sources are
# derived from the host's (/etc/apt/sources.list, sources.list.d/*.list
# and *.sources; APT_ETC=<dir> for another): every Debian entry for the
# host's release (Suites <codename> and <codename>-*, e.g. bookworm,
# bookworm-updates, bookworm-security: 6.12 is in bookworm-security),
# plus $BASE_SUITES (trixie-backports, where linux-source-7.3 is) on the
# URI of the entry that serves <codename> itself, the main archive.  No
# archive host is written here.  The .deb is unpacked with dpkg-deb -x into
# $BUILD/deps/linux-source/<package>_<version>/ (the tarball is
# usr/src/<package>.tar.xz there) and deleted: build/ holds everything a
# run makes (make clean, or O=, covers it), and a tarball already there
# is reused without asking Debian.

APT_ETC=${APT_ETC:-/etc/apt}
OS_RELEASE=${OS_RELEASE:-/etc/os-release}
BASE_SUITES=${BASE_SUITES:-trixie-backports}
BASE_APT=$BUILD/deps/apt
BASE_CACHE=$BUILD/deps/linux-source

# The host's apt entries of type deb, one "<URI> <suite> <Signed-By or ->"
# a line, from both formats.
host_apt_entries() {
	local f
	for f in "$APT_ETC/sources.list" "$APT_ETC"/sources.list.d/*.list; do
		[ -f "$f" ] || continue
		awk '{ sub(/#.*/, "") }
		$1 == "deb" {
			i = 2; sb = "-"
			if ($2 ~ /^\[/) {
				for (; i <= NF; i++) {
					if ($i ~ /^\[?signed-by=/) {
						sb = $i; sub(/^\[?signed-by=/, "", sb); sub(/\]$/, "", sb)
					}
					if ($i ~ /\]$/) { i++; break }
				}
			}
			if (i + 1 <= NF) print $i, $(i + 1), sb
		}' "$f"
	done
	for f in "$APT_ETC"/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		awk 'function flush(   n, m, a, b, u, s) {
			if (types ~ /(^| )deb( |$)/ && enabled != "no") {
				if (sb !~ /^\//) sb = "-"
				n = split(uris, u, " "); m = split(suites, s, " ")
				for (a = 1; a <= n; a++) for (b = 1; b <= m; b++) print u[a], s[b], sb
			}
			types = uris = suites = sb = enabled = field = ""
		}
		/^#/ { next }
		/^[ \t]*$/ { flush(); next }
		/^[ \t]/ {	# a continuation line
			if (field == "uris") uris = uris " " $0
			else if (field == "suites") suites = suites " " $0
			else if (field == "types") types = types " " $0
			next
		}
		{
			field = tolower($0); sub(/:.*/, "", field)
			val = $0; sub(/^[^:]*:[ \t]*/, "", val); gsub(/\t/, " ", val)
			if (field == "types") types = val
			else if (field == "uris") uris = val
			else if (field == "suites") suites = val
			else if (field == "signed-by") sb = val
			else if (field == "enabled") enabled = tolower(val)
		}
		END { flush() }' "$f"
	done
}

# Write $BASE_APT/sources.list.d/faultaround.sources (see the top) and set
# lib.sh's APT_OPTIONS to the private apt.  With "src" (sparse.sh): only
# deb-src of $BASE_SUITES on the main archive's URI.
base_apt_setup() {
	local codename arch entries main list mode=${1:-}
	codename=$(. "$OS_RELEASE" && echo "${VERSION_CODENAME:-}")
	[ -n "$codename" ] || die "no VERSION_CODENAME in $OS_RELEASE: cannot tell the host's Debian release"
	arch=$(dpkg --print-architecture)
	entries=$(host_apt_entries | awk -v c="$codename" '$2 == c || index($2, c "-") == 1' | sort -u)
	main=$(awk -v c="$codename" '$2 == c { print $1; exit }' <<< "$entries")
	[ -n "$main" ] ||
		die "no apt source in $APT_ETC serves Debian's $codename: cannot tell where Debian's archive is"
	mkdir -p "$BASE_APT/sources.list.d" "$BASE_APT/lists/partial" "$BASE_APT/cache/archives/partial"
	list=$BASE_APT/sources.list.d/faultaround.sources
	# One stanza per URI and key: the host's suites, and on the main
	# archive's URI $BASE_SUITES too.
	[ "$mode" != src ] ||
		entries=$(awk -v m="$main" -v c="$codename" '$1 == m && $2 == c' <<< "$entries")
	awk -v main="$main" -v extra="$BASE_SUITES" -v arch="$arch" -v mode="$mode" '
		{ k = $1 " " $3; if (!(k in s)) { order[++n] = k } s[k] = s[k] " " $2 }
		END {
			for (i = 1; i <= n; i++) {
				split(order[i], f, " ")
				suites = substr(s[order[i]], 2)
				if (f[1] == main && !added) { suites = suites " " extra; added = 1 }
				if (mode == "src")
					printf "Types: deb-src\nURIs: %s\nSuites: %s\nComponents: main\n", f[1], extra
				else
					printf "%sTypes: deb\nURIs: %s\nSuites: %s\nComponents: main\nArchitectures: %s\n",
						(i > 1 ? "\n" : ""), f[1], suites, arch
				if (f[2] != "-") printf "Signed-By: %s\n", f[2]
			}
		}' <<< "$entries" > "$list.tmp"
	mv -f "$list.tmp" "$list"
	APT_OPTIONS=(-o Dir::Etc::SourceList=/dev/null
		-o Dir::Etc::SourceParts="$BASE_APT/sources.list.d"
		-o Dir::State::Lists="$BASE_APT/lists"
		-o Dir::Cache="$BASE_APT/cache"
		-o Dir::State::status=/dev/null
		-o Acquire::Languages=none)
	# As root, apt would hand downloads to its _apt user, who cannot
	# write here.
	[ "$(id -u)" != 0 ] || APT_OPTIONS+=(-o APT::Sandbox::User=root)
}

# The versions of package $1 Debian serves, one a line.
served_versions() {
	apt_cache madison "$1" 2>/dev/null | awk -F'|' -v p="$1" '
		{ gsub(/[ \t]/, "", $1); gsub(/[ \t]/, "", $2) } $1 == p && $2 != "" { print $2 }' | sort -u
}

# The newest of the Debian versions on stdin (dpkg's order).
newest_version() {
	local v best=
	while read -r v; do
		[ -n "$v" ] || continue
		if [ -z "$best" ] || dpkg --compare-versions "$v" gt "$best"; then best=$v; fi
	done
	echo "$best"
}

# base_choose: the rule (see the top), on the lists of the last update.
# Sets BASE_PKG, BASE_USED and BASE_RULE (the words make tree prints in
# parentheses), and BASE_WARN (1: the pinned version is not the one taken).
# Returns 1 when the answer may be a failed index's (try again: apt_try),
# 3 when final (BASE_WHY says why).  Uses lib.sh's PINNED_VERSION,
# FORCED_VERSION, BASE_LINE, APT_UPDATE_OK, and BASE_FALLS_FORWARD (1: the
# main series, rule 4 applies).
base_choose() {
	local vers line
	BASE_PKG='' BASE_USED='' BASE_RULE='' BASE_WARN=0 BASE_WHY=''
	if [ -n "$FORCED_VERSION" ]; then
		line=$(line_of "$FORCED_VERSION") ||
			{ BASE_WHY="BASE_VERSION=$FORCED_VERSION is not a Debian linux-source version"; return 3; }
		BASE_PKG=linux-source-$line
		vers=$(served_versions "$BASE_PKG")
		if grep -qxF -- "$FORCED_VERSION" <<< "$vers"; then
			BASE_USED=$FORCED_VERSION BASE_RULE="BASE_VERSION=$FORCED_VERSION; pinned $PINNED_VERSION"
			return 0
		fi
		[ "$APT_UPDATE_OK" = 1 ] || return 1
		BASE_WHY="Debian does not serve $BASE_PKG $FORCED_VERSION (BASE_VERSION=); it serves: $(tr "\n" " " <<< "${vers:-nothing}" | sed "s/ $//")"
		return 3
	fi
	BASE_PKG=linux-source-$BASE_LINE
	vers=$(served_versions "$BASE_PKG")
	if grep -qxF -- "$PINNED_VERSION" <<< "$vers"; then
		BASE_USED=$PINNED_VERSION BASE_RULE=pinned
		return 0
	fi
	[ "$APT_UPDATE_OK" = 1 ] || return 1
	BASE_WARN=1
	if [ -n "$vers" ]; then
		BASE_USED=$(newest_version <<< "$vers")
		BASE_RULE="pinned $PINNED_VERSION is gone: newest of the $BASE_LINE line"
		return 0
	fi
	if [ "${BASE_FALLS_FORWARD:-0}" != 1 ]; then
		BASE_WHY="Debian serves no $BASE_PKG any more (pinned $PINNED_VERSION): a backport stays on its line; force one with BASE_VERSION=<version>"
		return 3
	fi
	line=$(apt_cache pkgnames linux-source- 2>/dev/null |
		sed -n 's/^linux-source-\([0-9][0-9]*\.[0-9][0-9]*\)$/\1/p' | newest_version)
	if [ -z "$line" ]; then
		BASE_WHY="Debian serves no linux-source-X.Y package at all (pinned $BASE_PKG $PINNED_VERSION)"
		return 3
	fi
	BASE_PKG=linux-source-$line
	BASE_USED=$(served_versions "$BASE_PKG" | newest_version)
	BASE_RULE="pinned $PINNED_VERSION is gone, and the $BASE_LINE line with it: newest line Debian serves, $line"
}

# The multi-line WARNING when the pinned version is not the one taken.
base_warning() {
	cat >&2 <<EOF
WARNING: Debian no longer serves linux-source-$BASE_LINE $PINNED_VERSION,
WARNING:   the version ${BASE_PATCHES#"$TOP"/}/BASE_VERSION pins (the series was tested on it).
WARNING: Taking $BASE_PKG $BASE_USED instead (${BASE_RULE#*: }).
WARNING: The patches may not apply, or behave otherwise: rebase them and
WARNING:   pin the new version, or force one with make tree BASE_VERSION=<version>.
EOF
}

# The tarball of $1 (package) $2 (version) in the cache, whether or not
# it is there.
base_tarball_path() {
	echo "$BASE_CACHE/$1_${2//:/%3a}/usr/src/$1.tar.xz"
}

# Download and unpack the chosen package (after base_choose, in apt_try).
base_download() {
	local dir=$BASE_CACHE/${BASE_PKG}_${BASE_USED//:/%3a} tmp
	[ ! -f "$(base_tarball_path "$BASE_PKG" "$BASE_USED")" ] || return 0
	tmp=$BASE_CACHE/.download
	rm -rf "$tmp" "$dir.tmp"
	mkdir -p "$tmp" "$dir.tmp"
	(cd "$tmp" && apt_get download -q "$BASE_PKG=$BASE_USED") || return
	dpkg-deb -x "$tmp"/*.deb "$dir.tmp" || return
	[ -f "$dir.tmp/usr/src/$BASE_PKG.tar.xz" ] ||
		{ BASE_WHY="$BASE_PKG $BASE_USED: its .deb has no usr/src/$BASE_PKG.tar.xz"; return 3; }
	rm -rf "$tmp" "$dir"
	mv "$dir.tmp" "$dir"
}

base_fetch() { base_choose && base_download; }

# base_get: choose the base by the rule and have its tarball in the cache.
# Sets BASE_PKG, BASE_USED, BASE_RULE and BASE_TARBALL; prints the WARNING
# where the rule says so; fails with one line.
base_get() {
	local want=${FORCED_VERSION:-$PINNED_VERSION} line rc=0
	line=$(line_of "$want") || die "BASE_VERSION=$want is not a Debian linux-source version"
	# Forced or pinned, and unpacked before: Debian need not be asked.
	if [ -f "$(base_tarball_path "linux-source-$line" "$want")" ]; then
		BASE_PKG=linux-source-$line BASE_USED=$want BASE_WARN=0
		if [ -n "$FORCED_VERSION" ]; then
			BASE_RULE="BASE_VERSION=$FORCED_VERSION; pinned $PINNED_VERSION"
		else
			BASE_RULE=pinned
		fi
	else
		base_apt_setup
		log "asking Debian's archive for linux-source-$line (apt sources: ${BASE_APT#"$TOP"/}/sources.list.d/)"
		apt_try "linux-source-$line" base_fetch || rc=$?
		if [ "$rc" != 0 ]; then
			[ -z "$BASE_WHY" ] || die "$BASE_WHY"
			exit 1	# apt_try said why, in one line
		fi
	fi
	BASE_TARBALL=$(base_tarball_path "$BASE_PKG" "$BASE_USED")
	[ "$BASE_WARN" != 1 ] || base_warning
}
