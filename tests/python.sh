#!/bin/sh
# tests/python.sh: how make check runs a Python test file: with python3, or a skip (exit 77) that
# says why when python3 is not installed (bootstrap names it as a test tool, not a build need).
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is not installed"; exit 77; }
exec python3 "$@"
