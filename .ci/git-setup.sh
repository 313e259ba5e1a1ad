#!/bin/sh
# What the git tests need beyond the Python test extra: the git binary and ssh-keygen (OpenSSH's client), which
# play by git uses for real (a bare remote, clones, SSH-signed commits). Idempotent and quiet.
set -eu
need=""
command -v git >/dev/null 2>&1 || need="$need git"
command -v ssh-keygen >/dev/null 2>&1 || need="$need openssh-client"
if [ -n "$need" ]; then
    if [ "$(id -u)" -ne 0 ]; then
        SUDO=sudo
    else
        SUDO=
    fi
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -qq >/dev/null
    $SUDO apt-get install -y -qq --no-install-recommends $need >/dev/null
fi
exit 0
