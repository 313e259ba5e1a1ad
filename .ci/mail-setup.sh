#!/bin/sh
# What the mail tests need beyond the Python test extra (aiosmtpd): Debian's dovecot for the IMAP inbox tests
# (the tests start their own dovecot on 127.0.0.1 with a config in a temporary directory; the system service is
# neither configured nor started) and openssl for the STARTTLS test's certificate. Idempotent and quiet.
set -eu
need=""
command -v dovecot >/dev/null 2>&1 || [ -x /usr/sbin/dovecot ] || need="$need dovecot-imapd"
command -v openssl >/dev/null 2>&1 || need="$need openssl"
if [ -n "$need" ]; then
    if [ "$(id -u)" -ne 0 ]; then
        SUDO=sudo
    else
        SUDO=
    fi
    export DEBIAN_FRONTEND=noninteractive
    # the package's service must not start (there is no init in CI; the tests run their own instance)
    $SUDO apt-get update -qq >/dev/null
    $SUDO apt-get install -y -qq --no-install-recommends $need >/dev/null
fi
exit 0
