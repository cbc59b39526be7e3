#!/bin/sh
# tests/python.sh: how make check runs a Python test file. The interpreter is $PYTHON when set, else
# the system's /usr/bin/python3 (the one bootstrap's apt-get installs python3-* modules for, even
# when a pyenv or venv python3 comes first on PATH), else python3 on PATH; without any, the test
# skips and says why in TAP ("1..0 # SKIP ..."): python3 is a test tool, not a build need.
py=${PYTHON:-}
if [ -z "$py" ]; then
	if [ -x /usr/bin/python3 ]; then py=/usr/bin/python3; else py=python3; fi
fi
command -v "$py" >/dev/null 2>&1 || { echo "1..0 # SKIP python3 is not installed"; exit 0; }
exec "$py" "$@"
