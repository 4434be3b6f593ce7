#!/bin/sh
# Installs everything the test suite needs on a fresh Debian/Ubuntu machine:
# tmux (the terminal end-to-end tests), iproute2 (network namespaces for discovery
# tests), nftables (blocks UDP discovery inside a test's namespace: the mDNS test), npm
# (axe-core for the accessibility tests),
# Debian's chromium and chromium-driver (the web view is tested in headless Chromium
# through Selenium, pointed at /usr/bin/chromedriver: nothing is downloaded),
# then this package with its test extra. Run from the repository root.
set -e
missing=""
command -v tmux >/dev/null 2>&1 || missing="$missing tmux"
command -v ip >/dev/null 2>&1 || missing="$missing iproute2"
command -v nft >/dev/null 2>&1 || missing="$missing nftables"
[ -x /usr/bin/chromium ] || missing="$missing chromium"
[ -x /usr/bin/chromedriver ] || missing="$missing chromium-driver"
command -v npm >/dev/null 2>&1 || missing="$missing npm"  # axe-core, below
if [ -n "$missing" ] && command -v apt-get >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi
    $sudo apt-get update -q
    if ! DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q $missing; then
        # Another distribution may lack one (Ubuntu ships chromium as a snap): install
        # what it has; the tests needing the rest skip, saying why.
        for package in $missing; do
            DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "$package" ||
                echo "tests/install.sh: $package is not available here"
        done
    fi
elif [ -n "$missing" ]; then
    # macOS, Windows: no apt; the tests that need these skip, saying why.
    echo "tests/install.sh: not installed here:$missing (the tests needing them skip)"
fi
python3 -m pip install -q -e '.[test]'
# axe-core (the accessibility engine the page tests run in Chromium), from npm into
# tests/.axe (ignored by git); without npm, install Node.js's npm first.
if command -v npm >/dev/null 2>&1; then
    npm install --no-audit --no-fund --silent --prefix tests/.axe axe-core@4
else
    echo "tests/install.sh: npm is missing: the accessibility tests need axe-core from npm"
fi
