#!/bin/sh
# What the tests need beyond the Python test extra, from Debian's packages: dovecot for the IMAP inbox tests (the
# tests start their own dovecot on 127.0.0.1 with a config in a temporary directory; the system service is
# neither configured nor started), openssl for the STARTTLS test's certificate, and git with ssh-keygen for play
# by git (a bare remote, clones, SSH-signed commits); the DejaVu fonts the pictures are drawn in (the golden
# images are rendered with them), a small CJK font (WenQuanYi Micro Hei, one of those pbem/text/fonts.yaml names) for
# the test that draws Chinese, and chromium for the browser test of the site and the HTML mail (run headless).
# Installs only what is missing. Idempotent and quiet.
set -eu
need=""
command -v dovecot >/dev/null 2>&1 || [ -x /usr/sbin/dovecot ] || need="$need dovecot-imapd"
command -v openssl >/dev/null 2>&1 || need="$need openssl"
command -v git >/dev/null 2>&1 || need="$need git"
command -v ssh-keygen >/dev/null 2>&1 || need="$need openssh-client"
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || need="$need fonts-dejavu-core"
[ -f /usr/share/fonts/truetype/wqy/wqy-microhei.ttc ] || need="$need fonts-wqy-microhei"
command -v chromium >/dev/null 2>&1 || need="$need chromium"
if [ -n "$need" ]; then
    if [ "$(id -u)" -ne 0 ]; then
        SUDO=sudo
    else
        SUDO=
    fi
    export DEBIAN_FRONTEND=noninteractive
    # the packages' services must not start (there is no init in CI; the tests run their own instances)
    $SUDO apt-get update -qq >/dev/null
    $SUDO apt-get install -y -qq --no-install-recommends $need >/dev/null
fi
exit 0
