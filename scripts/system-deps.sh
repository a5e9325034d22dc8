#!/bin/sh
# System packages the reports need: Debian's Chromium (printed to PDF through Playwright;
# `playwright install` is never used) and poppler-utils (pdftotext, pdftoppm for the tests);
# and PostgreSQL's server, whose binaries (initdb, pg_ctl, postgres, under
# /usr/lib/postgresql/<version>/bin) the test of the shared instance starts a throwaway
# cluster with (tests/test_postgres_instance.py).
# Idempotent: installs only what is missing. Run as root, or with sudo available.
set -eu

missing=""
command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ] || missing="$missing chromium"
command -v pdftoppm >/dev/null 2>&1 && command -v pdftotext >/dev/null 2>&1 \
    || missing="$missing poppler-utils"
command -v initdb >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 \
    || missing="$missing postgresql"

if [ -z "$missing" ]; then
    echo "system-deps: chromium, poppler-utils and postgresql already installed"
    exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
    run=""
elif command -v sudo >/dev/null 2>&1; then
    run="sudo"
else
    echo "system-deps: missing Debian packages:$missing" >&2
    echo "system-deps: run as root (or with sudo): apt-get install -y$missing" >&2
    exit 1
fi

if ! command -v apt-get >/dev/null 2>&1; then
    echo "system-deps: apt-get not found; install$missing with your package manager" >&2
    exit 1
fi

echo "system-deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
$run apt-get update -qq
# shellcheck disable=SC2086 # the package list is meant to split
$run env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing
