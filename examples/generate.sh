#!/bin/sh
# How the example games were made: bots through the real referee, each move a signed move file.
# Re-run only with a rules_version change (the tests check that these games still verify).
set -eu
cd "$(dirname "$0")"
rm -rf coal-baron gold-fever heartland-hauling
mkdir -p coal-baron gold-fever heartland-hauling
pbem demo coal-baron --players 2 --seed cb-hand-2p --dir coal-baron/cb-hand-2p --save-moves > /dev/null
pbem demo coal-baron --players 3 --seed cb-hand-3p --dir coal-baron/cb-hand-3p > /dev/null
pbem demo coal-baron --players 4 --seed cb-hand-4p --dir coal-baron/cb-hand-4p > /dev/null
pbem demo coal-baron --players 3 --seed cb-phase-3p --option phase-cards=on --dir coal-baron/cb-phase-3p-in-progress \
    --moves 60 --save-moves > /dev/null
pbem demo gold-fever --players 3 --seed gf-3p --dir gold-fever/gf-3p --save-moves > /dev/null
pbem demo gold-fever --players 5 --seed gf-5p --dir gold-fever/gf-5p > /dev/null
pbem demo gold-fever --players 4 --seed gf-4p --dir gold-fever/gf-4p-in-progress --moves 40 --save-moves > /dev/null
pbem demo heartland-hauling --players 2 --seed hh-2p --dir heartland-hauling/hh-2p > /dev/null
pbem demo heartland-hauling --players 3 --seed hh-3p --option truck-stops=on --option alternate-routes=on \
    --dir heartland-hauling/hh-3p-in-progress --moves 60 --save-moves > /dev/null
# The lock, the last applied bundle and the key that authenticates bundles are the referee machine's business,
# not part of an example (a move on a copy makes a new key).
find . -name .lock -delete
find . -name .txn -type d -exec rm -rf {} +
find . -path '*/referee/txn.key' -delete
# The game played by git (a bundle of its repository): see git/README.md.
python3 git/make_example.py > /dev/null
