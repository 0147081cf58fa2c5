#!/usr/bin/env bash
# Starts Chromium ($FIXDESK_CHROMIUM) with the arguments it is given, every --disable-features list
# merged into one that also turns off the features in $FIXDESK_DISABLE_FEATURES. Chromium keeps only
# the last --disable-features switch, and Playwright passes its own list: a second switch from
# launchBrowser() would drop Playwright's. exec: Chromium keeps this process's id and its pipes.
set -euo pipefail
features="${FIXDESK_DISABLE_FEATURES:-}"
args=()
for arg in "$@"; do
  case "$arg" in
    --disable-features=*) features="${features:+$features,}${arg#--disable-features=}" ;;
    *) args+=("$arg") ;;
  esac
done
exec "${FIXDESK_CHROMIUM:?the Chromium to start}" "${args[@]}" ${features:+"--disable-features=$features"}
