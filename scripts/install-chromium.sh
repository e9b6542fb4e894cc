#!/usr/bin/env bash
# Install Debian's Chromium for the browser tests when it is missing (needs root or sudo).
set -euo pipefail
if command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ]; then exit 0; fi
SUDO=""
[ "$(id -u)" = 0 ] || SUDO="sudo -n"
command -v apt-get >/dev/null 2>&1 || { echo "install-chromium: no apt-get here" >&2; exit 1; }
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >/dev/null
$SUDO apt-get install -y -qq chromium fonts-noto-core fonts-dejavu-core >/dev/null
