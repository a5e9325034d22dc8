#!/bin/sh
# System packages the reports need: Debian's Chromium (printed to PDF through Playwright;
# `playwright install` is never used) and poppler-utils (pdftotext, pdftoppm for the tests);
# and PostgreSQL's server, whose binaries (initdb, pg_ctl, postgres, under
# /usr/lib/postgresql/<version>/bin) the test of the shared instance starts a throwaway
# cluster with (tests/test_postgres_instance.py).
# Also, where the distribution has it, Chromium's headless shell (Debian 12's
# `chromium-headless-shell`: the same engine for about 30 % less CPU a page opened and
# 12 % a page printed, `pipelines/reports/pdf.py`); without it the browser is driven.
# Idempotent: installs only what is missing. Run as root, or with sudo available.
set -eu

missing=""
command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ] || missing="$missing chromium"
command -v pdftoppm >/dev/null 2>&1 && command -v pdftotext >/dev/null 2>&1 \
    || missing="$missing poppler-utils"
command -v initdb >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 \
    || missing="$missing postgresql"
shell=""
[ -x /usr/bin/chromium-headless-shell ] || shell="chromium-headless-shell"

if [ -z "$missing" ] && { [ -z "$shell" ] || [ -e .venv/.no-headless-shell ]; }; then
    echo "system-deps: chromium (its headless shell if available), poppler-utils and postgresql already installed"
    exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
    run=""
elif command -v sudo >/dev/null 2>&1; then
    run="sudo"
elif [ -n "$missing" ]; then
    echo "system-deps: missing Debian packages:$missing" >&2
    echo "system-deps: run as root (or with sudo): apt-get install -y$missing" >&2
    exit 1
else
    echo "system-deps: chromium-headless-shell not installed (optional): the browser is driven"
    exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
    if [ -n "$missing" ]; then
        echo "system-deps: apt-get not found; install$missing with your package manager" >&2
        exit 1
    fi
    exit 0
fi

echo "system-deps: installing$missing $shell"
export DEBIAN_FRONTEND=noninteractive
$run apt-get update -qq
if [ -n "$missing" ]; then
    # shellcheck disable=SC2086 # the package list is meant to split
    $run env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing
fi
if [ -n "$shell" ]; then
    # optional: a distribution without the package keeps the browser (asked once)
    $run env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$shell" \
        || { echo "system-deps: no $shell here: the browser is driven"; \
             mkdir -p .venv && touch .venv/.no-headless-shell; }
fi
