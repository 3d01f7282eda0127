#!/usr/bin/env bash
# The step of action.yml: install the released relurl for this runner,
# verify it against the release's checksums, and run relurl check with
# -format github in the workspace. Its inputs come as INPUT_ARGS,
# INPUT_VERSION, INPUT_FAIL and INPUT_RELEASE_URL; the runner's as
# RUNNER_OS, RUNNER_ARCH, RUNNER_TEMP, GITHUB_WORKSPACE and
# GITHUB_STEP_SUMMARY, as GitHub sets them.
set -euo pipefail
fail() { echo "::error title=relurl action::$*"; exit 1; }

case "${RUNNER_OS:-}" in
  Linux) os=linux ext=tar.gz ;;
  macOS) os=darwin ext=tar.gz ;;
  Windows) os=windows ext=zip ;;
  *) fail "runner OS \"${RUNNER_OS:-}\": relurl is released for Linux, macOS and Windows" ;;
esac
case "${RUNNER_ARCH:-}" in
  X64) arch=amd64 ;;
  ARM64) arch=arm64 ;;
  *) fail "runner architecture \"${RUNNER_ARCH:-}\": relurl is released for X64 and ARM64" ;;
esac

base=${INPUT_RELEASE_URL:-https://github.com/relurl/relurl/releases/download}
base=${base%/}
tag=${INPUT_VERSION:-latest}
if [ "$tag" = latest ]; then
  # The latest release's tag, from the redirect GitHub answers with.
  latest=$(curl -fsSLI -o /dev/null -w '%{url_effective}' "${base%/download}/latest") ||
    fail "could not find the latest release under ${base%/download}"
  tag=${latest##*/}
fi
version=${tag#v}
archive="relurl_${version}_${os}_${arch}.${ext}"

dir="${RUNNER_TEMP:-$(mktemp -d)}/relurl-$tag"
mkdir -p "$dir"
curl -fsSL -o "$dir/$archive" "$base/$tag/$archive" || fail "could not download $base/$tag/$archive"
curl -fsSL -o "$dir/checksums.txt" "$base/$tag/checksums.txt" || fail "could not download $base/$tag/checksums.txt"
want=$(awk -v f="$archive" '$2 == f {print $1}' "$dir/checksums.txt")
[ -n "$want" ] || fail "checksums.txt of $tag lists no $archive"
if command -v sha256sum >/dev/null; then
  got=$(sha256sum "$dir/$archive" | awk '{print $1}')
else
  got=$(shasum -a 256 "$dir/$archive" | awk '{print $1}')
fi
[ "$got" = "$want" ] || fail "$archive does not match the release's checksums.txt (sha256 $got, not $want): not run"
if [ "$ext" = zip ]; then
  if command -v unzip >/dev/null; then
    unzip -q -o "$dir/$archive" -d "$dir"
  else
    7z x -y -o"$dir" "$dir/$archive" >/dev/null # Windows runners have 7-Zip
  fi
  relurl="$dir/relurl.exe"
else
  tar -xzf "$dir/$archive" -C "$dir"
  relurl="$dir/relurl"
fi
echo "relurl: $("$relurl" version)"

cd "${GITHUB_WORKSPACE:-.}"
status=0
# The arguments, split at white space (never evaluated by the shell).
read -r -a args <<<"${INPUT_ARGS:--offline .}"
"$relurl" check -format github "${args[@]}" || status=$?
case "$status" in
  0) ;;
  2) exit 2 ;; # a usage error: the workflow is wrong, whatever fail says
  *) [ "${INPUT_FAIL:-true}" = false ] || exit "$status" ;;
esac
