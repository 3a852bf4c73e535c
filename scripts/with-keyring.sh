#!/usr/bin/env bash
# Runs a command with an unlocked gnome-keyring (Secret Service) on the current D-Bus session.
# Use it under dbus-run-session; the keyring lives in a throwaway home so no user keyring is touched.
set -euo pipefail
export XDG_DATA_HOME="${XDG_DATA_HOME:-$(mktemp -d)}"
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$(mktemp -d)}"
chmod 700 "$XDG_RUNTIME_DIR"
eval "$(printf 'fieldkit-test' | gnome-keyring-daemon --unlock --components=secrets)"
export GNOME_KEYRING_CONTROL
exec "$@"
